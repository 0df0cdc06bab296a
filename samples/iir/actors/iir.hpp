// Iir: y[k] = a * y[k - 1] + x[k] over one block, y[-1] being the state that came back through
// the state edge; the block's last output is the next state.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct Iir {
  float a = 0.5f;

  void fire(const float* x, const float* state, float* y, float* next, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    float previous = state[0];
    for (std::size_t k = 0; k < n; ++k) {
      previous = a * previous + x[k];
      y[k] = previous;
    }
    next[0] = previous;
  }
};
