// Sum on a GPU: the two bands added back, one thread a sample; one launch a call (a frame a
// firing, or the whole block where the implementation is declared block).
#pragma once

#include <cstddef>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void kernel_sum(const float* a, const float* b, float* y, std::size_t n) {
  const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (k < n) y[k] = a[k] + b[k];
}

struct SumGpu {
  void fire(const float* a, const float* b, float* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(2);
    kernel_sum<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(a, b, y, n);
  }
};
