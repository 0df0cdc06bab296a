// LowPass: one call a cycle (`block`). x is the window of the cycle's first firing: 60 samples of
// history, then the cycle's 4 q samples; firing k's 64 samples start at x + 4k.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

#include "taps.hpp"

struct LowPass {
  static constexpr bool dfg_stateless = true;
  void fire(const float* x, float* y, dfg::Context& ctx) const {
    for (std::size_t k = 0; k < ctx.firings(); ++k) {
      float sum = 0.0f;
      for (int t = 0; t < kDecimateTaps; ++t) sum += decimate_tap(t) * x[4 * k + static_cast<std::size_t>(t)];
      y[k] = sum / 1024.0f;
    }
  }
};
