#include "passes/color_buffers.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "ir/byte_count.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::uint32_t InterferenceGraph::add(std::string name, std::int64_t size, std::uint32_t depth) {
  names.push_back(std::move(name));
  bytes.push_back(size);
  slots.push_back(depth);
  return static_cast<std::uint32_t>(names.size() - 1);
}

void InterferenceGraph::add_conflict(std::uint32_t a, std::uint32_t b) {
  DFGC_INTERNAL_ASSERT(a != b && a < size() && b < size(), "bad conflict ", a, " ", b);
  if (in_clique(a) && in_clique(b)) return;
  if (adjacent_.size() != size()) adjacent_.resize(size());
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    std::vector<std::uint32_t>& list = adjacent_[from];
    if (list.empty() || list.back() < to) {
      list.push_back(to);
      continue;
    }
    auto at = std::lower_bound(list.begin(), list.end(), to);
    if (*at != to) list.insert(at, to);
  }
}

void InterferenceGraph::add_clique(const std::vector<std::uint32_t>& members) {
  DFGC_INTERNAL_ASSERT(clique_size_ == 0 && adjacent_.empty(), "the clique comes first, and once");
  in_clique_.assign(size(), false);
  for (std::uint32_t v : members) {
    DFGC_INTERNAL_ASSERT(v < size() && !in_clique_[v], "bad clique member ", v);
    in_clique_[v] = true;
  }
  clique_size_ = static_cast<std::uint32_t>(members.size());
}

bool InterferenceGraph::conflicts(std::uint32_t a, std::uint32_t b) const {
  if (a != b && in_clique(a) && in_clique(b)) return true;
  return a < adjacent_.size() && std::binary_search(adjacent_[a].begin(), adjacent_[a].end(), b);
}

