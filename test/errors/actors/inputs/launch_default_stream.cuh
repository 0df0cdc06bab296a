#pragma once

#include <cuda_runtime.h>
#include <dfg/context.hpp>

__global__ void copy(const float* a, float* b) { b[threadIdx.x] = a[threadIdx.x]; }

struct Work {
  void fire(const float* a, float* b, dfg::Context& ctx) {
    copy<<<1, static_cast<unsigned>(ctx.elements(0))>>>(a, b);
  }
};
