#include "mapping/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "mapping/edits.hpp"
#include "mapping/quick_model.hpp"
#include "stages/stages.hpp"

namespace dfgc::mapping {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Bounds and exact figures add the same terms in different orders: allow for the rounding.
constexpr double kSlack = 1e-9;

/// splitmix64: a small generator whose sequence is the same on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

/// Free nodes placed as one: a node's copies in an unfolded graph (all of them, or those of one
/// share of a node dealt over shares; ir::Node::share). Every member has the same candidates.
using Group = std::vector<ir::NodeId>;

void place(std::vector<ir::PeId>& pe_of, const Group& g, ir::PeId pe) {
  for (ir::NodeId n : g) pe_of[n] = pe;
}

/// The free groups, in `order` of their first members.
std::vector<Group> free_groups(const ir::Program& p, const std::vector<ir::NodeId>& order) {
  std::vector<Group> groups;
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> index;
  for (ir::NodeId n : order) {
    const ir::Node& node = p.dfg.nodes[n];
    if (node.candidates.empty()) continue;
    const std::string& name = node.spec_name();
    auto [it, fresh] = index.try_emplace({name, node.share}, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(n);
  }
  return groups;
}

/// Per node dealt over shares, the indices of its shares' groups in `groups`, in share order.
std::vector<std::vector<std::size_t>> dealt(const ir::Program& p,
                                            const std::vector<Group>& groups) {
  std::map<std::string, std::vector<std::size_t>> by_node;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const ir::Node& n = p.dfg.nodes[groups[g].front()];
    if (n.shares < 2) continue;
    std::vector<std::size_t>& shares = by_node[n.origin];
    if (shares.size() < n.shares) shares.resize(n.shares);
    shares[n.share] = g;
  }
  std::vector<std::vector<std::size_t>> result;
  for (auto& [name, shares] : by_node) result.push_back(std::move(shares));
  return result;
}

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// Per PE, the least PE it is interchangeable with (kNone for one that is not): cores of one
/// host other than its first (which holds the host's links), that no pinned node runs on, on
/// which every node's firing time is the same. Mappings that differ by a permutation of such
/// PEs have the same figures and the same code but for names.
std::vector<ir::PeId> interchangeable(const ir::Program& p, const CostTable& costs) {
  const auto pes = static_cast<ir::PeId>(p.arch.pes.size());
  std::vector<bool> pinned(pes, false);
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
    if (p.dfg.nodes[n].candidates.empty()) pinned[p.mapping.pe_of[n]] = true;
  auto open = [&](ir::PeId pe) {
    const ir::Pe& q = p.arch.pes[pe];
    return q.kind == ir::PeKind::cpu && !pinned[pe] && p.arch.hosts[q.host].cpu != pe;
  };
  auto same_times = [&](ir::PeId a, ir::PeId b) {
    for (const auto& per_pe : costs.firing)
      if (per_pe[a] != per_pe[b]) return false;
    return true;
  };
  std::vector<ir::PeId> class_of(pes, kNone);
  for (ir::PeId pe = 0; pe < pes; ++pe) {
    if (!open(pe)) continue;
    class_of[pe] = pe;
    for (ir::PeId q = 0; q < pe; ++q)
      if (class_of[q] == q && p.arch.pes[q].host == p.arch.pes[pe].host && same_times(q, pe)) {
        class_of[pe] = q;
        break;
      }
  }
  return class_of;
}

class Searcher {
 public:
  static constexpr double kDirectSpace = 256;

  Searcher(const ir::Program& p, const CostTable& costs, const SearchOptions& o)
      : p_(p),
        costs_(costs),
        o_(o),
        model_(p, costs, o.plan),
        free_(free_groups(p, model_.order())),
        dealt_(dealt(p, free_)),
        class_of_(interchangeable(p, costs)) {
    std::map<std::string, std::size_t> index;
    for (const Group& g : free_) {
      const ir::Node& n = p.dfg.nodes[g.front()];
      spec_node_.push_back(index.try_emplace(n.spec_name(), index.size()).first->second);
    }
    needs_ig_ = o.objective == Objective::memory || o.max_memory.has_value();
    for (const auto& c : costs.capacity) needs_ig_ |= c.has_value();
  }

