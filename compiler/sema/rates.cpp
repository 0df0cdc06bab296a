#include "sema/rates.hpp"

#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"

namespace dfgc::sema {

namespace {

constexpr std::uint32_t kArrowLength = 2;

/// A positive fraction, kept reduced; nullopt when a product overflows.
struct Ratio {
  std::uint64_t num = 1, den = 1;
};

std::optional<Ratio> times(Ratio r, std::uint64_t num, std::uint64_t den) {
  std::uint64_t a = std::gcd(r.num, den), b = std::gcd(num, r.den);
  std::uint64_t n = 0, d = 0;
  if (__builtin_mul_overflow(r.num / a, num / b, &n) ||
      __builtin_mul_overflow(r.den / b, den / a, &d))
    return std::nullopt;
  std::uint64_t g = std::gcd(n, d);
  return Ratio{n / g, d / g};
}

std::string edge_text(const ir::Program& p, const ir::Edge& e) {
  const ir::Port& out = p.dfg.actor_of(e.src).ports[e.src_port];
  const ir::Port& in = p.dfg.actor_of(e.dst).ports[e.dst_port];
  return fmt::format("edge {}.{} -> {}.{}: {} out, {} in", p.dfg.nodes[e.src].name, out.name,
                     p.dfg.nodes[e.dst].name, in.name, out.rate, in.rate);
}

class Solver {
 public:
  Solver(ir::Program& p, DiagnosticEngine& diags) : p_(p), diags_(diags) {}

  bool run() {
    const std::size_t n = p_.dfg.nodes.size();
    q_.assign(n, std::nullopt);
    via_.assign(n, std::nullopt);
    adjacent_.resize(n);
    for (ir::EdgeId e = 0; e < p_.dfg.edges.size(); ++e) {
      adjacent_[p_.dfg.edges[e].src].push_back(e);
      adjacent_[p_.dfg.edges[e].dst].push_back(e);
    }
    std::vector<std::uint64_t> repetitions(n, 1);
    for (ir::NodeId root = 0; root < n; ++root) {
      if (q_[root]) continue;
      std::vector<ir::NodeId> part;
      if (!visit(root, part)) return false;
      // The least integers: times the denominators' lcm, over the numerators' gcd.
      std::uint64_t lcm = 1;
      for (ir::NodeId v : part)
        if (__builtin_mul_overflow(lcm / std::gcd(lcm, q_[v]->den), q_[v]->den, &lcm))
          return too_large(v);
      std::uint64_t g = 0;
      for (ir::NodeId v : part) {
        std::uint64_t x = q_[v]->num * (lcm / q_[v]->den);
        if (x / (lcm / q_[v]->den) != q_[v]->num) return too_large(v);
        repetitions[v] = x;
        g = std::gcd(g, x);
      }
      for (ir::NodeId v : part) {
        repetitions[v] /= g;
        if (repetitions[v] > kMaxRepetitions) return too_large(v, repetitions[v]);
      }
    }
    if (p_.copy_batch() > 1 && !batch(repetitions)) return false;
    for (ir::NodeId v = 0; v < n; ++v)
      p_.dfg.nodes[v].repetitions = static_cast<std::uint32_t>(repetitions[v]);
    return blocks() && token_delays();
  }

