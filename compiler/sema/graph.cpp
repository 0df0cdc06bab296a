/// \file
/// Checks the app's edges and the graph they form.
#include "sema/graph.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"

namespace dfgc::sema {

namespace {

constexpr std::uint32_t kArrowLength = 2;
/// The most initial tokens of one edge: each is a token of storage on the consumer's PE.
constexpr std::int64_t kMaxDelay = 1 << 20;

struct End {
  ir::NodeId node = 0;
  std::uint32_t port = 0;
};

std::string describe(const ir::TokenType& t) {
  return fmt::format("{}[{}{}] ({} elements{}{})", t.elem_spec(), t.bounded ? "<= " : "",
                     t.count.text, t.count.value, t.bounded ? " at most" : "",
                     t.count.runtime ? " by default" : "");
}

std::string edge_text(const ir::Edge& e, const NodeTable& nodes, const ActorTable& actors) {
  const ir::Actor& src = actors.actors[*nodes.actor_of[e.src]];
  const ir::Actor& dst = actors.actors[*nodes.actor_of[e.dst]];
  return fmt::format("{}.{} -> {}.{}", nodes.nodes[e.src].name, src.ports[e.src_port].name,
                     nodes.nodes[e.dst].name, dst.ports[e.dst_port].name);
}

class EdgeChecker {
 public:
  EdgeChecker(const NodeTable& nodes, const ActorTable& actors, const TypeTable& types,
              const ParamTable& params, const SourceManager& sources, DiagnosticEngine& diags)
      : nodes_(nodes),
        actors_(actors),
        types_(types),
        sources_(sources),
        diags_(diags),
        count_(params, sources, diags, ExprMode::integer),
        value_(params, sources, diags, ExprMode::value) {}

  void edge(const ast::EdgeDecl& e);
  /// Inputs without a producer (errors) and outputs without a consumer (warnings), for the
  /// nodes that no broken edge mentions.
  void connectivity();

  std::vector<ir::Edge> edges;

 private:
  /// Resolves `i1.a`; a node it names is remembered in `suspect_` when the reference is broken.
  std::optional<End> resolve(const ast::PortRef& ref);
  bool check_direction(const ast::PortRef& ref, End end, ir::PortDir wanted) const;
  bool check_types(const ast::EdgeDecl& e, End src, End dst);
  bool check_fifo_types(const ast::EdgeDecl& e, End src, End dst);
  bool check_fifo_delay(const ast::EdgeDecl& e, ir::Edge& edge, ir::ElemType elem);
  /// The initial tokens of `delay N [= value]` into `edge`; false after an error.
  bool check_delay(const ast::EdgeDecl& e, ir::Edge& edge);
  const ir::Port& port(End end) const {
    return actors_.actors[*nodes_.actor_of[end.node]].ports[end.port];
  }
  const ast::PortDecl& port_decl(End end) const {
    return *actors_.info[*nodes_.actor_of[end.node]].ports[end.port];
  }

