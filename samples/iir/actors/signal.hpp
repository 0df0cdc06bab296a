// Signal: block i holds samples x[k] = ((i * N + k) mod 7) - 3, small integers the checker can
// make again from the iteration number.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

inline float iir_sample(std::int64_t block, std::size_t n, std::size_t k) {
  return static_cast<float>((block * static_cast<std::int64_t>(n) + static_cast<std::int64_t>(k)) % 7 - 3);
}

struct Signal {
  void fire(float* x, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) x[k] = iir_sample(ctx.iteration(), n, k);
  }
};