const std::vector<std::uint32_t>& InterferenceGraph::neighbours(std::uint32_t v) const {
  static const std::vector<std::uint32_t> none;
  return v < adjacent_.size() ? adjacent_[v] : none;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> intersecting_pairs(
    const std::vector<std::vector<PointRange>>& ranges, const std::vector<bool>* skip) {
  struct Item {
    PointRange range;
    std::uint32_t owner;
  };
  std::vector<Item> items;
  for (std::uint32_t i = 0; i < ranges.size(); ++i)
    for (const PointRange& r : ranges[i]) items.push_back({r, i});
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.range.first != b.range.first ? a.range.first < b.range.first : a.owner < b.owner;
  });
  // The ranges begun so far that have not ended, of skipped items and of the others: heaps with
  // the earliest last point on top. A skipped item meets only the others' ranges.
  std::vector<Item> open[2];
  auto skipped = [&](std::uint32_t owner) { return skip && (*skip)[owner]; };
  auto ends_later = [](const Item& a, const Item& b) { return a.range.last > b.range.last; };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const Item& item : items) {
    for (std::vector<Item>& heap : open)
      while (!heap.empty() && heap.front().range.last < item.range.first) {
        std::pop_heap(heap.begin(), heap.end(), ends_later);
        heap.pop_back();
      }
    const bool skip_item = skipped(item.owner);
    for (int k = skip_item ? 1 : 0; k < 2; ++k)
      for (const Item& other : open[k])  // each holds item's first point
        if (other.owner != item.owner)
          pairs.emplace_back(std::min(other.owner, item.owner), std::max(other.owner, item.owner));
    std::vector<Item>& heap = open[skip_item ? 0 : 1];
    heap.push_back(item);
    std::push_heap(heap.begin(), heap.end(), ends_later);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

namespace {

/// The storage of one colour while it is being filled.
struct ColourClass {
  std::uint32_t slots = 0;
  std::int64_t bytes = 0;
  // Byte counts saturate (ir/byte_count.hpp).
  std::int64_t cost() const { return ir::mul_bytes(slots, bytes); }
  std::int64_t cost_with(std::uint32_t s, std::int64_t b) const {
    return ir::mul_bytes(std::max(slots, s), std::max(bytes, b));
  }
};

/// Renumbers colours in the order of their smallest member name.
Colouring canonical(const InterferenceGraph& g, std::vector<std::uint32_t> colour,
                    std::uint32_t count) {
  std::vector<const std::string*> first(count, nullptr);
  for (std::size_t v = 0; v < g.size(); ++v)
    if (!first[colour[v]] || g.names[v] < *first[colour[v]]) first[colour[v]] = &g.names[v];
  std::vector<std::uint32_t> by_name(count);
  std::iota(by_name.begin(), by_name.end(), 0u);
  std::sort(by_name.begin(), by_name.end(),
            [&](std::uint32_t a, std::uint32_t b) { return *first[a] < *first[b]; });
  std::vector<std::uint32_t> renumber(count);
  for (std::uint32_t i = 0; i < count; ++i) renumber[by_name[i]] = i;
  for (std::uint32_t& c : colour) c = renumber[c];
  Colouring result{std::move(colour), count, 0};
  result.bytes = allocated_bytes(g, result.colour);
  return result;
}

}  // namespace

std::int64_t allocated_bytes(const InterferenceGraph& g, const std::vector<std::uint32_t>& colour) {
  std::map<std::uint32_t, ColourClass> classes;
  for (std::size_t v = 0; v < g.size(); ++v) {
    ColourClass& c = classes[colour[v]];
    c.slots = std::max(c.slots, g.slots[v]);
    c.bytes = std::max(c.bytes, g.bytes[v]);
  }
  std::int64_t total = 0;
  for (const auto& [index, c] : classes) total = ir::add_bytes(total, c.cost());
  return total;
}

Colouring dsatur(const InterferenceGraph& g) {
  const std::size_t n = g.size();
  constexpr std::uint32_t kNone = ~0u;
  // saturation: the distinct colours among v's neighbours; for a clique member, those of its
  // other neighbours that no clique member has (the clique's own colours, `clique_colours`, count
  // for every member alike).
  std::vector<std::uint32_t> colour(n, kNone), saturation(n, 0), rank(n, 0);
  std::vector<std::size_t> degree(n, 0);
  std::vector<std::vector<bool>> seen(n);  // seen[v][c]: a neighbour outside the clique has c
  std::vector<bool> clique_colour;         // a clique member has colour c
  std::uint32_t clique_colours = 0;
  // seers[c]: the clique members that saw colour c outside the clique, before the clique had it.
  std::vector<std::vector<std::uint32_t>> seers;
  for (std::uint32_t v = 0; v < n; ++v) degree[v] = g.degree(v);
  std::vector<std::uint32_t> by_size(n);  // the final tie-break: size descending, then name
  std::iota(by_size.begin(), by_size.end(), 0u);
  std::sort(by_size.begin(), by_size.end(), [&](std::uint32_t a, std::uint32_t b) {
    return g.bytes[a] != g.bytes[b] ? g.bytes[a] > g.bytes[b] : g.names[a] < g.names[b];
  });
  for (std::uint32_t i = 0; i < n; ++i) rank[by_size[i]] = i;
  // a is coloured before b, for two vertices both in the clique or both out of it.
  auto before = [&](std::uint32_t a, std::uint32_t b) {
    if (saturation[a] != saturation[b]) return saturation[a] > saturation[b];
    if (degree[a] != degree[b]) return degree[a] > degree[b];
    return rank[a] < rank[b];
  };
  // The uncoloured vertices, the next to colour first (rank makes the order total): those out
  // of the clique, and its members, whose saturations all lack the same clique_colours.
  std::set<std::uint32_t, decltype(before)> waiting(before), waiting_clique(before);
  for (std::uint32_t v = 0; v < n; ++v) (g.in_clique(v) ? waiting_clique : waiting).insert(v);
  auto next = [&]() -> std::uint32_t {
    if (waiting_clique.empty() || waiting.empty())
      return waiting.empty() ? *waiting_clique.begin() : *waiting.begin();
    const std::uint32_t a = *waiting.begin(), b = *waiting_clique.begin();
    const std::uint32_t sat_b = saturation[b] + clique_colours;
    if (saturation[a] != sat_b) return saturation[a] > sat_b ? a : b;
    if (degree[a] != degree[b]) return degree[a] > degree[b] ? a : b;
    return rank[a] < rank[b] ? a : b;
  };
  auto rekey = [&](std::uint32_t u, auto change) {
    auto& set = g.in_clique(u) ? waiting_clique : waiting;
    set.erase(u);
    change();
    set.insert(u);
  };
  std::vector<ColourClass> classes;
  while (!waiting.empty() || !waiting_clique.empty()) {
    const std::uint32_t v = next();
    const bool member = g.in_clique(v);
    (member ? waiting_clique : waiting).erase(v);
    std::uint32_t pick = kNone;
    std::int64_t growth = 0;
    for (std::uint32_t c = 0; c < classes.size(); ++c) {
      if (c < seen[v].size() && seen[v][c]) continue;
      if (member && c < clique_colour.size() && clique_colour[c]) continue;
      std::int64_t grows = classes[c].cost_with(g.slots[v], g.bytes[v]) - classes[c].cost();
      if (pick == kNone || grows < growth) {
        pick = c;
        growth = grows;
      }
    }
    if (pick == kNone) {
      pick = static_cast<std::uint32_t>(classes.size());
      classes.emplace_back();
    }
    classes[pick] = {std::max(classes[pick].slots, g.slots[v]),
                     std::max(classes[pick].bytes, g.bytes[v])};
    colour[v] = pick;
    if (clique_colour.size() <= pick) clique_colour.resize(pick + 1, false);
    if (seers.size() <= pick) seers.resize(pick + 1);
    if (member) {
      // Every other member now sees `pick` through the clique: those that saw it already
      // elsewhere keep their saturation.
      clique_colour[pick] = true;
      ++clique_colours;
      for (std::uint32_t u : seers[pick])
        if (colour[u] == kNone) rekey(u, [&] { --saturation[u]; });
      seers[pick].clear();
    }
    for (std::uint32_t u : g.neighbours(v)) {
      if (colour[u] != kNone) continue;
      if (seen[u].size() <= pick) seen[u].resize(pick + 1, false);
      if (seen[u][pick]) continue;
      seen[u][pick] = true;
      if (g.in_clique(u) && clique_colour[pick]) continue;  // counted through the clique
      if (g.in_clique(u)) seers[pick].push_back(u);
      rekey(u, [&] { ++saturation[u]; });
    }
  }
  return canonical(g, std::move(colour), static_cast<std::uint32_t>(classes.size()));
}

namespace {

/// Branch and bound over the vertices in order of size (largest first, so that a colour's first
/// member fixes its slot size): each vertex joins a compatible colour or opens the next one.
class ExactSearch {
 public:
  ExactSearch(const InterferenceGraph& g, ColouringGoal goal)
      : g_(g), goal_(goal), order_(g.size()) {
    std::iota(order_.begin(), order_.end(), 0u);
    std::sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (g.bytes[a] != g.bytes[b]) return g.bytes[a] > g.bytes[b];
      if (g.slots[a] != g.slots[b]) return g.slots[a] > g.slots[b];
      return g.names[a] < g.names[b];
    });
    best_ = dsatur(g);
    colour_.assign(g.size(), 0);
  }

  Colouring run() {
    floor_ = clique_bound();
    if (cost(best_) > floor_) search(0, 0);
    return best_;
  }

 private:
  std::int64_t cost(const Colouring& c) const {
    return goal_ == ColouringGoal::fewest_colours ? c.count : c.bytes;
  }
  std::int64_t opening_cost(std::uint32_t v) const {
    return goal_ == ColouringGoal::fewest_colours ? 1 : ir::mul_bytes(g_.slots[v], g_.bytes[v]);
  }
  bool fits(std::uint32_t v, std::uint32_t c) const {
    for (std::uint32_t u : members_[c])
      if (g_.conflicts(v, u)) return false;
    return true;
  }

  /// A greedy clique: its members need distinct colours, so its cost is a lower bound.
  std::int64_t clique_bound() const {
    std::vector<std::uint32_t> clique;
    for (std::uint32_t v : order_)
      if (std::all_of(clique.begin(), clique.end(),
                      [&](std::uint32_t u) { return g_.conflicts(v, u); }))
        clique.push_back(v);
    std::int64_t bound = 0;
    for (std::uint32_t v : clique) bound = ir::add_bytes(bound, opening_cost(v));
    return bound;
  }

  /// The cost still to pay at least: the largest vertex to come that fits no colour opens one.
  std::int64_t remaining_bound(std::size_t i) const {
    for (std::size_t j = i; j < order_.size(); ++j) {
      bool fits_some = false;
      for (std::uint32_t c = 0; c < classes_.size() && !fits_some; ++c)
        fits_some = fits(order_[j], c);
      if (!fits_some) return opening_cost(order_[j]);
    }
    return 0;
  }

  void search(std::size_t i, std::int64_t spent) {
    if (cost(best_) == floor_ || ir::add_bytes(spent, remaining_bound(i)) >= cost(best_)) return;
    if (i == order_.size()) {
      best_ = canonical(g_, colour_, static_cast<std::uint32_t>(classes_.size()));
      return;
    }
    const std::uint32_t v = order_[i];
    for (std::uint32_t c = 0; c < classes_.size(); ++c) {
      if (!fits(v, c)) continue;
      ColourClass saved = classes_[c];
      std::int64_t grows = goal_ == ColouringGoal::fewest_colours
                               ? 0
                               : saved.cost_with(g_.slots[v], g_.bytes[v]) - saved.cost();
      classes_[c] = {std::max(saved.slots, g_.slots[v]), std::max(saved.bytes, g_.bytes[v])};
      members_[c].push_back(v);
      colour_[v] = c;
      search(i + 1, ir::add_bytes(spent, grows));
      members_[c].pop_back();
      classes_[c] = saved;
    }
    classes_.push_back({g_.slots[v], g_.bytes[v]});
    members_.push_back({v});
    colour_[v] = static_cast<std::uint32_t>(classes_.size() - 1);
    search(i + 1, ir::add_bytes(spent, opening_cost(v)));
    members_.pop_back();
    classes_.pop_back();
  }

  const InterferenceGraph& g_;
  ColouringGoal goal_;
  std::vector<std::uint32_t> order_;
  Colouring best_;
  std::int64_t floor_ = 0;
  std::vector<std::uint32_t> colour_;
  std::vector<ColourClass> classes_;
  std::vector<std::vector<std::uint32_t>> members_;
};

}  // namespace

