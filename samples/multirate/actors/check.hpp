// Check: the sequential reference. Sample by sample it decimates the source's stream, runs the
// bank, interpolates and sums, and compares every sample of every block exactly. A mismatch
// throws, naming the iteration and the sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

#include "source.hpp"

struct Check {
  void fire(const float* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    // Two firings an iteration, made by this one call: a block of two frames an iteration (of
    // 2 K frames where the app runs `batch K`).
    if (ctx.firings() % 2 != 0)
      throw std::runtime_error("check: " + std::to_string(ctx.firings()) +
                               " firings a call, expected a multiple of 2");
    for (std::size_t k = 0; k < n; k += 2) {
      // Output samples t and t + 1 come from decimated sample t / 2, source sample t.
      const float x = multirate_sample(next_);
      const float expected = 0.5f * (x + previous_) + 0.5f * (x - previous_);
      previous_ = x;
      next_ += 2;
      for (std::size_t j = k; j < k + 2 && j < n; ++j)
        if (y[j] != expected)
          throw std::runtime_error("check: iteration " + std::to_string(ctx.iteration()) + ", sample " +
                                   std::to_string(j) + ": got " + std::to_string(y[j]) + ", expected " +
                                   std::to_string(expected));
    }
  }

 private:
  std::int64_t next_ = 0;  // the source sample the next pair of outputs comes from
  float previous_ = 0.0f;
};
