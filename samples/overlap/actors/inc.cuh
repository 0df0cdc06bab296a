// Inc on a GPU: the kernel of figure 13 of the paper. Each thread sums the series
// sum_{i=2}^{nb_loop+2} 1/i^2 (the computational load), rounds it to 1 and adds it to its element.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void kernel_matrix_inc(const float* in, float* out, std::size_t n, int nb_loop) {
  std::size_t index = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= n) return;
  float one = 0.0f;
  for (int i = 2; i < nb_loop + 3; i++) one += (1.0f / i) * (1.0f / i);
  one = static_cast<float>(static_cast<int>(one + 0.5f));
  out[index] = in[index] + one;
}

struct Inc {
  int nb_loop = 100;

  void fire(const float* a, float* b, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    const unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
    kernel_matrix_inc<<<blocks, threads, 0, ctx.stream()>>>(a, b, n, nb_loop);
  }
};
