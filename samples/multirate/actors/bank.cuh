// Bank on a GPU: low = (x[k] + x[k - 1]) / 2 and high = (x[k] - x[k - 1]) / 2, one thread a
// sample; x[-1] is the last sample of the previous call, kept in device memory (0 at first).
#pragma once

#include <cstddef>
#include <stdexcept>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void kernel_bank(const float* x, const float* previous, float* low, float* high, std::size_t n) {
  const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (k >= n) return;
  const float before = k == 0 ? previous[0] : x[k - 1];
  low[k] = 0.5f * (x[k] + before);
  high[k] = 0.5f * (x[k] - before);
}

static __global__ void kernel_bank_keep(const float* x, float* previous, std::size_t n) { previous[0] = x[n - 1]; }

struct BankGpu {
  void init(dfg::Context&) {
    if (cudaMalloc(&previous_, sizeof(float)) != cudaSuccess || cudaMemset(previous_, 0, sizeof(float)) != cudaSuccess)
      throw std::runtime_error("bank: cannot allocate its state on the GPU");
  }
  void fire(const float* x, float* low, float* high, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    kernel_bank<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(x, previous_, low, high, n);
    kernel_bank_keep<<<1, 1, 0, ctx.stream()>>>(x, previous_, n);  // after the bank, on the same stream
  }
  ~BankGpu() { cudaFree(previous_); }

 private:
  float* previous_ = nullptr;
};