 private:
  /// `delay D tokens`: D / B whole blocks (B the tokens the consumer's port takes a cycle), and
  /// the D mod B tokens its window shifts each block by (ir::Dfg::window_history). Refused where
  /// a window cannot: on a loop (within a cycle its firings would wait for each other), and at an
  /// input that peeks with another value before the stream (its window fills its history and
  /// the delay's tokens with one value).
  bool token_delays() {
    bool ok = true;
    std::vector<std::uint32_t> loop_part;  // computed once a delay in tokens needs it
    for (ir::Edge& e : p_.dfg.edges) {
      if (e.written_tokens == 0) continue;
      const ir::Port& in = p_.dfg.actor_of(e.dst).ports[e.dst_port];
      const std::uint64_t block = std::uint64_t{p_.dfg.nodes[e.dst].repetitions} * in.rate;
      e.delay = static_cast<std::uint32_t>(e.written_tokens / block);
      e.delay_tokens = static_cast<std::uint32_t>(e.written_tokens % block);
      if (e.delay_tokens == 0) continue;
      const std::string edge =
          fmt::format("{} -> {}", port_text(e.src, e.src_port), port_text(e.dst, e.dst_port));
      const std::string split = fmt::format(
          "{} token{} ({} block{} of {}: {} firing{} x rate {}, and {} token{})", e.written_tokens,
          e.written_tokens == 1 ? "" : "s", e.delay, e.delay == 1 ? "" : "s", block,
          p_.dfg.nodes[e.dst].repetitions, p_.dfg.nodes[e.dst].repetitions == 1 ? "" : "s", in.rate,
          e.delay_tokens, e.delay_tokens == 1 ? "" : "s");
      if (loop_part.empty()) loop_part = p_.dfg.loop_parts();
      if (loop_part[e.dst] == loop_part[e.src]) {  // dst reaches src: the edge is on a loop
        diags_.error(
            e.loc,
            fmt::format(
                "edge {} is on a loop, and its delay of {} is not whole "
                "blocks: a loop's firings of one cycle would wait for each "
                "other; on a loop a delay is whole blocks (`delay {} tokens`, or `delay {}` in iterations)",
                edge, split, (e.delay + 1) * block, e.delay + 1),
            kArrowLength);
        ok = false;
      } else if (in.history > 0 &&
                 (!e.initial_method.empty() || !same_value(e.initial, in.history_value))) {
        // The window holds its history and the delay's tokens before the stream: one value.
        diags_.error(e.loc,
                     fmt::format("edge {} has a delay of {} = {}, and input '{}' peeks with {} "
                                 "before the stream: its window holds one value before the "
                                 "stream; give the delay the window's value (`= {}`), make it "
                                 "whole blocks of {} tokens, or peek further instead",
                                 edge, split, e.initial_text(), in.name, in.history_value,
                                 in.history_value, block),
                     kArrowLength);
        ok = false;
      }
    }
    return ok;
  }

  /// Whether two element literals (ir::Edge::initial, ir::Port::history_value) are one value:
  /// "0" and "0.0" are.
  static bool same_value(const std::string& a, const std::string& b) {
    if (a == b) return true;
    char* a_end = nullptr;
    char* b_end = nullptr;
    const double x = std::strtod(a.c_str(), &a_end), y = std::strtod(b.c_str(), &b_end);
    return a_end != a.c_str() && b_end != b.c_str() && x == y;
  }

  /// q of every node of root's connected part, relative to q(root) = 1.
  bool visit(ir::NodeId root, std::vector<ir::NodeId>& part) {
    q_[root] = Ratio{};
    std::vector<ir::NodeId> work{root};
    while (!work.empty()) {
      ir::NodeId u = work.back();
      work.pop_back();
      part.push_back(u);
      for (ir::EdgeId e : adjacent_[u]) {
        const ir::Edge& edge = p_.dfg.edges[e];
        const std::uint64_t out = p_.dfg.actor_of(edge.src).ports[edge.src_port].rate;
        const std::uint64_t in = p_.dfg.actor_of(edge.dst).ports[edge.dst_port].rate;
        const bool forward = edge.src == u;
        const ir::NodeId v = forward ? edge.dst : edge.src;
        auto want = forward ? times(*q_[u], out, in) : times(*q_[u], in, out);
        if (!want) return overflow(e);
        if (!q_[v]) {
          q_[v] = want;
          via_[v] = e;
          work.push_back(v);
        } else if (q_[v]->num != want->num || q_[v]->den != want->den) {
          return inconsistent(e);
        }
      }
    }
    return true;
  }

  /// The edges from `v` up the search tree to its root, nearest first.
  std::vector<ir::EdgeId> path_up(ir::NodeId v) const {
    std::vector<ir::EdgeId> path;
    while (via_[v]) {
      path.push_back(*via_[v]);
      const ir::Edge& e = p_.dfg.edges[*via_[v]];
      v = e.src == v ? e.dst : e.src;
    }
    return path;
  }

  /// `e` closes a loop (in either direction) whose rates ask two repetitions of one node.
  bool inconsistent(ir::EdgeId e) {
    const ir::Edge& edge = p_.dfg.edges[e];
    std::vector<ir::EdgeId> a = path_up(edge.src), b = path_up(edge.dst);
    // Drop the common part above the lowest common ancestor.
    while (!a.empty() && !b.empty() && a.back() == b.back()) {
      a.pop_back();
      b.pop_back();
    }
    std::vector<ir::EdgeId> loop = a;
    loop.insert(loop.end(), b.rbegin(), b.rend());
    auto report = diags_.error(
        edge.loc,
        fmt::format("inconsistent rates: around this loop of {} edges the rates ask node '{}' to "
                    "fire at two different rates; in one iteration every edge must carry as many "
                    "tokens out as in (repetitions x rate)",
                    loop.size() + 1, p_.dfg.nodes[edge.dst].name),
        kArrowLength);
    report.note(edge.loc, edge_text(p_, edge), kArrowLength);
    for (ir::EdgeId x : loop)
      report.note(p_.dfg.edges[x].loc, edge_text(p_, p_.dfg.edges[x]), kArrowLength);
    return false;
  }

