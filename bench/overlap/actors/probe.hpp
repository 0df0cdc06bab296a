// Probe: the benchmark's consumer. Checks the elements Stamp wrote (one in every kProbeStride,
// and the last) against the iteration number plus `increments`: a lost, duplicated, reordered or
// stale token fails the run, while the CPU time stays negligible next to the transfers.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

#include "stamp.hpp"

struct Probe {
  int increments = 1;

  void fire(const float* m, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    const float expected = static_cast<float>(ctx.iteration() % 1000000 + increments);
    for (std::size_t i = 0; i < n; i += kProbeStride) check(m, i, expected, ctx);
    check(m, n - 1, expected, ctx);
  }

 private:
  static void check(const float* m, std::size_t i, float expected, const dfg::Context& ctx) {
    if (m[i] != expected)
      throw std::runtime_error("probe: iteration " + std::to_string(ctx.iteration()) +
                               ", element " + std::to_string(i) + ": got " + std::to_string(m[i]) +
                               ", expected " + std::to_string(expected));
  }
};
