// Block j of the input signal: N samples of a fixed pseudo-random sequence.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/context.hpp"
#include "signal.hpp"

struct Source {
  void fire(std::int32_t* out, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t i = 0; i < n; ++i) out[i] = fir::sample(ctx.iteration() * static_cast<std::int64_t>(n) + static_cast<std::int64_t>(i));
  }
};
