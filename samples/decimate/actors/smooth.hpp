// Smooth: one call a cycle (`block`). y holds 2 samples of history, then the cycle's q samples.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct Smooth {
  static constexpr bool dfg_stateless = true;
  void fire(const float* y, float* z, dfg::Context& ctx) const {
    for (std::size_t k = 0; k < ctx.firings(); ++k) z[k] = (y[k] + 2.0f * y[k + 1] + y[k + 2]) / 4.0f;
  }
};