  const NodeTable& nodes_;
  const ActorTable& actors_;
  const TypeTable& types_;
  const SourceManager& sources_;
  DiagnosticEngine& diags_;
  Evaluator count_;  ///< delays: compile-time integers
  Evaluator value_;  ///< initial values: integers or reals
  std::set<ir::NodeId> suspect_;
  std::map<std::pair<ir::NodeId, std::uint32_t>, const ast::EdgeDecl*> producer_;
  std::set<std::pair<ir::NodeId, std::uint32_t>> consumed_;
};

std::optional<End> EdgeChecker::resolve(const ast::PortRef& ref) {
  auto node = nodes_.names.resolve(ref.node, diags_);
  if (!node) return std::nullopt;
  auto actor = nodes_.actor_of[*node];
  auto id = static_cast<ir::NodeId>(*node);
  if (!actor || ref.port.name.empty()) {
    suspect_.insert(id);
    return std::nullopt;
  }
  const ir::Actor& a = actors_.actors[*actor];
  if (auto port = a.port_index(ref.port.name)) return End{id, *port};
  // A port group's name alone (`j.x`), or one of its ports past its size (`j.x[7]`).
  const std::string& name = ref.port.name;
  const std::string stem = name.substr(0, name.find_last_not_of("0123456789") + 1);
  if (const std::size_t size = a.group_ports(name).size(); size > 0) {
    error_at(
        diags_, span_of(ref),
        fmt::format("port '{}' of node '{}' is a group of {} ports; an edge names one of "
                    "them: {}.{}[0] .. {}.{}[{}]",
                    name, ref.node.name, size, ref.node.name, name, ref.node.name, name, size - 1));
    suspect_.insert(id);
    return std::nullopt;
  }
  if (const std::size_t size = a.group_ports(stem).size(); size > 0) {
    error_at(diags_, span_of(ref),
             fmt::format("node '{}' has no port {}[{}]: its group '{}' has {} ports, {}[0] .. "
                         "{}[{}]",
                         ref.node.name, stem, name.substr(stem.size()), stem, size, stem, stem,
                         size - 1));
    suspect_.insert(id);
    return std::nullopt;
  }
  NameTable ports("port");
  for (std::size_t i = 0; i < a.ports.size(); ++i)
    ports.declare({a.ports[i].name, a.ports[i].loc}, i, diags_);
  ports.resolve(
      ref.port, diags_,
      fmt::format("node '{}' (actor '{}') has no port '{}'", ref.node.name, a.name, ref.port.name));
  suspect_.insert(id);
  return std::nullopt;
}

bool EdgeChecker::check_direction(const ast::PortRef& ref, End end, ir::PortDir wanted) const {
  if (port(end).dir == wanted) return true;
  error_at(
      diags_, span_of(ref),
      wanted == ir::PortDir::out
          ? fmt::format("'{}' is an input port; an edge must start at an output", qualified(ref))
          : fmt::format("'{}' is an output port; an edge must end at an input", qualified(ref)));
  return false;
}

bool EdgeChecker::check_types(const ast::EdgeDecl& e, End src, End dst) {
  const ActorInfo& si = actors_.info[*nodes_.actor_of[src.node]];
  const ActorInfo& di = actors_.info[*nodes_.actor_of[dst.node]];
  if (!si.port_type_ok[src.port] || !di.port_type_ok[dst.port]) return true;
  if (port(src).fifo_elem || port(dst).fifo_elem) return check_fifo_types(e, src, dst);
  const ir::TokenType& st = types_.types[port(src).type];
  const ir::TokenType& dt = types_.types[port(dst).type];
  if (compatible(st, dt)) return true;
  auto b = diags_.error(
      e.loc,
      fmt::format("type mismatch on edge {} -> {}: '{}' is {} but '{}' is {}", qualified(e.src),
                  qualified(e.dst), st.name, describe(st), dt.name, describe(dt)),
      kArrowLength);
  note_at(b, span_of(port_decl(src).type),
          fmt::format("'{}' has type '{}'", qualified(e.src), st.name));
  note_at(b, span_of(port_decl(dst).type),
          fmt::format("'{}' has type '{}'", qualified(e.dst), dt.name));
  return false;
}

/// An edge with a fifo end: two fifo ports of one element type, or a fifo port and a static port
/// whose tokens, of a fixed size or bounded, hold that element type (the island's Unpack or Pack
/// adapter; of a bounded token, the adapter moves its length).
bool EdgeChecker::check_fifo_types(const ast::EdgeDecl& e, End src, End dst) {
  const ir::Port& sp = port(src);
  const ir::Port& dp = port(dst);
  auto fail = [&](std::string message) {
    auto b = diags_.error(e.loc, std::move(message), kArrowLength);
    note_at(b, span_of(port_decl(src).type),
            fmt::format("'{}' has type '{}'", qualified(e.src), port_decl(src).type.name));
    note_at(b, span_of(port_decl(dst).type),
            fmt::format("'{}' has type '{}'", qualified(e.dst), port_decl(dst).type.name));
    return false;
  };
  if (sp.fifo_elem && dp.fifo_elem) {
    if (*sp.fifo_elem == *dp.fifo_elem) return true;
    return fail(fmt::format(
        "type mismatch on fifo edge {} -> {}: '{}' carries {} elements but '{}' carries {}",
        qualified(e.src), qualified(e.dst), qualified(e.src), ir::spec_name(*sp.fifo_elem),
        qualified(e.dst), ir::spec_name(*dp.fifo_elem)));
  }
  const ir::Port& fifo = sp.fifo_elem ? sp : dp;
  const ir::TokenType& t = types_.types[sp.fifo_elem ? dp.type : sp.type];
  const char* adapter =
      sp.fifo_elem ? "packs elements into a token" : "unpacks a token into elements";
  if (t.count.runtime || t.elem != *fifo.fifo_elem || (sp.fifo_elem ? dp.rate : sp.rate) != 1)
    return fail(fmt::format(
        "edge {} -> {} joins a static port of type '{}', {}, to a fifo port of {} elements; "
        "the adapter at an island's boundary {}: a token of fixed size or bounded, of the "
        "ring's element type, through a port of rate 1",
        qualified(e.src), qualified(e.dst), t.name, describe(t), ir::spec_name(*fifo.fifo_elem),
        adapter));
  return true;
}

void EdgeChecker::edge(const ast::EdgeDecl& e) {
  auto src = resolve(e.src);
  auto dst = resolve(e.dst);
  bool src_ok = src && check_direction(e.src, *src, ir::PortDir::out);
  bool dst_ok = dst && check_direction(e.dst, *dst, ir::PortDir::in);
  if (!src_ok || !dst_ok) {
    // The other end of a broken edge would otherwise be reported as unconnected.
    if (src) suspect_.insert(src->node);
    if (dst) suspect_.insert(dst->node);
    return;
  }
  consumed_.insert({src->node, src->port});
  auto [first, fresh] = producer_.try_emplace({dst->node, dst->port}, &e);
  if (!fresh) {
    auto b = error_at(diags_, span_of(e.dst),
                      fmt::format("input '{}' already has an edge; an input takes one producer",
                                  qualified(e.dst)));
    note_at(b, span_of(first->second->dst),
            fmt::format("first edge into '{}' is here", qualified(e.dst)));
    return;
  }
  if (!check_types(e, *src, *dst)) return;
  // An edge with a fifo end takes the static end's type (none between two fifo ports).
  ir::Edge edge{src->node,
                src->port,
                dst->node,
                dst->port,
                port(*src).fifo_elem ? port(*dst).type : port(*src).type,
                e.loc};
  if (!check_delay(e, edge)) return;
  if (src->node == dst->node && edge.delay == 0 && edge.written_tokens == 0 &&
      edge.initial_elements == 0) {
    diags_.error(e.loc,
                 fmt::format("edge from node '{}' to itself carries no initial token, so the "
                             "node waits for itself forever; give it one: `{} -> {} delay 1;`",
                             e.src.node.name, qualified(e.src), qualified(e.dst)),
                 kArrowLength);
    return;
  }
  edges.push_back(std::move(edge));
}

bool EdgeChecker::check_delay(const ast::EdgeDecl& e, ir::Edge& edge) {
  if (!e.delay) return true;
  const std::optional<ir::ElemType> src_elem = port({edge.src, edge.src_port}).fifo_elem;
  const std::optional<ir::ElemType> dst_elem = port({edge.dst, edge.dst_port}).fifo_elem;
  if (src_elem && dst_elem) return check_fifo_delay(e, edge, *dst_elem);
  if (src_elem || dst_elem) {
    diags_.error(
        e.delay_loc,
        fmt::format("edge {} -> {} joins a fifo port to a static port, so it takes no delay; put "
                    "the delay on an edge between two static ports (tokens) or between two fifo "
                    "ports (the ring's initial elements)",
                    qualified(e.src), qualified(e.dst)),
        5);
    return false;
  }
  auto count = count_.eval(e.delay.get());
  if (!count || !count_.require_fixed(*count, "a delay")) return false;
  if (const ir::TokenType& t = types_.types[edge.type]; t.bounded) {
    error_at(diags_, span_of(*e.delay, sources_),
             fmt::format("edge {} -> {} carries bounded type '{}': initial tokens of a bounded "
                         "type are not supported",
                         qualified(e.src), qualified(e.dst), t.name));
    return false;
  }
  if (count->integer < 1 || count->integer > kMaxDelay) {
    error_at(
        diags_, span_of(*e.delay, sources_),
        fmt::format("a delay is 1 to {} initial tokens, not {}{}", kMaxDelay, count->integer,
                    count->integer == 0 ? "; an edge without initial tokens has no `delay`" : ""));
    return false;
  }
  const ir::TokenType& type = types_.types[edge.type];
  if (e.delay_in_tokens && type.record) {
    error_at(diags_, span_of(*e.delay, sources_),
             fmt::format("edge {} -> {} carries '{}', of struct '{}': its delay counts "
                         "iterations, not tokens (a window holds scalar or complex elements)",
                         qualified(e.src), qualified(e.dst), type.name, type.record->name));
    return false;
  }
  // The initial tokens of a struct type are zeros, value-initialised (`::Hit{}`), unless the
  // consumer fills them.
  if (type.record) edge.initial = type.elem_code() + "{}";
  if (e.delay_in_tokens) {
    // Whole blocks and a window's shift once the rates are solved (sema/rates.cpp).
    edge.written_tokens = static_cast<std::uint32_t>(count->integer);
    if (e.initial_method) {
      diags_.error(e.initial_method->loc,
                   fmt::format("a delay in tokens takes its initial value after '=', not a member "
                               "function: the tokens beyond whole blocks are a window's history, "
                               "filled with one value"),
                   static_cast<std::uint32_t>(e.initial_method->name.size()));
      return false;
    }
  } else {
    edge.delay = static_cast<std::uint32_t>(count->integer);
  }
  if (e.initial_method) edge.initial_method = e.initial_method->name;
  if (!e.initial) return true;
  auto literal = element_literal(*e.initial, types_.types[edge.type], value_, sources_, diags_);
  if (!literal) return false;
  edge.initial = std::move(*literal);
  return true;
}

/// `delay D [= v]` between two fifo ports: the ring holds D elements of value v (0 unless given)
/// before the stream. D counts elements, with or without `tokens`.
bool EdgeChecker::check_fifo_delay(const ast::EdgeDecl& e, ir::Edge& edge, ir::ElemType elem) {
  auto count = count_.eval(e.delay.get());
  if (!count || !count_.require_fixed(*count, "a delay")) return false;
  if (count->integer < 1 || count->integer > kMaxDelay) {
    error_at(diags_, span_of(*e.delay, sources_),
             fmt::format(
                 "a delay is 1 to {} initial elements, not {}{}", kMaxDelay, count->integer,
                 count->integer == 0 ? "; an edge without initial elements has no `delay`" : ""));
    return false;
  }
  if (e.initial_method) {
    diags_.error(e.initial_method->loc,
                 fmt::format("the initial elements of ring {} -> {} take one value after '=', not "
                             "a member function",
                             qualified(e.src), qualified(e.dst)),
                 static_cast<std::uint32_t>(e.initial_method->name.size()));
    return false;
  }
  edge.initial_elements = static_cast<std::uint32_t>(count->integer);
  if (!e.initial) return true;
  ir::TokenType ring;  // for the value's range and its message
  ring.name = fmt::format("{} -> {}", qualified(e.src), qualified(e.dst));
  ring.elem = elem;
  auto literal = element_literal(*e.initial, ring, value_, sources_, diags_);
  if (!literal) return false;
  edge.initial = std::move(*literal);
  return true;
}

void EdgeChecker::connectivity() {
  for (std::size_t n = 0; n < nodes_.nodes.size(); ++n) {
    auto id = static_cast<ir::NodeId>(n);
    if (!nodes_.actor_of[n] || suspect_.count(id)) continue;
    const ir::Node& node = nodes_.nodes[n];
    const ir::Actor& actor = actors_.actors[*nodes_.actor_of[n]];
    for (std::uint32_t p = 0; p < actor.ports.size(); ++p) {
      const ir::Port& port = actor.ports[p];
      auto len = static_cast<std::uint32_t>(node.name.size());
      if (port.dir == ir::PortDir::in && !producer_.count({id, p}))
        diags_.error(node.loc,
                     fmt::format("input '{}' of node '{}' is not connected", port.name, node.name),
                     len);
      if (port.dir == ir::PortDir::out && !consumed_.count({id, p}))
        diags_.warning(
            node.loc,
            fmt::format("output '{}' of node '{}' has no consumer; its tokens are dropped",
                        port.name, node.name),
            len);
    }
  }
}

}  // namespace

std::vector<ir::Edge> check_edges(const ast::AppDecl& app, const NodeTable& nodes,
                                  const ActorTable& actors, const TypeTable& types,
                                  const ParamTable& params, const SourceManager& sources,
                                  DiagnosticEngine& diags) {
  EdgeChecker checker(nodes, actors, types, params, sources, diags);
  for (const ast::EdgeDecl& e : app.edges) checker.edge(e);
  checker.connectivity();
  return std::move(checker.edges);
}

void check_cycles(const std::vector<ir::Edge>& edges, const NodeTable& nodes,
                  const ActorTable& actors, DiagnosticEngine& diags) {
  std::vector<std::vector<ir::EdgeId>> out(nodes.nodes.size());
  for (std::size_t e = 0; e < edges.size(); ++e)
    // A delay in tokens that makes no whole block is refused in a loop once the rates are
    // solved (sema/rates.cpp), with that reason.
    if (edges[e].delay == 0 && edges[e].written_tokens == 0)
      out[edges[e].src].push_back(static_cast<ir::EdgeId>(e));
  enum class Color { white, grey, black };
  std::vector<Color> color(nodes.nodes.size(), Color::white);
  struct Frame {
    ir::NodeId node;
    std::size_t next = 0;           // index into out[node]
    std::optional<ir::EdgeId> via;  // the edge that reached the node
  };
  for (std::size_t start = 0; start < nodes.nodes.size(); ++start) {
    if (color[start] != Color::white) continue;
    std::vector<Frame> stack{{static_cast<ir::NodeId>(start), 0, std::nullopt}};
    color[start] = Color::grey;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next == out[f.node].size()) {
        color[f.node] = Color::black;
        stack.pop_back();
        continue;
      }
      ir::EdgeId e = out[f.node][f.next++];
      ir::NodeId to = edges[e].dst;
      if (color[to] == Color::white) {
        color[to] = Color::grey;
        stack.push_back({to, 0, e});
        continue;
      }
      if (color[to] != Color::grey) continue;
      // The stack from `to` up holds the cycle; `e` closes it.
      std::size_t k = stack.size() - 1;
      while (stack[k].node != to) --k;
      std::string path = nodes.nodes[to].name;
      for (std::size_t i = k + 1; i < stack.size(); ++i)
        path += " -> " + nodes.nodes[stack[i].node].name;
      path += " -> " + nodes.nodes[to].name;
      // A cycle of fifo edges runs inside an island, its initial tokens in the actors' state or
      // in a ring's initial elements. dfgc sizes the rings of a cycle with initial elements (the
      // island's largest token plus them); else it needs a ring of stated capacity.
      auto port_of = [&](ir::NodeId n, std::uint32_t p) -> const ir::Port& {
        return actors.actors[*nodes.actor_of[n]].ports[p];
      };
      bool fifos = true;
      bool sized = false;  // a ring of stated capacity, or one with initial elements
      for (std::size_t i = k; i < stack.size(); ++i) {
        const ir::Edge& on = edges[i + 1 < stack.size() ? *stack[i + 1].via : e];
        fifos = fifos && port_of(on.src, on.src_port).fifo_elem &&
                port_of(on.dst, on.dst_port).fifo_elem;
        sized = sized || port_of(on.dst, on.dst_port).fifo_capacity || on.initial_elements > 0;
      }
      if (fifos && sized) continue;
      if (fifos) {
        auto b = diags.error(
            edges[e].loc,
            fmt::format("cycle of dynamic actors {} has no ring of stated capacity and no "
                        "initial elements; dfgc cannot size its rings: give one of its inputs "
                        "`fifo N`, or one of its edges the elements it starts with (`delay 1`)",
                        path),
            kArrowLength);
        for (std::size_t i = k + 1; i < stack.size(); ++i) {
          const ir::Edge& on = edges[*stack[i].via];
          b.note(on.loc, fmt::format("edge {} is on the cycle", edge_text(on, nodes, actors)),
                 kArrowLength);
        }
        continue;
      }
      auto b = diags.error(edges[e].loc,
                           fmt::format("cycle in the data-flow graph: {} carries no initial token, "
                                       "so none of its nodes can ever fire; it lacks 1 token "
                                       "(give one of its edges `delay 1`)",
                                       path),
                           kArrowLength);
      for (std::size_t i = k + 1; i < stack.size(); ++i) {
        const ir::Edge& on = edges[*stack[i].via];
        b.note(on.loc, fmt::format("edge {} is on the cycle", edge_text(on, nodes, actors)),
               kArrowLength);
      }
    }
  }
}

