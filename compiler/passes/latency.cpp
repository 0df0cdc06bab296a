#include "passes/latency.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dfgc {

std::uint32_t edge_delay(ir::Strategy s, std::uint32_t transfers) {
  if (s == ir::Strategy::no_overlap || transfers == 0) return transfers;
  return transfers + 1;
}

namespace {

Latency latency_of(ir::Strategy s, const ir::Dfg& dfg, const Schedule& schedule,
                   const BufferPlan& plan, const std::vector<std::uint32_t>& floor) {
  Latency l;
  l.node.assign(dfg.nodes.size(), 0);
  if (!floor.empty()) l.node = floor;
  l.edge_arrival.assign(dfg.edges.size(), 0);
  std::vector<std::vector<ir::EdgeId>> in_edges(dfg.nodes.size());
  for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) in_edges[dfg.edges[e].dst].push_back(e);
  for (ir::NodeId n : schedule.order)
    for (ir::EdgeId e : in_edges[n]) {
      const ir::Edge& edge = dfg.edges[e];
      const PlannedBuffer& read = plan.buffers[plan.edge_buffer[e]];
      // Another cpu of the host reads a firing's output in the next cycle (shared memory).
      const std::uint32_t delay = plan.edge_shared[e] && !read.in ? 1 : edge_delay(s, read.hop);
      l.edge_arrival[e] = l.node[edge.src] + delay;
      l.node[n] = std::max(l.node[n], l.edge_arrival[e]);
    }
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
