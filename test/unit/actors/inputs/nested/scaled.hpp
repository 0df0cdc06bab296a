// Includes a header of the user's above its directory, a standard one and dfgc's runtime.
#pragma once
#include <dfg/context.hpp>
#include <vector>
#include "../common/scale.hpp"
struct Scaled {
  void fire(const float* a, float* b, dfg::Context& ctx) {
    for (std::size_t i = 0; i < ctx.elements(0); ++i) b[i] = a[i] * kScale;
  }
};
