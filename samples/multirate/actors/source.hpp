// Source: sample t of the stream is ((t * 5) mod 11) - 5; one call fills a block of frames, the
// samples of iteration i starting at i times the block's length.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

inline float multirate_sample(std::int64_t t) { return static_cast<float>((t * 5) % 11 - 5); }

struct Source {
  void fire(float* x, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    const std::int64_t first = ctx.iteration() * static_cast<std::int64_t>(n);
    for (std::size_t k = 0; k < n; ++k) x[k] = multirate_sample(first + static_cast<std::int64_t>(k));
  }
};
