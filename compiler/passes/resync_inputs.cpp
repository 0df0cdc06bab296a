#include "passes/resync_inputs.hpp"

#include <fmt/format.h>

namespace dfgc {

DelayLines resync_inputs(const ir::Dfg& dfg, const ir::ArchGraph& arch, const ir::Mapping& mapping,
                         const BufferPlan& plan, const Latencies& latencies) {
  DelayLines lines;
  for (ir::Strategy s : ir::kStrategies)
    for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) {
      const ir::Edge& edge = dfg.edges[e];
      const Latency& l = latencies[s];
      const bool back = l.edge_back[e] != 0;
      const std::uint32_t early =
          l.node[edge.dst] + edge.delay - l.edge_arrival[e] + (back ? 1 : 0);
      if (early == 0) continue;
      const ir::PeId pe = mapping.pe_of[edge.dst];
      lines[s].push_back(
          {fmt::format("{}.{}.delay@{}", dfg.nodes[edge.dst].name,
                       dfg.actor_of(edge.dst).ports[edge.dst_port].name, arch.pes[pe].name),
           e, plan.edge_buffer[e], pe, early, back ? edge.src : edge.dst,
           l.edge_arrival[e] - (back ? 1 : 0)});
    }
  return lines;
}

std::string dump(const DelayLines& lines, const BufferPlan& plan) {
  std::string out;
  for (ir::Strategy s : ir::kStrategies)
    for (const DelayLine& d : lines[s]) {
      out += fmt::format("{} {} <- {} cycles {}", ir::to_string(s), d.name,
                         plan.buffers[d.from].name, d.cycles);
      out += '\n';
    }
  return out;
}

}  // namespace dfgc
