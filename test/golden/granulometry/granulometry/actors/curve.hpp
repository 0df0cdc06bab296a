// Curve: the granulometric curve of one iteration, the head's counts then the tail's. A real
// application would plot it or take the peak of its derivative (the pattern spectrum).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include <dfg/context.hpp>

struct Curve {
  void fire(const std::int64_t* head, const std::int64_t* tail, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    std::int64_t last = 0;
    std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over the whole curve
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t count = head[k] + tail[k];
      last = count != 0 ? count : last;
      hash = (hash ^ static_cast<std::uint64_t>(count)) * 1099511628211ull;
    }
    if (ctx.iteration() % 100 == 0)
      std::printf("granulometry: iteration %lld, curve %016llx, %lld voxels left after the last opening\n",
                  static_cast<long long>(ctx.iteration()), static_cast<unsigned long long>(hash),
                  static_cast<long long>(last));
  }
};
