// Source: every element of token i is scale * (i + kStep).
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

#include "step.hpp"

struct Source {
  int scale = 0;

  void fire(std::int32_t* v, dfg::Context& ctx) {
    const auto value = static_cast<std::int32_t>(scale * (ctx.iteration() + kStep));
    for (std::size_t i = 0; i < ctx.elements(0); ++i) v[i] = value;
  }
};
