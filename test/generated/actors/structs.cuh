// The GPU implementation of test/generated/structs.dfg's Gain: one thread a hit, on the node's
// stream, reading and writing the hits that the CPU's actors declare (structs.hpp).
#pragma once

#include <cstddef>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

#include "structs.hpp"

static __global__ void structs_gain(const Hit* x, Hit* y, std::size_t n) {
  const std::size_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  y[k] = x[k];
  for (float& a : y[k].amp) a *= 2.0f;
}

struct GainGpu {
  void fire(const Hit* x, Hit* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    structs_gain<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(x, y, n);
  }
};
