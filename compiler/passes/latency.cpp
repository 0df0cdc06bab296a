#include "passes/latency.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "support/assert.hpp"

namespace dfgc {

std::uint32_t edge_delay(ir::Strategy s, std::uint32_t transfers) {
  if (s == ir::Strategy::no_overlap || transfers == 0) return transfers;
  return transfers + 1;
}

CycleWalk::CycleWalk(const ir::Dfg& dfg)
    : order(topological_order(dfg)), in_edges(dfg.nodes.size()) {
  for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) {
    in_edges[dfg.edges[e].dst].push_back(e);
    if (dfg.edges[e].delay) delays = true;
  }
}

FirstCycles first_cycles(const ir::Dfg& dfg, const std::vector<std::uint32_t>& edge_cycles,
                         const std::vector<std::uint32_t>& floor) {
  return first_cycles(dfg, CycleWalk(dfg), edge_cycles, floor);
}

FirstCycles first_cycles(const ir::Dfg& dfg, const CycleWalk& walk,
                         const std::vector<std::uint32_t>& edge_cycles,
                         const std::vector<std::uint32_t>& floor) {
  const std::size_t n = dfg.nodes.size();
  std::vector<std::int64_t> first(n, 0);
  if (!floor.empty()) first.assign(floor.begin(), floor.end());
  std::vector<std::optional<ir::EdgeId>> via(n);  // the edge that last raised a node
  // Relaxing in topological order settles a graph without loops in one round (a graph without
  // initial tokens has none: sema); each loop may take one round more. A round n + 1 that still
  // raises a node has met a loop that gains.
  bool gains = false;     // the last round raised a node
  ir::NodeId raised = 0;  // the node it raised last
  for (std::size_t round = 0; round <= n; ++round) {
    gains = false;
    for (ir::NodeId v : walk.order)
      for (ir::EdgeId e : walk.in_edges[v]) {
        const ir::Edge& edge = dfg.edges[e];
        std::int64_t at = first[edge.src] + edge_cycles[e] - static_cast<std::int64_t>(edge.delay);
        if (at <= first[v]) continue;
        first[v] = at;
        via[v] = e;
        raised = v;
        gains = true;
      }
    if (!walk.delays) gains = false;
    if (!gains) break;
  }
  FirstCycles result;
  if (!gains) {
    result.node.assign(first.begin(), first.end());
    return result;
  }
  // Walking back n steps from a node raised in the last round lands on the gaining loop.
  ir::NodeId v = raised;
  for (std::size_t i = 0; i < n; ++i) {
    DFGC_INTERNAL_ASSERT(via[v], "a raised node without the edge that raised it");
    v = dfg.edges[*via[v]].src;
  }
  UncoveredLoop loop;
  ir::NodeId u = v;
  do {
    DFGC_INTERNAL_ASSERT(via[u], "a gaining loop without the edge that raised it");
    ir::EdgeId e = *via[u];
    loop.edges.push_back(e);
    loop.tokens += dfg.edges[e].delay;
    u = dfg.edges[e].src;
  } while (u != v);
  std::reverse(loop.edges.begin(), loop.edges.end());
  // Start at the loop's first edge in spec order, so that the message does not depend on where
  // the walk entered it.
  std::rotate(loop.edges.begin(), std::min_element(loop.edges.begin(), loop.edges.end()),
              loop.edges.end());
  for (ir::EdgeId e : loop.edges) loop.edge_cycles.push_back(edge_cycles[e]);
  result.node.assign(n, 0);
  result.uncovered = std::move(loop);
  return result;
}

std::optional<ir::Strategy> uncovered_strategy(const Latencies& latencies) {
  for (ir::Strategy s : ir::kStrategies)
    if (latencies[s].uncovered) return s;
  return std::nullopt;
}

std::optional<StrategyLoop> uncovered_loop(const Latencies& latencies) {
  auto s = uncovered_strategy(latencies);
  if (!s) return std::nullopt;
  return StrategyLoop{*s, *latencies[*s].uncovered};
}

std::uint32_t UncoveredLoop::cycles() const {
  return std::accumulate(edge_cycles.begin(), edge_cycles.end(), std::uint32_t{0});
}

std::uint32_t UncoveredLoop::transfers() const {
  return std::accumulate(edge_transfers.begin(), edge_transfers.end(), std::uint32_t{0});
}

std::string describe(const UncoveredLoop& loop, ir::Strategy s, const ir::Dfg& dfg) {
  std::string path = dfg.nodes[dfg.edges[loop.edges.front()].src].name;
  for (ir::EdgeId e : loop.edges) path += " -> " + dfg.nodes[dfg.edges[e].dst].name;
  const std::uint32_t lacks = loop.cycles() - loop.tokens;
  return fmt::format(
      "loop {} takes {} cycle{} {} ({} transfer{}) but carries {} initial token{}; it lacks {} "
      "token{}: each token must come round before the iteration that needs it",
      path, loop.cycles(), loop.cycles() == 1 ? "" : "s",
      s == ir::Strategy::overlap ? "with overlap" : "without overlap", loop.transfers(),
      loop.transfers() == 1 ? "" : "s", loop.tokens, loop.tokens == 1 ? "" : "s", lacks,
      lacks == 1 ? "" : "s");
}

