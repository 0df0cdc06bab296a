// A conforming GPU actor (ports `in a`, `out b`, both uint32) whose kernel calls the device
// intrinsics that CUDA's headers declare (bit counts, warp votes and shuffles, atomics, fences)
// and which includes standard headers that reach <new>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

__global__ void bits_kernel(const std::uint32_t* in, std::uint32_t* out,
                            unsigned long long* total) {
  __shared__ unsigned long long block_total;
  const std::uint32_t v = in[threadIdx.x];
  const std::uint32_t votes = __ballot_sync(0xffffffffu, v != 0) | __activemask();
  std::uint32_t mixed = __shfl_sync(0xffffffffu, v, 0) ^ __shfl_down_sync(0xffffffffu, v, 1) ^
                        __shfl_up_sync(0xffffffffu, v, 1) ^ __shfl_xor_sync(0xffffffffu, v, 2);
  mixed += static_cast<std::uint32_t>(__popc(v) + __popcll(votes) + __clz(static_cast<int>(v)) +
                                      __ffs(static_cast<int>(v))) +
           __brev(v) + __funnelshift_l(v, mixed, 3);
  if (__any_sync(0xffffffffu, mixed != 0) && __all_sync(0xffffffffu, true)) __syncwarp();
  atomicAdd(&block_total, static_cast<unsigned long long>(mixed));
  atomicMax(out, std::max(mixed, __ldg(in)));
  atomicCAS(out + 1, 0u, mixed);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, block_total);
  out[threadIdx.x] = static_cast<std::uint32_t>(clock64());
}

struct Intrinsics {
  unsigned long long* total = nullptr;

  void init(dfg::Context&) {
    cudaMalloc(&total, sizeof(unsigned long long));
    cudaFuncSetAttribute(reinterpret_cast<const void*>(&bits_kernel),
                         cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  }

  void fire(const std::uint32_t* a, std::uint32_t* b, dfg::Context& ctx) {
    bits_kernel<<<1, 32, 0, ctx.stream()>>>(a, b, total);
  }
};