Colouring exact_colouring(const InterferenceGraph& g, ColouringGoal goal) {
  DFGC_INTERNAL_ASSERT(g.size() <= 20, "exact colouring of ", g.size(), " vertices");
  return ExactSearch(g, goal).run();
}

namespace {

/// The points of one PE's cycle where a buffer node is live: at most two ranges.
using LivePoints = std::vector<PointRange>;

/// Every point of a cycle of `count` points.
LivePoints all_points(std::size_t count) {
  if (count == 0) return {};
  return {PointRange{0, count - 1}};
}

/// Computes the live points of the buffer nodes of one strategy (see the file comment).
class Liveness {
 public:
  Liveness(ir::Strategy s, const Schedule& schedule, const ir::Dfg& dfg, const BufferPlan& plan,
           const std::vector<std::uint32_t>& depth, const Latency& latency)
      : schedule_(schedule),
        dfg_(dfg),
        plan_(plan),
        depth_(depth),
        latency_(latency),
        steps_(s == ir::Strategy::no_overlap ? latency.steps : 0) {}

  std::size_t point_count(ir::PeId pe) const { return steps_ + schedule_.per_pe[pe].size(); }

  LivePoints of_planned(ir::BufferId b) const {
    const PlannedBuffer& buffer = plan_.buffers[b];
    // Another cpu reads it at points of its own cycle, which this PE's points do not order.
    if (buffer.shared) return all_points(point_count(buffer.pe));
    if (depth_[b] == 1) return single(buffer);
    const std::size_t last = point_count(buffer.pe) - 1;
    if (!buffer.in) return {PointRange{firing(buffer.node), last}};
    if (!buffer.out.empty()) return all_points(point_count(buffer.pe));
    return {PointRange{0, last_local_read(buffer)}};
  }

