// Decimate: keeps every other sample of its block.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct Decimate {
  void fire(const float* x, float* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(1);
    for (std::size_t k = 0; k < n; ++k) y[k] = x[2 * k];
  }
};