void check_reachability(const std::vector<ir::Edge>& edges, const NodeTable& nodes,
                        const ActorTable& actors, const ArchInfo& arch, DiagnosticEngine& diags) {
  const ir::ArchGraph& g = arch.graph;
  std::map<ir::PeId, std::vector<bool>> reach;  // from a PE: which PEs its links lead to
  auto reachable_from = [&](ir::PeId from) -> const std::vector<bool>& {
    auto [it, fresh] = reach.try_emplace(from, g.pes.size(), false);
    if (!fresh) return it->second;
    std::vector<bool>& seen = it->second;
    std::vector<ir::PeId> work{from};
    seen[from] = true;
    while (!work.empty()) {
      ir::PeId p = work.back();
      work.pop_back();
      for (const ir::Link& l : g.links) {
        for (ir::PeId q : {l.a, l.b}) {
          if (!seen[q] && l.connects(p, q)) {
            seen[q] = true;
            work.push_back(q);
          }
        }
      }
    }
    return seen;
  };
  // The cpus of a host share its memory, which its links reach through its first cpu.
  auto memory_of = [&](ir::PeId pe) {
    return g.pes[pe].kind == ir::PeKind::cpu ? g.hosts[g.pes[pe].host].cpu : pe;
  };
  // A replicated node runs on each PE of its set.
  auto pes_of = [&](ir::NodeId n) {
    std::vector<ir::PeId> pes;
    for (const ir::Replica& r : nodes.nodes[n].replicas) pes.push_back(r.pe);
    if (pes.empty() && nodes.pe_of[n]) pes.push_back(*nodes.pe_of[n]);
    return pes;
  };
  for (const ir::Edge& e : edges) {
    for (ir::PeId from : pes_of(e.src))
      for (ir::PeId to : pes_of(e.dst)) {
        if (memory_of(from) == memory_of(to) || reachable_from(memory_of(from))[memory_of(to)])
          continue;
        auto b = diags.error(e.loc,
                             fmt::format("no path from {} to {} through the links of arch '{}'",
                                         g.pes[from].name, g.pes[to].name, g.name),
                             kArrowLength);
        note_at(b, span_of(arch.decl->name), fmt::format("arch '{}' is declared here", g.name));
      }
  }
  // An alternative must reach the other end of each of its node's edges, that end at home.
  for (const ir::Edge& e : edges) {
    auto from = nodes.pe_of[e.src];
    auto to = nodes.pe_of[e.dst];
    if (!from || !to) continue;
    auto check = [&](ir::NodeId moved, const ir::Alternative& alt, ir::PeId a, ir::PeId b) {
      if (memory_of(a) == memory_of(b) || reachable_from(memory_of(a))[memory_of(b)]) return;
      auto d = diags.error(
          alt.loc,
          fmt::format("node '{}' cannot migrate to {}: no path from {} to {} through the links "
                      "of arch '{}'",
                      nodes.nodes[moved].name, g.pes[alt.pe].name, g.pes[a].name, g.pes[b].name,
                      g.name),
          static_cast<std::uint32_t>(g.pes[alt.pe].name.size()));
      d.note(e.loc, fmt::format("for edge {}", edge_text(e, nodes, actors)), kArrowLength);
    };
    for (const ir::Alternative& alt : nodes.nodes[e.src].alternatives)
      check(e.src, alt, alt.pe, *to);
    for (const ir::Alternative& alt : nodes.nodes[e.dst].alternatives)
      check(e.dst, alt, *from, alt.pe);
  }
}

