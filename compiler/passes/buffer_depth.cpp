#include "passes/buffer_depth.hpp"

#include <fmt/format.h>

namespace dfgc {

BufferDepths buffer_depth(const BufferPlan& plan) {
  BufferDepths depths;
  for (const PlannedBuffer& b : plan.buffers) {
    bool crosses = b.in.has_value() || !b.out.empty();
    // A cpu writes it while another cpu of the host reads the previous cycle's token.
    bool shared_output = b.shared && !b.in;
    depths[ir::Strategy::overlap].push_back(crosses || shared_output ? 2 : 1);
    depths[ir::Strategy::no_overlap].push_back(shared_output ? 2 : 1);
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