  /// Starts from the heuristic's best (a tight threshold from the first branch on), then
  /// branches. A space of a few hundred mappings is branched at once: the warm-up would cost
  /// more than it saves.
  SearchResult exact() {
    double space = 1;
    for (const Group& g : free_) space *= static_cast<double>(model_.allowed(g.front()).size());
    if (!free_.empty() && o_.objective != Objective::memory && space > kDirectSpace) {
      std::vector<ir::PeId> current = greedy();
      anneal(current, std::min<std::uint64_t>(annealing_steps(), 20000));
      descend(best_.empty() ? current : best_.front().pe_of);
    }
    std::vector<ir::PeId> partial = p_.mapping.pe_of;
    for (const Group& g : free_) place(partial, g, kUnplaced);
    branch(partial, 0);
    return finish(true);
  }

  SearchResult heuristic() {
    std::vector<ir::PeId> current = greedy();
    anneal(current, annealing_steps());
    descend(best_.empty() ? current : best_.front().pe_of);
    return finish(false);
  }

 private:
  /// A complete mapping's figures and what the annealing minimises.
  struct Scored {
    Candidate c;
    double guide = 0;  ///< score plus a small share of the total load: breaks plateaus
  };

  /// The quick model's figures of a complete mapping (memory too for that objective); nullopt
  /// when it breaks a constraint, has an edge without a path or a loop its initial tokens do not
  /// cover.
  std::optional<Scored> evaluate(const std::vector<ir::PeId>& placed) {
    ++result_.evaluated;
    std::vector<ir::PeId> pe_of = placed;
    if (!canonical(pe_of)) return std::nullopt;
    QuickFigures q = model_.evaluate(pe_of);
    if (!q.routable) return std::nullopt;
    if (!q.loops_covered) {
      refused(pe_of, q);
      return std::nullopt;
    }
    Candidate c;
    c.pe_of = pe_of;
    c.period = q.period[o_.strategy];
    c.latency_cycles = q.latency[o_.strategy];
    c.latency = (c.latency_cycles + 1) * c.period;
    if (o_.max_latency_cycles && c.latency_cycles > *o_.max_latency_cycles) return std::nullopt;
    if (o_.max_latency && c.latency > *o_.max_latency * (1 + kSlack)) return std::nullopt;
    switch (o_.objective) {
      case Objective::period: c.score = c.period; break;
      case Objective::latency: c.score = c.latency; break;
      case Objective::memory:
        if (!memory(c)) return std::nullopt;
        c.score = static_cast<double>(c.peak_memory);
        break;
    }
    return Scored{c, c.score + 1e-4 * q.total_load};
  }

  /// The shares of each dealt node as the replica set `--apply` writes runs them: the set lists
  /// its PEs in the order of their first share, each weighted by its shares, and deals copy j to
  /// the PE whose run of weights holds j (sema/replicas.hpp), so shares on one PE become
  /// neighbours. False for shares whose counts have a common factor: two shares on each of two
  /// cores are one share on each, the smaller count's mapping (sema reduces the weights).
  bool canonical(std::vector<ir::PeId>& pe_of) const {
    std::vector<ir::PeId> share_pes;
    for (const std::vector<std::size_t>& shares : dealt_) {
      share_pes.clear();
      for (std::size_t g : shares) share_pes.push_back(pe_of[free_[g].front()]);
      const std::vector<ir::Replica> runs = share_runs(share_pes);
      if (common_weight(runs) > 1) return false;
      std::size_t share = 0;
      for (const ir::Replica& r : runs)
        for (std::uint32_t k = 0; k < r.weight; ++k) place(pe_of, free_[shares[share++]], r.pe);
    }
    return true;
  }

