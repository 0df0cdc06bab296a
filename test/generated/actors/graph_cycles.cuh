// GPU actors of graph_cycles.dfg: firing counters in device memory, so that a CUDA graph holding
// several cycles replays the same kernels and each firing still sees its own number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

namespace graph_cycles {

inline void checked(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// One block of n threads (n <= 1024): thread k writes element k, thread 0 counts the firing.
static __global__ void count_kernel(std::int64_t* x, std::int64_t* fired, std::size_t n) {
  const std::size_t k = threadIdx.x;
  if (k < n) x[k] = *fired * static_cast<std::int64_t>(n) + static_cast<std::int64_t>(k);
  __syncthreads();
  if (k == 0) ++*fired;
}

static __global__ void twice_kernel(const std::int64_t* x, std::int64_t* y, std::size_t n) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) y[k] = 2 * x[k] + 1;
}

// counts[0]: firings, counts[1]: wrong elements.
static __global__ void expect_kernel(const std::int64_t* y, std::int64_t* counts, std::size_t n) {
  const std::size_t k = threadIdx.x;
  if (k < n) {
    // Twice twice: 2 (2 x + 1) + 1.
    const std::int64_t want = 4 * (counts[0] * static_cast<std::int64_t>(n) +
                                   static_cast<std::int64_t>(k)) + 3;
    if (y[k] != want) atomicAdd(reinterpret_cast<unsigned long long*>(&counts[1]), 1ULL);
  }
  __syncthreads();
  if (k == 0) ++counts[0];
}

// Device memory of `count` zeroed int64 counters.
struct Counters {
  std::int64_t* cells = nullptr;
  void allocate(std::size_t count) {
    checked(cudaMalloc(&cells, count * sizeof(std::int64_t)), "cudaMalloc");
    checked(cudaMemset(cells, 0, count * sizeof(std::int64_t)), "cudaMemset");
  }
  Counters() = default;
  Counters(const Counters&) = delete;
  Counters& operator=(const Counters&) = delete;
  ~Counters() { cudaFree(cells); }
};

inline unsigned threads(std::size_t n) {
  if (n == 0 || n > 1024) throw std::invalid_argument("graph_cycles: a block of 1 to 1024 elements");
  return static_cast<unsigned>(n);
}

}  // namespace graph_cycles

struct Count {
  graph_cycles::Counters fired;
  void init(dfg::Context& ctx) {
    graph_cycles::threads(ctx.elements(0));
    fired.allocate(1);
  }
  void fire(std::int64_t* x, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    graph_cycles::count_kernel<<<1, graph_cycles::threads(n), 0, ctx.stream()>>>(x, fired.cells,
                                                                                 n);
  }
};

struct Twice {
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    graph_cycles::twice_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(
        x, y, n);
  }
};

struct Expect {
  graph_cycles::Counters counts;
  void init(dfg::Context& ctx) {
    graph_cycles::threads(ctx.elements(0));
    counts.allocate(2);
  }
  void fire(const std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    graph_cycles::expect_kernel<<<1, graph_cycles::threads(n), 0, ctx.stream()>>>(y, counts.cells,
                                                                                  n);
  }
  // After a completed run: the firings and the wrong elements, read back; a wrong one fails it.
  void finish() {
    std::int64_t host[2] = {0, 0};
    graph_cycles::checked(cudaDeviceSynchronize(), "graph_cycles: finish");
    graph_cycles::checked(
        cudaMemcpy(host, counts.cells, sizeof(host), cudaMemcpyDeviceToHost), "graph_cycles: finish");
    std::printf("graph_cycles: %lld blocks checked, %lld elements wrong\n",
                static_cast<long long>(host[0]), static_cast<long long>(host[1]));
    std::fflush(stdout);
    if (host[1] != 0) throw std::runtime_error("graph_cycles: wrong elements");
  }
};
