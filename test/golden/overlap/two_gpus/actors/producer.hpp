// Producer: writes the iteration number into every element of a fresh matrix, so that the
// consumer can tell which iteration each token belongs to.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct Producer {
  void fire(float* m, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    const float value = static_cast<float>(ctx.iteration() % 1000000);
    for (std::size_t i = 0; i < n; ++i) m[i] = value;
  }
};
