// Sink: checks every element against the source's formula, adds the tokens up and prints the
// total when the program ends (the actor is destroyed after the last cycle).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

#include "step.hpp"

struct Sink {
  int scale = 0;

  void init(dfg::Context&) { std::printf("sink: scale %d, step %d\n", scale, kStep); }

  void fire(const std::int32_t* v, dfg::Context& ctx) {
    const auto expected = static_cast<std::int32_t>(scale * (ctx.iteration() + kStep));
    for (std::size_t i = 0; i < ctx.elements(0); ++i) {
      if (v[i] != expected)
        throw std::runtime_error("sink: iteration " + std::to_string(ctx.iteration()) + ": got " +
                                 std::to_string(v[i]) + ", expected " + std::to_string(expected));
      total_ += v[i];
    }
    ++tokens_;
  }

  ~Sink() { std::printf("sink: %lld tokens, total %lld\n", tokens_, total_); }

 private:
  long long tokens_ = 0;
  long long total_ = 0;
};
