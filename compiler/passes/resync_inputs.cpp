#include "passes/resync_inputs.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dfgc {

namespace {

/// Whether edge `e`'s line on `pe`, fed from planned buffer `from`, may read `from` in place (the
/// file comment): the producer's own output on the line's PE, not bounded, no island at either
/// end, and no node of the program that may migrate.
bool may_alias(const ir::Program& p, const BufferPlan& plan, ir::EdgeId e, ir::BufferId from,
               ir::PeId pe) {
  const ir::Edge& edge = p.dfg.edges[e];
  const PlannedBuffer& source = plan.buffers[from];
  if (source.pe != pe || source.in) return false;
  if (p.types[edge.type].bounded) return false;
  if (p.dfg.actor_of(edge.src).island || p.dfg.actor_of(edge.dst).island) return false;
  return std::none_of(p.dfg.nodes.begin(), p.dfg.nodes.end(),
                      [](const ir::Node& n) { return !n.alternatives.empty(); });
}

}  // namespace

DelayLines resync_inputs(const ir::Program& program, const BufferPlan& plan,
                         const Latencies& latencies) {
  const ir::Dfg& dfg = program.dfg;
  DelayLines lines;
  for (ir::Strategy s : ir::kStrategies)
    for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) {
      const ir::Edge& edge = dfg.edges[e];
      const Latency& l = latencies[s];
      const bool back = l.edge_back[e] != 0;
      const std::uint32_t early =
          l.node[edge.dst] + edge.delay - l.edge_arrival[e] + (back ? 1 : 0);
      if (early == 0) continue;
      const ir::PeId pe = program.mapping.pe_of[edge.dst];
      DelayLine line{
          fmt::format("{}.{}.delay@{}", dfg.nodes[edge.dst].name,
                      dfg.actor_of(edge.dst).ports[edge.dst_port].name, program.arch.pes[pe].name),
          e,
          plan.edge_buffer[e],
          pe,
          early,
          back ? edge.src : edge.dst,
          l.edge_arrival[e] - (back ? 1 : 0)};
      if (may_alias(program, plan, e, line.from, pe)) {
        line.aliased = true;
        line.slots = back && edge.src != edge.dst ? early : early + 1;
      }
      lines[s].push_back(std::move(line));
    }
  return lines;
}

std::vector<DelayLine> copied_lines(const std::vector<DelayLine>& lines) {
  std::vector<DelayLine> out;
  std::copy_if(lines.begin(), lines.end(), std::back_inserter(out),
               [](const DelayLine& d) { return !d.aliased; });
  return out;
}

std::vector<std::uint32_t> depth_with_lines(std::vector<std::uint32_t> depth,
                                            const std::vector<DelayLine>& lines) {
  for (const DelayLine& d : lines)
    if (d.aliased) depth[d.from] = std::max(depth[d.from], d.slots);
  return depth;
}

std::string dump(const DelayLines& lines, const BufferPlan& plan) {
  std::string out;
  for (ir::Strategy s : ir::kStrategies)
    for (const DelayLine& d : lines[s]) {
      out += fmt::format("{} {} <- {} cycles {}", ir::to_string(s), d.name,
                         plan.buffers[d.from].name, d.cycles);
      if (d.aliased)
        out += fmt::format(" aliased, slots {}", d.slots);
      else
        out += " copied";
      out += '\n';
    }
  return out;
}

}  // namespace dfgc