namespace {

/// Raises `floor` so that the copies of a spec node on one PE (sema/replicas.hpp) fire from the
/// latest of their first cycles: they share an instance, which must see its iterations in
/// order. False when they already do.
bool align_copies(const ir::Dfg& dfg, const Schedule& schedule,
                  const std::vector<std::uint32_t>& first, std::vector<std::uint32_t>& floor) {
  bool raised = false;
  for (const std::vector<ir::NodeId>& on_pe : schedule.per_pe) {
    std::map<std::string_view, std::uint32_t> latest;
    for (ir::NodeId n : on_pe)
      if (!dfg.nodes[n].origin.empty()) {
        std::uint32_t& l = latest[dfg.nodes[n].origin];
        l = std::max(l, first[n]);
      }
    for (ir::NodeId n : on_pe)
      if (!dfg.nodes[n].origin.empty() && first[n] < latest[dfg.nodes[n].origin]) {
        floor.resize(dfg.nodes.size(), 0);
        floor[n] = latest[dfg.nodes[n].origin];
        raised = true;
      }
  }
  return raised;
}

Latency latency_of(ir::Strategy s, const ir::Dfg& dfg, const Schedule& schedule,
                   const BufferPlan& plan, const std::vector<std::uint32_t>& given_floor) {
  Latency l;
  l.edge_arrival.assign(dfg.edges.size(), 0);
  l.edge_back.assign(dfg.edges.size(), 0);
  std::vector<std::uint32_t> cycles(dfg.edges.size(), 0);
  for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) {
    const ir::Edge& edge = dfg.edges[e];
    const PlannedBuffer& read = plan.buffers[plan.edge_buffer[e]];
    // Another cpu of the host reads a firing's output in the next cycle (shared memory).
    const bool shared = plan.edge_shared[e] && !read.in;
    l.edge_back[e] =
        !shared && read.hop == 0 && schedule.index[edge.dst] <= schedule.index[edge.src];
    cycles[e] = shared ? 1 : edge_delay(s, read.hop) + l.edge_back[e];
  }
  std::vector<std::uint32_t> floor = given_floor;
  FirstCycles first = first_cycles(dfg, cycles, floor);
  while (!first.uncovered && align_copies(dfg, schedule, first.node, floor))
    first = first_cycles(dfg, cycles, floor);
  l.node = std::move(first.node);
  if (first.uncovered) {
    for (ir::EdgeId e : first.uncovered->edges) {
      first.uncovered->edge_transfers.push_back(plan.buffers[plan.edge_buffer[e]].hop);
    }
    l.uncovered = std::move(first.uncovered);
  }
  for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e)
    l.edge_arrival[e] = l.node[dfg.edges[e].src] + cycles[e];
  std::uint32_t max_hop = 0;
  for (const PlannedTransfer& t : plan.transfers)
    max_hop = std::max(max_hop, plan.buffers[t.to].hop);
  l.steps = s == ir::Strategy::overlap ? 1 : std::max(max_hop, 1u);
  for (const PlannedTransfer& t : plan.transfers) {
    const PlannedBuffer& to = plan.buffers[t.to];
    l.transfer_first.push_back(l.node[to.node] + to.hop);
    l.transfer_step.push_back(s == ir::Strategy::overlap ? 0 : max_hop - to.hop);
  }
  return l;
}

}  // namespace

Latencies compute_latency(const ir::Dfg& dfg, const Schedule& schedule, const BufferPlan& plan,
                          const LatencyFloor& floor) {
  Latencies result;
  for (ir::Strategy s : ir::kStrategies) result[s] = latency_of(s, dfg, schedule, plan, floor[s]);
  return result;
}

std::string dump(const Latencies& latencies, const ir::Program& p, const BufferPlan& plan) {
  std::string out;
  for (ir::Strategy s : ir::kStrategies) {
    const Latency& l = latencies[s];
    if (l.uncovered)
      out += fmt::format("{} {}\n", ir::to_string(s), describe(*l.uncovered, s, p.dfg));
    for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
      out += fmt::format("{} {} latency {}\n", ir::to_string(s), p.dfg.nodes[n].name, l.node[n]);
    for (std::size_t t = 0; t < plan.transfers.size(); ++t)
      out += fmt::format("{} {} -> {} step {} from cycle {}\n", ir::to_string(s),
                         plan.buffers[plan.transfers[t].from].name,
                         plan.buffers[plan.transfers[t].to].name, l.transfer_step[t],
                         l.transfer_first[t]);
  }
  return out;
}

}  // namespace dfgc