  /// What tells two mappings apart in the list of the best: each free group's PE, an
  /// interchangeable one (class_of_) by its class alone, the groups of one spec node as a sorted
  /// multiset (the order of its shares and the names of interchangeable PEs change neither the
  /// work of each PE nor, where the figures are equal, anything the report would show).
  std::vector<std::vector<ir::PeId>> signature(const std::vector<ir::PeId>& pe_of) const {
    std::vector<std::vector<ir::PeId>> sig(spec_node_.size());
    for (std::size_t g = 0; g < free_.size(); ++g) {
      const ir::PeId pe = pe_of[free_[g].front()];
      sig[spec_node_[g]].push_back(class_of_[pe] == kNone ? pe : kNone - 1 - class_of_[pe]);
    }
    for (auto& pes : sig) std::sort(pes.begin(), pes.end());
    return sig;
  }

  /// Keeps the fastest mapping a loop rules out, by the period of its loads.
  void refused(const std::vector<ir::PeId>& pe_of, const QuickFigures& q) {
    ++result_.loop_refused;
    Candidate c;
    c.pe_of = pe_of;
    c.period = q.period[o_.strategy];
    c.score = c.period;
    if (result_.loop_best && !better(c, result_.loop_best->candidate)) return;
    result_.loop_best = LoopRefusal{std::move(c), *q.uncovered, q.uncovered_in, q.loop_bound};
  }

  /// Builds the implementation graph (memoised): sets the peak memory; false when a PE's
  /// capacity or --max-memory is exceeded.
  bool memory(Candidate& c) {
    auto [it, fresh] = memory_.try_emplace(c.pe_of, -1);
    if (fresh) {
      ++result_.built;
      ir::Program mapped = with_mapping(p_, c.pe_of);
      Prediction pred = predict(mapped, run_passes(mapped, o_.hooks), costs_, o_.plan);
      const StrategyPrediction& s = pred[o_.strategy];
      bool fits = s.overflows.empty() && (!o_.max_memory || s.peak_memory <= *o_.max_memory);
      it->second = fits ? s.peak_memory : -2;
    }
    c.peak_memory = it->second;
    return c.peak_memory >= 0;
  }

  /// Whether a branch whose completions score at least `score` after at least `cycles` of latency
  /// may still enter the list of the best: below its last's score, or tying it (within kSlack)
  /// with fewer cycles, since better() breaks ties by latency.
  bool may_improve(double score, std::uint32_t cycles) const {
    if (best_.size() <= o_.alternatives) return score < kInf;
    const Candidate& last = best_.back();
    if (score < last.score * (1 - kSlack)) return true;
    return score <= last.score * (1 + kSlack) && cycles < last.latency_cycles;
  }
  /// Whether no completion scoring at least `score` may enter the list, whatever its latency.
  bool beyond_ties(double score) const {
    return best_.size() > o_.alternatives && score > best_.back().score * (1 + kSlack);
  }

  void offer(Candidate c) {
    if (best_.size() > o_.alternatives && !better(c, best_.back())) return;
    const auto sig = signature(c.pe_of);
    for (const Candidate& b : best_)
      if (b.pe_of == c.pe_of || (b.score == c.score && b.period == c.period &&
                                 b.latency_cycles == c.latency_cycles && signature(b.pe_of) == sig))
        return;
    if (needs_ig_ && c.peak_memory == -1 && !memory(c)) return;
    best_.insert(std::upper_bound(best_.begin(), best_.end(), c, better), std::move(c));
    if (best_.size() > o_.alternatives + 1) best_.pop_back();
  }