void check_stream_ends(const std::vector<ir::Edge>& edges, const NodeTable& nodes,
                       const ActorTable& actors, const ArchInfo* arch, DiagnosticEngine& diags) {
  const std::size_t count = nodes.nodes.size();
  std::vector<std::vector<ir::NodeId>> out(count);
  for (const ir::Edge& e : edges) out[e.src].push_back(e.dst);
  auto actor_of = [&](std::size_t n) -> const ir::Actor* {
    return nodes.actor_of[n] ? &actors.actors[*nodes.actor_of[n]] : nullptr;
  };
  // The hosts the app's nodes may run on: their PEs, replicas, alternatives and candidates.
  std::set<ir::HostId> hosts;
  if (arch) {
    for (std::size_t n = 0; n < count; ++n) {
      const ir::Node& node = nodes.nodes[n];
      if (nodes.pe_of[n]) hosts.insert(arch->graph.pes[*nodes.pe_of[n]].host);
      for (const ir::Replica& r : node.replicas) hosts.insert(arch->graph.pes[r.pe].host);
      for (const ir::Alternative& a : node.alternatives) hosts.insert(arch->graph.pes[a.pe].host);
      for (ir::PeId pe : node.candidates) hosts.insert(arch->graph.pes[pe].host);
    }
  }
  for (std::size_t n = 0; n < count; ++n) {
    const ir::Actor* actor = actor_of(n);
    if (!actor || !actor->ends) continue;
    const ir::Node& node = nodes.nodes[n];
    const auto name_length = static_cast<std::uint32_t>(node.name.size());
    if (hosts.size() > 1) {
      std::vector<std::string> names;
      for (ir::HostId h : hosts) names.push_back(arch->graph.hosts[h].name);
      auto b = diags.error(
          node.loc,
          fmt::format("node '{}' may end the stream (actor '{}' says 'ends stream'), but the app "
                      "may run on hosts {}: dfgc ends a stream on one host only; map the app on "
                      "one host, or end its runs with --iterations",
                      node.name, actor->name, fmt::join(names, ", ")),
          name_length);
      b.note(*actor->ends, fmt::format("actor '{}' says 'ends stream' here", actor->name), 4);
      continue;
    }
    std::vector<bool> downstream(count, false);
    std::vector<ir::NodeId> work{static_cast<ir::NodeId>(n)};
    downstream[n] = true;
    while (!work.empty()) {
      const ir::NodeId m = work.back();
      work.pop_back();
      for (ir::NodeId d : out[m])
        if (!downstream[d]) {
          downstream[d] = true;
          work.push_back(d);
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (!out[k].empty() || downstream[k]) continue;
      const ir::Actor* sink = actor_of(k);
      auto b = diags.error(
          nodes.nodes[k].loc,
          fmt::format("sink '{}'{} is not downstream of node '{}', which may end the stream: it "
                      "could fire past the end; feed it from '{}' or a node after it",
                      nodes.nodes[k].name, sink ? " (" + sink->name + ")" : std::string(),
                      node.name, node.name),
          static_cast<std::uint32_t>(nodes.nodes[k].name.size()));
      b.note(*actor->ends, fmt::format("actor '{}' says 'ends stream' here", actor->name), 4);
    }
  }
}

}  // namespace dfgc::sema
