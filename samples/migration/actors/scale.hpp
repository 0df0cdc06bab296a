// Scale on a CPU: y = 3 x + 1. No state: a migration moves it as a fresh instance.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

struct Scale {
  int load = 0;

  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) y[k] = 3 * x[k] + 1;
    // Extra work that changes no output: `load` passes over the block.
    volatile std::int64_t sink = 0;
    for (int pass = 0; pass < load; ++pass)
      for (std::size_t k = 0; k < n; ++k) sink = sink + y[k];
  }
};
