// Source: block j holds 31 j + k in element k.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

struct Source {
  void fire(std::int64_t* x, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) x[k] = 31 * ctx.iteration() + static_cast<std::int64_t>(k);
  }
};
