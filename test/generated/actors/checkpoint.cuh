// GPU implementations of checkpoint.dfg's running sum (its state in device memory, saved and
// restored through the host) and loop (its delayed tokens in device memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <dfg/context.hpp>
#include <dfg/state.hpp>

static __global__ void kernel_sum(const std::int64_t* x, std::int64_t* y, std::int64_t* sum,
                                  std::size_t n) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) y[k] = sum[k] += x[k];
}

static __global__ void kernel_mix(const std::int64_t* x, const std::int64_t* state,
                                  std::int64_t* y, std::int64_t* next, std::size_t n) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  y[k] = x[k] + state[k];
  next[k] = (3 * state[k] + x[k]) % 1000003;
}

inline void checked(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct SumGpu {
  std::int64_t* sum = nullptr;  // device memory, the running sums
  std::size_t n = 0;
  cudaStream_t stream = nullptr;

  void init(dfg::Context& ctx) {
    n = ctx.elements(0);
    stream = ctx.stream();
    checked(cudaMalloc(&sum, n * sizeof(std::int64_t)), "sum: cudaMalloc");
    checked(cudaMemset(sum, 0, n * sizeof(std::int64_t)), "sum: cudaMemset");
  }
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    kernel_sum<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(x, y, sum, n);
  }
  void save(dfg::State& s) const {
    std::vector<std::int64_t> host(n);
    checked(cudaStreamSynchronize(stream), "sum: save");
    checked(cudaMemcpy(host.data(), sum, n * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
            "sum: save");
    s.write(host.data(), n * sizeof(std::int64_t));
  }
  void restore(const dfg::State& s) {
    std::vector<std::int64_t> host(n);
    s.read(host.data(), n * sizeof(std::int64_t));
    checked(cudaMemcpy(sum, host.data(), n * sizeof(std::int64_t), cudaMemcpyHostToDevice),
            "sum: restore");
  }
  ~SumGpu() { cudaFree(sum); }
};

struct MixGpu {
  void fire(const std::int64_t* x, const std::int64_t* state, std::int64_t* y, std::int64_t* next,
            dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    kernel_mix<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(x, state, y,
                                                                                   next, n);
  }
};
