// The GPU stage of the peers chain: one kernel of one block, a thread per element, adding 1. The
// ports are mappable (each thread reads one element and writes one, once a firing), so a token
// between the CPU and the GPU stays in mapped host memory.
#pragma once

#include <cstdint>

#include <dfg/context.hpp>

__global__ void chain_stage_kernel(const std::int64_t* a, std::int64_t* b) {
  b[threadIdx.x] = a[threadIdx.x] + 1;
}

struct ChainStageGpu {
  void fire(const std::int64_t* a, std::int64_t* b, dfg::Context& ctx) {
    chain_stage_kernel<<<1, 8, 0, ctx.stream()>>>(a, b);
  }
};
