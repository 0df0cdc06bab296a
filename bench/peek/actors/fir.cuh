// The FIR of bench/peek/fir.dfg on a GPU, one thread an output: through a window, and with its
// own history in device memory (a second kernel keeps the block's last 63 samples, as
// samples/multirate's BankGpu keeps its one).
#pragma once

#include <cstddef>
#include <stdexcept>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

namespace peek_bench_gpu {

constexpr int kTaps = 64;

__device__ inline float dot(const float* x) {
  float sum = 0.0f;
  for (int i = 0; i < kTaps; ++i) sum += (1.0f / static_cast<float>(i + 1)) * x[i];
  return sum;
}

static __global__ void fir_window(const float* x, float* y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = dot(x + i);
}

static __global__ void fir_own(const float* x, const float* history, float* y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  constexpr std::size_t h = kTaps - 1;
  if (i >= h) {
    y[i] = dot(x + i - h);
    return;
  }
  float w[kTaps];
  for (std::size_t t = 0; t < kTaps; ++t) w[t] = i + t < h ? history[i + t] : x[i + t - h];
  y[i] = dot(w);
}

static __global__ void fir_keep(const float* x, float* history, std::size_t n) {
  const std::size_t t = threadIdx.x;
  if (t < kTaps - 1) history[t] = x[n - (kTaps - 1) + t];
}

}  // namespace peek_bench_gpu

struct FirWindowGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const float* x, float* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements("y");
    peek_bench_gpu::fir_window<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(
        x, y, n);
  }
};

struct FirOwnGpu {
  static constexpr bool dfg_stateless = true;
  void init(dfg::Context&) {
    if (cudaMalloc(&history_, (peek_bench_gpu::kTaps - 1) * sizeof(float)) != cudaSuccess ||
        cudaMemset(history_, 0, (peek_bench_gpu::kTaps - 1) * sizeof(float)) != cudaSuccess)
      throw std::runtime_error("fir: cannot allocate its history on the GPU");
  }
  void fire(const float* x, float* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements("y");
    peek_bench_gpu::fir_own<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(
        x, history_, y, n);
    peek_bench_gpu::fir_keep<<<1, 64, 0, ctx.stream()>>>(x, history_, n);
  }
  ~FirOwnGpu() { cudaFree(history_); }

 private:
  float* history_ = nullptr;
};
