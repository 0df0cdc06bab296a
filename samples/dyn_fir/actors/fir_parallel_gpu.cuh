// The FIR network's actors as parallel actions on a GPU (parallel.dfg): actors/fir_parallel.hpp
// as `__device__` functions, one firing a thread, as many at once as the rings hold.
#pragma once

#include <cstdint>

#include "dfg/detail/ring_span.hpp"

using GpuSamples = dfg::RingSpan<const std::int32_t>;
using GpuSlots = dfg::RingSpan<std::int32_t>;

/// y and next give x: the fork of a tap, whose output edges delay it.
struct ForkParallel {
  __device__ void fire(GpuSamples x, GpuSlots y, GpuSlots next) const {
    y[0] = x[0];
    next[0] = x[0];
  }
};

/// y gives x: the last tap, whose output edge delays it.
struct PassParallel {
  __device__ void fire(GpuSamples x, GpuSlots y) const { y[0] = x[0]; }
};

/// y = coef * x.
struct MulParallel {
  int coef = 1;
  __device__ void fire(GpuSamples x, GpuSlots y) const { y[0] = coef * x[0]; }
};

/// s = a + b.
struct AddParallel {
  __device__ void fire(GpuSamples a, GpuSamples b, GpuSlots s) const { s[0] = a[0] + b[0]; }
};

/// y = x >> shift.
struct ShiftParallel {
  int shift = 0;
  __device__ void fire(GpuSamples x, GpuSlots y) const { y[0] = x[0] >> shift; }
};
