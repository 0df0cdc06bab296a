// Iir on a GPU: the recurrence is sequential, so one thread runs it; the same operations in the
// same order as the CPU implementation.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void kernel_iir(const float* x, const float* state, float* y, float* next,
                                  std::size_t n, float a) {
  float previous = state[0];
  for (std::size_t k = 0; k < n; ++k) {
    previous = a * previous + x[k];
    y[k] = previous;
  }
  next[0] = previous;
}

struct IirGpu {
  float a = 0.5f;
  float y0 = 0.0f;  // the state before the first block, where the state edge asks for it

  // Fills initial token j of the state edge (`delay D = initial_state()`) in host memory; the
  // generated program copies it to the GPU.
  void initial_state(std::size_t /*j*/, float* token, std::size_t elements) {
    for (std::size_t k = 0; k < elements; ++k) token[k] = y0;
  }

  void fire(const float* x, const float* state, float* y, float* next, dfg::Context& ctx) const {
    kernel_iir<<<1, 1, 0, ctx.stream()>>>(x, state, y, next, ctx.elements(0), a);
  }
};
