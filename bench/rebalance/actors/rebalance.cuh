// Work on a GPU (bench/rebalance/rebalance.dfg): one thread an element, the same hash.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

#include "rebalance.hpp"

static __global__ void rebalance_work(const std::int64_t* x, std::int64_t* y, std::size_t n,
                                      std::int64_t rounds) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n) y[t] = rebalance_bench::hash(x[t], rounds);
}

struct WorkGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements("x");
    const unsigned threads = 128;
    const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
    rebalance_work<<<blocks, threads, 0, ctx.stream()>>>(x, y, n, ctx.runtime_param("ROUNDS"));
  }
};
