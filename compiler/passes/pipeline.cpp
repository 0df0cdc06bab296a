#include "passes/pipeline.hpp"

#include "passes/build_ig.hpp"

namespace dfgc {

ir::Ig run_passes(const ir::Program& p) {
  Schedule order = schedule(p.dfg, p.arch, p.mapping);
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  BufferDepths depths = buffer_depth(plan);
  Latencies latencies = compute_latency(p.dfg, order, plan);
  DelayLines delays = resync_inputs(p.dfg, p.arch, p.mapping, plan, latencies);
  BufferColouring colours = color_buffers(p, order, plan, depths, latencies, delays);
  return build_ig(p, order, plan, depths, latencies, delays, colours);
}

}  // namespace dfgc