  /// Lower bounds of every completion: its score (+infinity when a constraint is broken) and its
  /// latency in cycles.
  struct Bound {
    double score = kInf;
    std::uint32_t cycles = 0;
  };
  Bound bound(std::vector<ir::PeId>& partial) {
    double period = model_.period_bound(o_.strategy, partial);
    if (period == kInf) return {};
    std::uint32_t cycles = model_.latency_bound(o_.strategy, partial);
    double latency = (cycles + 1) * period;
    if (o_.max_latency_cycles && cycles > *o_.max_latency_cycles) return {};
    if (o_.max_latency && latency > *o_.max_latency * (1 + kSlack)) return {};
    switch (o_.objective) {
      case Objective::period: return {period, cycles};
      case Objective::latency: return {latency, cycles};
      case Objective::memory: return {0, cycles};
    }
    return {};
  }

  void branch(std::vector<ir::PeId>& partial, std::size_t depth) {
    if (depth == free_.size()) {
      if (auto s = evaluate(partial)) offer(std::move(s->c));
      return;
    }
    const Group& g = free_[depth];
    std::vector<std::pair<Bound, ir::PeId>> children;
    for (ir::PeId pe : model_.allowed(g.front())) {
      place(partial, g, pe);
      children.emplace_back(bound(partial), pe);
    }
    std::stable_sort(children.begin(), children.end(),
                     [](const auto& a, const auto& b) { return a.first.score < b.first.score; });
    for (const auto& [b, pe] : children) {
      if (b.score == kInf || beyond_ties(b.score)) break;
      if (!may_improve(b.score, b.cycles)) continue;  // a later child may tie with fewer cycles
      place(partial, g, pe);
      branch(partial, depth + 1);
    }
    place(partial, g, kUnplaced);
  }

  /// Each free node in topological order where the partial mapping's bound is least.
  std::vector<ir::PeId> greedy() {
    std::vector<ir::PeId> partial = p_.mapping.pe_of;
    for (const Group& g : free_) place(partial, g, kUnplaced);
    for (const Group& g : free_) {
      ir::PeId choice = model_.allowed(g.front()).front();
      double least = kInf;
      for (ir::PeId pe : model_.allowed(g.front())) {
        place(partial, g, pe);
        double b = bound(partial).score;
        if (b < least) {
          least = b;
          choice = pe;
        }
      }
      place(partial, g, choice);
    }
    return partial;
  }

  std::uint64_t annealing_steps() const {
    if (o_.annealing_steps) return o_.annealing_steps;
    std::uint64_t moves = 0;
    for (const Group& g : free_) moves += model_.allowed(g.front()).size();
    return std::clamp<std::uint64_t>(1000 * moves, 50000, 300000);
  }

  /// A random neighbour: one free group on another candidate, or two free groups swapping PEs.
  bool neighbour(std::vector<ir::PeId>& m, Random& rng) const {
    const Group& ga = free_[rng.below(free_.size())];
    const ir::NodeId a = ga.front();
    const auto& allowed_a = model_.allowed(a);
    if (rng.unit() < 0.8 || free_.size() < 2) {
      if (allowed_a.size() < 2) return false;
      ir::PeId pe = allowed_a[rng.below(allowed_a.size())];
      if (pe == m[a]) return false;
      place(m, ga, pe);
      return true;
    }
    const Group& gb = free_[rng.below(free_.size())];
    const ir::NodeId b = gb.front();
    const auto& allowed_b = model_.allowed(b);
    if (m[a] == m[b] || std::find(allowed_a.begin(), allowed_a.end(), m[b]) == allowed_a.end() ||
        std::find(allowed_b.begin(), allowed_b.end(), m[a]) == allowed_b.end())
      return false;
    const ir::PeId pa = m[a];
    place(m, ga, m[b]);
    place(m, gb, pa);
    return true;
  }