 private:
  std::size_t firing(ir::NodeId n) const { return steps_ + schedule_.position[n]; }
  std::size_t step(ir::TransferId t) const { return latency_.transfer_step[t]; }

  std::size_t last_local_read(const PlannedBuffer& buffer) const {
    std::size_t last = 0;
    for (ir::EdgeId e : buffer.consumers) last = std::max(last, firing(dfg_.edges[e].dst));
    return last;
  }

  /// From the write to the last read, reads by transfers falling in the next cycle.
  LivePoints single(const PlannedBuffer& buffer) const {
    const std::size_t count = point_count(buffer.pe);
    const std::size_t write = buffer.in ? step(*buffer.in) : firing(buffer.node);
    std::size_t end = write;  // in points from the start of the write's cycle
    for (ir::EdgeId e : buffer.consumers) end = std::max(end, firing(dfg_.edges[e].dst));
    for (ir::TransferId t : buffer.out) end = std::max(end, count + step(t));
    if (end >= write + count) return all_points(count);
    if (end >= count) return {PointRange{0, end - count}, PointRange{write, count - 1}};
    return {PointRange{write, end}};
  }

  const Schedule& schedule_;
  const ir::Dfg& dfg_;
  const BufferPlan& plan_;
  const std::vector<std::uint32_t>& depth_;
  const Latency& latency_;
  std::size_t steps_;
};

/// The items live at the point where most items are (an item's ranges do not overlap), in
/// increasing order; none when no item is ever live.
std::vector<std::uint32_t> live_at_busiest_point(const std::vector<LivePoints>& ranges) {
  std::size_t points = 0;
  for (const LivePoints& r : ranges)
    for (const PointRange& x : r) points = std::max(points, x.last + 1);
  std::vector<std::int64_t> starts(points + 1, 0);  // differences: +1 at first, -1 past last
  for (const LivePoints& r : ranges)
    for (const PointRange& x : r) {
      ++starts[x.first];
      --starts[x.last + 1];
    }
  std::size_t best = 0;
  std::int64_t count = 0, most = 0;
  for (std::size_t p = 0; p < points; ++p) {
    count += starts[p];
    if (count > most) {
      most = count;
      best = p;
    }
  }
  std::vector<std::uint32_t> out;
  if (most == 0) return out;
  for (std::uint32_t i = 0; i < ranges.size(); ++i)
    if (std::any_of(ranges[i].begin(), ranges[i].end(),
                    [&](const PointRange& x) { return x.first <= best && best <= x.last; }))
      out.push_back(i);
  return out;
}

PeColouring colour_pe(ir::PeId pe, const std::vector<ir::BufferId>& buffers,
                      const std::vector<LivePoints>& live, const ir::Program& p,
                      const BufferPlan& plan, const std::vector<std::uint32_t>& depth,
                      const std::vector<DelayLine>& delays) {
  PeColouring result;
  result.pe = pe;
  result.buffers = buffers;
  for (ir::BufferId b : buffers) {
    bool planned = b < plan.buffers.size();
    const DelayLine* line = planned ? nullptr : &delays[b - plan.buffers.size()];
    ir::TypeId type = planned ? plan.buffers[b].type : plan.buffers[line->from].type;
    std::uint32_t slots = planned ? depth[b] : line->cycles;
    std::int64_t bytes = p.types[type].bytes();
    result.graph.add(planned ? plan.buffers[b].name : line->name, bytes, slots);
    result.bytes_before = ir::add_bytes(result.bytes_before, ir::mul_bytes(slots, bytes));
  }
  // Live at a common point, or both with more than one slot. The larger of two sets that
  // conflict pairwise is the graph's clique, its pairs implied: the buffers of more than one
  // slot (with overlap), or those live at the point where most are (without overlap, every
  // buffer a transfer reads is live at the cycle's end).
  std::vector<LivePoints> ranges;
  std::vector<std::uint32_t> deep;
  for (std::uint32_t i = 0; i < buffers.size(); ++i) {
    ranges.push_back(live[buffers[i]]);
    if (result.graph.slots[i] > 1) deep.push_back(i);
  }
  std::vector<std::uint32_t> busiest = live_at_busiest_point(ranges);
  const bool deep_clique = deep.size() >= busiest.size();
  const std::vector<std::uint32_t>& clique = deep_clique ? deep : busiest;
  std::vector<bool> in_clique(buffers.size(), false);
  for (std::uint32_t i : clique) in_clique[i] = true;
  result.graph.add_clique(clique);
  for (auto [i, j] : intersecting_pairs(ranges, &in_clique)) result.graph.add_conflict(i, j);
  if (!deep_clique)
    for (std::size_t a = 0; a < deep.size(); ++a)
      for (std::size_t b = a + 1; b < deep.size(); ++b) result.graph.add_conflict(deep[a], deep[b]);
  result.colouring = dsatur(result.graph);
  return result;
}

}  // namespace

