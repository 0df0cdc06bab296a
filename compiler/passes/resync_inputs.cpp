#include "passes/resync_inputs.hpp"

#include <fmt/format.h>

namespace dfgc {

DelayLines resync_inputs(const ir::Dfg& dfg, const ir::ArchGraph& arch, const ir::Mapping& mapping,
                         const BufferPlan& plan, const Latencies& latencies) {
  DelayLines lines;
  for (ir::Strategy s : ir::kStrategies)
    for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) {
      const ir::Edge& edge = dfg.edges[e];
      const std::uint32_t early = latencies[s].node[edge.dst] - latencies[s].edge_arrival[e];
      if (early == 0) continue;
      const ir::PeId pe = mapping.pe_of[edge.dst];
      lines[s].push_back(
          {fmt::format("{}.{}.delay@{}", dfg.nodes[edge.dst].name,
                       dfg.actor_of(edge.dst).ports[edge.dst_port].name, arch.pes[pe].name),
           e, plan.edge_buffer[e], pe, early});
    }
  return lines;
}

std::string dump(const DelayLines& lines, const BufferPlan& plan) {
  std::string out;
  for (ir::Strategy s : ir::kStrategies)
    for (const DelayLine& d : lines[s])
      out += fmt::format("{} {} <- {} cycles {}\n", ir::to_string(s), d.name,
                         plan.buffers[d.from].name, d.cycles);
  return out;
}

}  // namespace dfgc
