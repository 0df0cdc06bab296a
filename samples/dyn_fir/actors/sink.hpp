// Compares every sample of block j with the sequential FIR (signal.hpp); prints a count and a
// checksum at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "dfg/context.hpp"
#include "signal.hpp"

struct Sink {
  int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  int shift = 0;
  std::int64_t checked = 0;
  std::int64_t sum = 0;

  void fire(const std::int32_t* in, dfg::Context& ctx) {
    const int c[4] = {c0, c1, c2, c3};
    const std::size_t n = ctx.elements(0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t t = ctx.iteration() * static_cast<std::int64_t>(n) + static_cast<std::int64_t>(i);
      const std::int32_t want = fir::reference(t, c, shift);
      if (in[i] != want)
        throw std::runtime_error("iteration " + std::to_string(ctx.iteration()) + ", sample " + std::to_string(i) +
                                 ": " + std::to_string(in[i]) + ", expected " + std::to_string(want));
      sum += in[i];
    }
    ++checked;
  }

  void finish() {  // after a run that completed only: never claims a failed run checked
    if (checked > 0) std::printf("fir checked: %lld blocks, sum %lld\n", static_cast<long long>(checked), static_cast<long long>(sum));
  }
};
