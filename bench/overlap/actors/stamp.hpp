// Stamp: the benchmark's producer. As in the paper's overlap experiment (section 5.1: "we have
// chosen not to make any processing in the P and C nodes"), it does almost no work: it writes the
// iteration number into one element in every kProbeStride, so that the consumer can still tell
// which iteration a token belongs to, without the CPU time of filling 16 MiB hiding the transfers.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

inline constexpr std::size_t kProbeStride = 4096;

struct Stamp {
  void fire(float* m, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    const float value = static_cast<float>(ctx.iteration() % 1000000);
    for (std::size_t i = 0; i < n; i += kProbeStride) m[i] = value;
    m[n - 1] = value;
  }
};
