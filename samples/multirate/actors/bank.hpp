// Bank: a 2-band filter bank, low = (x[k] + x[k - 1]) / 2 and high = (x[k] - x[k - 1]) / 2, the
// previous sample carried from one call to the next (x[-1] = 0).
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct Bank {
  void fire(const float* x, float* low, float* high, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) {
      low[k] = 0.5f * (x[k] + previous_);
      high[k] = 0.5f * (x[k] - previous_);
      previous_ = x[k];
    }
  }

 private:
  float previous_ = 0.0f;
};
