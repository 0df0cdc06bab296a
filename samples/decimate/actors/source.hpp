// Source: a chirp of integers, x[i] = (i^2 / 64) mod 201 - 100, N samples a cycle.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

inline float decimate_sample(std::int64_t i) {
  return static_cast<float>((i * i / 64) % 201 - 100);
}

struct Source {
  static constexpr bool dfg_stateless = true;
  void fire(float* x, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements("x");
    const std::int64_t first = ctx.iteration() * static_cast<std::int64_t>(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = decimate_sample(first + static_cast<std::int64_t>(i));
  }
};
