// Iir: y[k] = a * y[k - 1] + x[k] over one block, y[-1] being the state that came back through
// the state edge; the block's last output is the next state.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct Iir {
  float a = 0.5f;
  float y0 = 0.0f;  // the state before the first block, where the state edge asks for it

  // Fills initial token j of the state edge (`delay D = initial_state()`): every one y0.
  void initial_state(std::size_t /*j*/, float* token, std::size_t elements) {
    for (std::size_t k = 0; k < elements; ++k) token[k] = y0;
  }

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
