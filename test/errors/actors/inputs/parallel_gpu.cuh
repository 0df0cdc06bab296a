// GPU dynamic actors with a parallel action, with mistakes (test/errors/actors/parallel_*.dfg).
#pragma once

#include <cstdint>

#include "dfg/cuda/gpu_ports.hpp"

// A step but no fire.
struct ParallelNoFire {
  __device__ bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y) { return false; }
};

// A fire the block's threads cannot call.
struct ParallelHost {
  void fire(dfg::RingSpan<const std::int32_t> x, dfg::RingSpan<std::int32_t> y) const {}
};

// A fire that may write the actor's state.
struct ParallelNotConst {
  int fired = 0;
  __device__ void fire(dfg::RingSpan<const std::int32_t> x, dfg::RingSpan<std::int32_t> y) {}
};

// A fire that returns whether it fired, as a step does.
struct ParallelReturns {
  __device__ bool fire(dfg::RingSpan<const std::int32_t> x, dfg::RingSpan<std::int32_t> y) const {
    return true;
  }
};

// The rings' views instead of one firing's spans, and an input that could be written.
struct ParallelViews {
  __device__ void fire(dfg::GpuIn<std::int32_t> x, dfg::RingSpan<std::int32_t> y) const {}
};
struct ParallelMutableInput {
  __device__ void fire(dfg::RingSpan<std::int32_t> x, dfg::RingSpan<std::int32_t> y) const {}
};

// No span for the output.
struct ParallelMissingPort {
  __device__ void fire(dfg::RingSpan<const std::int32_t> x) const {}
};

// A good one (test/errors/sema/parallel_*.dfg).
struct ParallelGood {
  __device__ void fire(dfg::RingSpan<const std::int32_t> x, dfg::RingSpan<std::int32_t> y) const {
    for (unsigned i = 0; i < y.size(); ++i) y[i] = x[i];
  }
};
