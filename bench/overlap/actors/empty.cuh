// Empty GPU actors, for the runtime's own cost per cycle (runtime_cost.py): the firings of
// EmptyGpuSource, EmptyGpu and EmptyGpuSink launch nothing, EmptyKernel's launches one kernel that
// does nothing (one block of one thread), so that a cycle's period is the runtime's work around
// them, with and without a launch.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

struct EmptyGpuSource {
  void fire([[maybe_unused]] std::int32_t* m, [[maybe_unused]] dfg::Context& ctx) const {}
};

struct EmptyGpuSink {
  void fire([[maybe_unused]] const std::int32_t* m, [[maybe_unused]] dfg::Context& ctx) const {}
};

struct EmptyGpu {
  void fire([[maybe_unused]] const std::int32_t* a, [[maybe_unused]] std::int32_t* b,
            [[maybe_unused]] dfg::Context& ctx) const {}
};

static __global__ void empty_kernel() {}

struct EmptyKernel {
  void fire([[maybe_unused]] const std::int32_t* a, [[maybe_unused]] std::int32_t* b,
            dfg::Context& ctx) const {
    empty_kernel<<<1, 1, 0, ctx.stream()>>>();
  }
};