BufferColouring color_buffers(const ir::Program& p, const Schedule& schedule,
                              const BufferPlan& plan, const BufferDepths& depths,
                              const Latencies& latencies, const DelayLines& delays) {
  BufferColouring result;
  for (ir::Strategy s : ir::kStrategies) {
    const std::vector<std::uint32_t> depth = depth_with_lines(depths[s], delays[s]);
    const std::vector<DelayLine> lines = copied_lines(delays[s]);
    Liveness liveness(s, schedule, p.dfg, plan, depth, latencies[s]);
    std::vector<LivePoints> live;
    std::vector<std::vector<ir::BufferId>> on_pe(p.arch.pes.size());
    for (ir::BufferId b = 0; b < plan.buffers.size(); ++b) {
      live.push_back(liveness.of_planned(b));
      on_pe[plan.buffers[b].pe].push_back(b);
    }
    // An aliased line's source holds tokens for later cycles in every slot, as a line does.
    for (const DelayLine& d : delays[s])
      if (d.aliased) live[d.from] = all_points(liveness.point_count(d.pe));
    for (std::size_t d = 0; d < lines.size(); ++d) {
      live.push_back(all_points(liveness.point_count(lines[d].pe)));
      on_pe[lines[d].pe].push_back(static_cast<ir::BufferId>(plan.buffers.size() + d));
    }
    for (ir::PeId pe = 0; pe < p.arch.pes.size(); ++pe)
      result[s].push_back(colour_pe(pe, on_pe[pe], live, p, plan, depth, lines));
  }
  return result;
}

std::string dump(const BufferColouring& colouring, const ir::Program& p) {
  std::string out;
  for (ir::Strategy s : ir::kStrategies)
    for (const PeColouring& pc : colouring[s]) {
      for (std::size_t v = 0; v < pc.graph.size(); ++v)
        out += fmt::format("{} {} colour {}\n", ir::to_string(s), pc.graph.names[v],
                           pc.colouring.colour[v]);
      out += fmt::format("{} {} memory {} -> {} bytes, {} colours\n", ir::to_string(s),
                         p.arch.pes[pc.pe].name, ir::byte_count_text(pc.bytes_before),
                         ir::byte_count_text(pc.colouring.bytes), pc.colouring.count);
    }
  return out;
}

}  // namespace dfgc
