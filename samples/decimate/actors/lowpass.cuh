// LowPass on a GPU: one thread an output, reading its 64 samples of the window.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

#include "taps.hpp"

static __global__ void decimate_lowpass(const float* x, float* y, std::size_t n) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float sum = 0.0f;
  for (int t = 0; t < kDecimateTaps; ++t) sum += decimate_tap(t) * x[4 * k + static_cast<std::size_t>(t)];
  y[k] = sum / 1024.0f;
}

struct LowPassGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const float* x, float* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.firings();
    decimate_lowpass<<<static_cast<unsigned>((n + 127) / 128), 128, 0, ctx.stream()>>>(x, y, n);
  }
};
