// The GPU stage of the peers chain: one kernel a cycle, a thread per element, adding 1. It is a
// `block` implementation: a cycle of a batched app (`batch B`) hands it B tokens, one launch for
// them all. The ports are mappable (each thread reads one element and writes one, once a
// firing), so a token between the CPU and the GPU stays in mapped host memory.
#pragma once

#include <cstdint>

#include <dfg/context.hpp>

#include <cstddef>

__global__ void chain_stage_kernel(const std::int64_t* a, std::int64_t* b, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = a[i] + 1;
}

struct ChainStageGpu {
  void fire(const std::int64_t* a, std::int64_t* b, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);  // the cycle's tokens: 8 elements each
    constexpr unsigned kThreads = 256;
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    const unsigned threads = n < kThreads ? static_cast<unsigned>(n) : kThreads;
    chain_stage_kernel<<<blocks, threads, 0, ctx.stream()>>>(a, b, n);
  }
};