  void anneal(std::vector<ir::PeId> current, std::uint64_t steps) {
    auto now = evaluate(current);
    if (now) offer(now->c);
    if (free_.empty()) return;
    Random rng(o_.seed);
    const double start = now && now->guide < kInf ? 0.05 * now->guide : 1.0;
    double energy = now ? now->guide : kInf;
    std::vector<ir::PeId> next;
    for (std::uint64_t k = 0; k < steps; ++k) {
      double temperature =
          start * std::pow(1e-4, static_cast<double>(k) / static_cast<double>(steps));
      next = current;
      if (!neighbour(next, rng)) continue;
      auto s = evaluate(next);
      if (!s) continue;
      double delta = s->guide - energy;
      if (delta <= 0 || rng.unit() < std::exp(-delta / temperature)) {
        current.swap(next);
        energy = s->guide;
        if (best_.size() <= o_.alternatives || better(s->c, best_.back())) offer(std::move(s->c));
      }
    }
  }

  /// Steepest descent over single moves from `m`, by score then guide.
  void descend(std::vector<ir::PeId> m) {
    auto now = evaluate(m);
    if (!now) return;
    for (;;) {
      std::optional<Scored> step;
      for (const Group& g : free_) {
        const ir::PeId keep = m[g.front()];
        for (ir::PeId pe : model_.allowed(g.front())) {
          if (pe == keep) continue;
          place(m, g, pe);
          auto s = evaluate(m);
          if (s &&
              (s->c.score < now->c.score ||
               (s->c.score == now->c.score && s->guide < now->guide)) &&
              (!step || s->c.score < step->c.score ||
               (s->c.score == step->c.score && s->guide < step->guide)))
            step = std::move(s);
        }
        place(m, g, keep);
      }
      if (!step) return;
      m = step->c.pe_of;
      now = step;
      offer(step->c);
    }
  }

  SearchResult finish(bool exact) {
    result_.best = std::move(best_);
    result_.exact = exact;
    for (Candidate& c : result_.best) memory(c);
    return std::move(result_);
  }

  const ir::Program& p_;
  const CostTable& costs_;
  const SearchOptions& o_;
  QuickModel model_;
  std::vector<Group> free_;
  /// Per node dealt over shares (ir::Node::shares): its shares' groups, indices into free_, in
  /// share order.
  std::vector<std::vector<std::size_t>> dealt_;
  std::vector<ir::PeId> class_of_;      ///< interchangeable()
  std::vector<std::size_t> spec_node_;  ///< per free group, its spec node's index
  bool needs_ig_ = false;
  std::vector<Candidate> best_;
  std::map<std::vector<ir::PeId>, std::int64_t> memory_;
  SearchResult result_;
};

}  // namespace

bool better(const Candidate& a, const Candidate& b) {
  if (a.score != b.score) return a.score < b.score;
  if (a.period != b.period) return a.period < b.period;
  // In seconds first: cycles of two replica counts run different numbers of iterations.
  if (a.latency != b.latency) return a.latency < b.latency;
  if (a.latency_cycles != b.latency_cycles) return a.latency_cycles < b.latency_cycles;
  return a.pe_of < b.pe_of;
}

double mapping_count(const ir::Program& program) {
  std::vector<ir::NodeId> all(program.dfg.nodes.size());
  for (ir::NodeId n = 0; n < all.size(); ++n) all[n] = n;
  double count = 1;
  for (const Group& g : free_groups(program, all))
    count *= static_cast<double>(program.dfg.nodes[g.front()].candidates.size());
  return count;
}

ir::Program with_mapping(const ir::Program& program, const std::vector<ir::PeId>& pe_of) {
  ir::Program p = program;
  p.mapping.pe_of = pe_of;
  return p;
}

SearchResult search(const ir::Program& program, const CostTable& costs,
                    const SearchOptions& options) {
  Searcher s(program, costs, options);
  bool exact = options.method == SearchOptions::Method::exact ||
               (options.method == SearchOptions::Method::automatic &&
                mapping_count(program) <= options.exact_limit);
  return exact ? s.exact() : s.heuristic();
}

}  // namespace dfgc::mapping
