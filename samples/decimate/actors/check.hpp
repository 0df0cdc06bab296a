// Check: the sequential reference, written as an actor keeps its own history. Sample by sample it
// makes the source's stream, filters and decimates it, smooths it, and compares every sample of
// every block exactly; finish() (a run that completed) says how many it checked. A mismatch
// throws, naming the iteration and the sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

#include "source.hpp"
#include "taps.hpp"

struct Check {
  void fire(const float* z, dfg::Context& ctx) {
    for (std::size_t j = 0; j < ctx.elements("z"); ++j) {
      // Four source samples into the filter's line, one filtered sample into the smoother's.
      for (int i = 0; i < 4; ++i) {
        for (int t = 0; t + 1 < kDecimateTaps; ++t) line_[t] = line_[t + 1];
        line_[kDecimateTaps - 1] = decimate_sample(next_++);
      }
      float sum = 0.0f;
      for (int t = 0; t < kDecimateTaps; ++t) sum += decimate_tap(t) * line_[t];
      const float y = sum / 1024.0f;
      const float expected = (y2_ + 2.0f * y1_ + y) / 4.0f;
      y2_ = y1_;
      y1_ = y;
      if (z[j] != expected)
        throw std::runtime_error("check: iteration " + std::to_string(ctx.iteration()) + ", sample " +
                                 std::to_string(j) + ": got " + std::to_string(z[j]) + ", expected " +
                                 std::to_string(expected));
    }
    checked_ += static_cast<std::int64_t>(ctx.elements("z"));
  }
  void finish() { std::printf("decimate: %lld samples checked, all equal\n", static_cast<long long>(checked_)); }

 private:
  std::int64_t next_ = 0;            // the next source sample
  float line_[kDecimateTaps] = {};   // the last 64 source samples, zeros before the stream
  float y1_ = 0.0f, y2_ = 0.0f;      // the last two filtered samples
  std::int64_t checked_ = 0;
};