  bool overflow(ir::EdgeId e) {
    diags_.error(p_.dfg.edges[e].loc,
                 fmt::format("the repetition vector overflows a 64-bit integer at {}",
                             edge_text(p_, p_.dfg.edges[e])),
                 kArrowLength);
    return false;
  }

  bool too_large(ir::NodeId v, std::uint64_t times = 0) {
    const ir::Node& node = p_.dfg.nodes[v];
    diags_.error(node.loc,
                 times
                     ? fmt::format("the rates ask node '{}' to fire {} times per iteration; dfgc "
                                   "allows at most {} (the repetition vector is too large to "
                                   "allocate its blocks)",
                                   node.name, times, kMaxRepetitions)
                     : fmt::format("the repetition vector overflows a 64-bit integer at node '{}'",
                                   node.name),
                 static_cast<std::uint32_t>(node.name.size()));
    return false;
  }

  /// `batch K`: every repetition times K, every delay from iterations to cycles (rates.hpp). In a
  /// program its replicas unfold into C copies (sema/replicas.hpp), K / C: what one copy runs.
  bool batch(std::vector<std::uint64_t>& repetitions) {
    const std::uint32_t k = p_.copy_batch();
    bool ok = true;
    for (ir::NodeId v = 0; v < repetitions.size(); ++v) {
      const ir::Node& node = p_.dfg.nodes[v];
      const ir::Actor& actor = p_.dfg.actor_of(v);
      const auto name_length = static_cast<std::uint32_t>(node.name.size());
      if (actor.island) {
        const ir::IslandMember& m = p_.islands[*actor.island].members.front();
        refuse(m.loc, static_cast<std::uint32_t>(m.name.size()),
               fmt::format("node '{}' is of dynamic actor '{}', whose island fires by its "
                           "tokens, not by iterations",
                           m.name, p_.dfg.actors[m.actor].name));
        ok = false;
        continue;
      }
      if (!node.alternatives.empty()) {
        refuse(node.alternatives.front().loc, 1,
               fmt::format("node '{}' migrates; a batched program does not move nodes", node.name));
        ok = false;
        continue;
      }
      for (const ir::Port& port : actor.ports) {
        if (const ir::TokenType& t = p_.types[port.type]; t.bounded) {
          refuse(node.loc, name_length,
                 fmt::format("node '{}' moves bounded type '{}' through port '{}'; a bounded "
                             "type moves one token a cycle, and a batch of {} would move {}",
                             node.name, t.name, port.name, k, k));
          ok = false;
          break;
        }
      }
      if (__builtin_mul_overflow(repetitions[v], std::uint64_t{k}, &repetitions[v]) ||
          repetitions[v] > kMaxRepetitions) {
        refuse(node.loc, name_length,
               fmt::format("node '{}' would fire more than {} times a cycle; dfgc allows at "
                           "most {}",
                           node.name, kMaxRepetitions, kMaxRepetitions));
        ok = false;
      }
    }
    for (ir::Edge& e : p_.dfg.edges) {
      if (e.delay % k == 0) {
        e.delay /= k;
        continue;
      }
      refuse(e.loc, kArrowLength,
             fmt::format("{} -> {} carries {} initial token{} (its delay), not a multiple of {}: "
                         "a cycle of {} iterations would need the tokens of iterations its delay "
                         "has not made",
                         port_text(e.src, e.src_port), port_text(e.dst, e.dst_port), e.delay,
                         e.delay == 1 ? "" : "s",
                         p_.copies == 1 ? std::string("the batch")
                                        : fmt::format("{}, the iterations one of the {} copies "
                                                      "its replicas unfold the graph into runs",
                                                      k, p_.copies),
                         k));
      ok = false;
    }
    return ok;
  }

  /// An error of `batch K`, at `loc`, with a note at the app's `batch`.
  void refuse(SourceLoc loc, std::uint32_t length, std::string why) {
    auto report =
        diags_.error(loc, fmt::format("the app runs 'batch {}', but {}", p_.batch, why), length);
    report.note(p_.batch_loc, fmt::format("batch {} set here", p_.batch), 5);
  }

  std::string port_text(ir::NodeId v, std::uint32_t port) const {
    return fmt::format("{}.{}", p_.dfg.nodes[v].name, p_.dfg.actor_of(v).ports[port].name);
  }

