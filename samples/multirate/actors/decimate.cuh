// Decimate on a GPU: keeps every other sample of its block, one thread a sample.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void kernel_decimate(const float* x, float* y, std::size_t n) {
  const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (k < n) y[k] = x[2 * k];
}

struct DecimateGpu {
  void fire(const float* x, float* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(1);
    kernel_decimate<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(x, y, n);
  }
};
