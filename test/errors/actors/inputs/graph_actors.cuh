// GPU actors for graph_decisions.dfg: what makes dfgc relaunch a GPU's cycles as CUDA graphs.
#pragma once
#include <cstdint>
#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void add_kernel(const float* a, float* b, std::int64_t k) { b[threadIdx.x] = a[threadIdx.x] + static_cast<float>(k); }

struct Same {  // const, never reads ctx.iteration(): the same work every cycle
  void fire(const float* a, float* b, dfg::Context& ctx) const { add_kernel<<<1, 32, 0, ctx.stream()>>>(a, b, 1); }
};
struct Looped {  // const, but its state input reads the initial tokens first: no graph
  void fire(const float* a, const float* state, float* b, float* next, dfg::Context& ctx) const {
    add_kernel<<<1, 32, 0, ctx.stream()>>>(a, b, 1);
    add_kernel<<<1, 32, 0, ctx.stream()>>>(state, next, 1);
  }
};
struct ByIteration {  // the iteration as a kernel argument: a graph would freeze it
  void fire(const float* a, float* b, dfg::Context& ctx) const {
    add_kernel<<<1, 32, 0, ctx.stream()>>>(a, b, ctx.iteration());
  }
};
struct Counting {  // counts its firings in a member: not const
  std::int64_t fired = 0;
  void fire(const float* a, float* b, dfg::Context& ctx) { add_kernel<<<1, 32, 0, ctx.stream()>>>(a, b, fired++); }
};
struct Solving {  // const, but cuSOLVER reads its results back to the host
  void fire(const float* a, float* b, dfg::Context& ctx) const { add_kernel<<<1, 32, 0, ctx.stream()>>>(a, b, 0); }
};
