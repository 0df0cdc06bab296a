// Source: sample t of the stream is ((t * 5) mod 11) - 5; one call fills one frame, firing k of
// iteration i (of q a cycle) the frame i * q + k.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

inline float multirate_sample(std::int64_t t) { return static_cast<float>((t * 5) % 11 - 5); }

struct Source {
  void fire(float* x, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    const std::int64_t frame = ctx.iteration() * ctx.firings() + ctx.firing();
    const std::int64_t first = frame * static_cast<std::int64_t>(n);
    for (std::size_t k = 0; k < n; ++k) x[k] = multirate_sample(first + static_cast<std::int64_t>(k));
  }
};