  /// Each port's block type; the edges carry their source port's block.
  bool blocks() {
    for (ir::NodeId v = 0; v < p_.dfg.nodes.size(); ++v) {
      ir::Node& node = p_.dfg.nodes[v];
      const ir::Actor& actor = p_.dfg.actor_of(v);
      bool multiple = false;
      for (const ir::Port& port : actor.ports) multiple |= node.repetitions * port.rate > 1;
      if (!multiple) continue;
      for (const ir::Port& port : actor.ports) {
        const std::uint64_t tokens = std::uint64_t{node.repetitions} * port.rate;
        auto type = block_type(port.type, tokens, node);
        if (!type) return false;
        node.block_types.push_back(*type);
      }
    }
    for (ir::Edge& e : p_.dfg.edges) e.type = p_.dfg.block_type(e.src, e.src_port);
    return true;
  }

  std::optional<ir::TypeId> block_type(ir::TypeId base, std::uint64_t tokens,
                                       const ir::Node& node) {
    if (tokens == 1) return base;
    auto [it, fresh] = made_.try_emplace({base, tokens}, 0);
    if (!fresh) return it->second;
    const ir::TokenType t = p_.types[base];
    if (t.bounded) {
      // One length per slot: a block of several bounded tokens would need one per token.
      diags_.error(
          node.loc,
          fmt::format("node '{}' fires {} times per iteration, so its port of bounded type "
                      "'{}' would move {} tokens per iteration; a bounded type moves one",
                      node.name, node.repetitions, t.name, tokens),
          static_cast<std::uint32_t>(node.name.size()));
      return std::nullopt;
    }
    if (tokens > kMaxRepetitions) return too_large_block(node, t, tokens);
    ir::TokenType block;
    block.elem = t.elem;
    block.record = t.record;
    block.loc = t.loc;
    std::int64_t value = 0, bytes = 0;
    if (__builtin_mul_overflow(t.count.value, static_cast<std::int64_t>(tokens), &value) ||
        __builtin_mul_overflow(value, static_cast<std::int64_t>(t.elem_bytes()), &bytes))
      return too_large_block(node, t, tokens);
    block.count.value = value;
    const bool simple = t.count.text.find_first_of("+-*/%(,") == std::string::npos;
    block.count.text = simple ? fmt::format("{} * {}", t.count.text, tokens)
                              : fmt::format("({}) * {}", t.count.text, tokens);
    block.count.runtime = t.count.runtime;
    block.count.tree.kind = ir::SizeTerm::Kind::multiply;
    ir::SizeTerm factor;
    factor.value = static_cast<std::int64_t>(tokens);
    block.count.tree.operands = {t.count.tree, factor};
    // A name of its own: "<type>_x<tokens>", with more x while a declared type has it.
    std::string name = fmt::format("{}_x{}", t.name, tokens);
    while (named(name)) name = fmt::format("{}_x{}", name, tokens);
    block.name = name;
    p_.types.push_back(std::move(block));
    it->second = static_cast<ir::TypeId>(p_.types.size() - 1);
    return it->second;
  }

  bool named(const std::string& name) const {
    for (const ir::TokenType& t : p_.types)
      if (t.name == name) return true;
    return false;
  }

  std::optional<ir::TypeId> too_large_block(const ir::Node& node, const ir::TokenType& t,
                                            std::uint64_t tokens) {
    diags_.error(node.loc,
                 fmt::format("node '{}' moves blocks of {} tokens of type '{}' per iteration, "
                             "whose size overflows a 64-bit integer or exceeds {} tokens",
                             node.name, tokens, t.name, kMaxRepetitions),
                 static_cast<std::uint32_t>(node.name.size()));
    return std::nullopt;
  }

  ir::Program& p_;
  DiagnosticEngine& diags_;
  std::vector<std::optional<Ratio>> q_;
  std::vector<std::optional<ir::EdgeId>> via_;  // the edge that reached a node in the search
  std::vector<std::vector<ir::EdgeId>> adjacent_;
  std::map<std::pair<ir::TypeId, std::uint64_t>, ir::TypeId> made_;
};

}  // namespace

bool solve_rates(ir::Program& program, DiagnosticEngine& diags) {
  return Solver(program, diags).run();
}

std::optional<std::uint32_t> check_batch(const ast::AppDecl& app, const ParamTable& params,
                                         const SourceManager& sources, DiagnosticEngine& diags) {
  if (!app.batch) return 1;
  Evaluator count(params, sources, diags, ExprMode::integer);
  auto k = count.eval(app.batch.get());
  if (!k || !count.require_fixed(*k, "a batch")) return std::nullopt;
  if (k->integer < 1 || k->integer > static_cast<std::int64_t>(kMaxRepetitions)) {
    error_at(
        diags, span_of(*app.batch, sources),
        fmt::format("a batch is 1 to {} iterations a cycle, not {}", kMaxRepetitions, k->integer));
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(k->integer);
}

}  // namespace dfgc::sema
