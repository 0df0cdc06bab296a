#include "passes/buffer_depth.hpp"

#include <fmt/format.h>

namespace dfgc {

BufferDepths buffer_depth(const BufferPlan& plan) {
  BufferDepths depths;
  for (const PlannedBuffer& b : plan.buffers) {
    bool crosses = b.in.has_value() || !b.out.empty();
    depths[ir::Strategy::overlap].push_back(crosses ? 2 : 1);
    depths[ir::Strategy::no_overlap].push_back(1);
  }
  return depths;
}

std::string dump(const BufferDepths& depths, const BufferPlan& plan) {
  std::string out;
  for (ir::Strategy s : ir::kStrategies)
    for (std::size_t b = 0; b < plan.buffers.size(); ++b)
      out += fmt::format("{} {} depth {}\n", ir::to_string(s), plan.buffers[b].name, depths[s][b]);
  return out;
}

}  // namespace dfgc
