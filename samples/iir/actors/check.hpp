// Check: the sequential reference. It runs the same filter over the same samples, block after
// block, with a ring of `feedback` states (block i starts from the state block i - feedback left,
// the first `feedback` blocks from `initial`), and compares every sample of every block exactly.
// A mismatch throws, naming the iteration and the sample.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/context.hpp>

#include "signal.hpp"

struct Check {
  float a = 0.5f;
  int feedback = 1;
  float initial = 0.0f;

  void fire(const float* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    if (ring_.empty()) ring_.assign(static_cast<std::size_t>(feedback), initial);
    float& state = ring_[static_cast<std::size_t>(ctx.iteration() % feedback)];
    float previous = state;
    for (std::size_t k = 0; k < n; ++k) {
      previous = a * previous + iir_sample(ctx.iteration(), n, k);
      if (y[k] != previous)
        throw std::runtime_error("check: iteration " + std::to_string(ctx.iteration()) + ", sample " +
                                 std::to_string(k) + ": got " + std::to_string(y[k]) + ", expected " +
                                 std::to_string(previous));
    }
    state = previous;
  }

 private:
  std::vector<float> ring_;
};
