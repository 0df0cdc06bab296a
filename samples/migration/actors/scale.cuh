// Scale on a GPU: y = 3 x + 1, one thread an element; `load` repeats the work in the kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void kernel_scale(const std::int64_t* x, std::int64_t* y, std::size_t n, int load) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  std::int64_t v = 3 * x[k] + 1;
  for (int pass = 0; pass < load; ++pass) v = (v * 7 + pass) - (v * 7 + pass) + v;
  y[k] = v;
}

struct ScaleGpu {
  int load = 0;

  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    const unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
    kernel_scale<<<blocks, threads, 0, ctx.stream()>>>(x, y, n, load);
  }
};
