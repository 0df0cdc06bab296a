#pragma once

#include <cuda_runtime.h>
#include <dfg/context.hpp>

struct Work {
  void fire(const float* a, float* b, dfg::Context& ctx) {
    cudaMemcpy(b, a, ctx.elements(0) * sizeof(float), cudaMemcpyDeviceToDevice);
  }
};
