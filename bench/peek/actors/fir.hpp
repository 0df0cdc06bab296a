// The actors of bench/peek/fir.dfg on a CPU: a source, the FIR through a window and with its own
// history, and a sink that sums what it gets.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

#include <dfg/context.hpp>

namespace peek_bench {

constexpr std::size_t kTaps = 64;

/// taps[t] = 1 / (t + 1).
inline const float* taps() {
  static const std::vector<float> t = [] {
    std::vector<float> v(kTaps);
    for (std::size_t i = 0; i < kTaps; ++i) v[i] = 1.0f / static_cast<float>(i + 1);
    return v;
  }();
  return t.data();
}

/// One output from the 64 samples at `x`, oldest first.
inline float dot(const float* x) {
  const float* t = taps();
  float sum = 0.0f;
  for (std::size_t i = 0; i < kTaps; ++i) sum += t[i] * x[i];
  return sum;
}

}  // namespace peek_bench

struct Source {
  static constexpr bool dfg_stateless = true;
  void fire(float* x, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements("x");
    const auto base = static_cast<std::size_t>(ctx.iteration()) * n;
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>((base + i) % 1000) * 0.001f;
  }
};

/// x: the window, 63 samples of history (zeros at first) then the block.
struct FirWindow {
  static constexpr bool dfg_stateless = true;
  void fire(const float* x, float* y, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements("y");
    for (std::size_t i = 0; i < n; ++i) y[i] = peek_bench::dot(x + i);
  }
};

/// Its own 63 samples of history: the first 63 outputs from a scratch of the history and the
/// block's first 63 samples, the others from the block; then the block's last 63 samples kept.
struct FirOwn {
  static constexpr bool dfg_stateless = true;  // its history is the stream's, not moved
  static constexpr std::size_t kHistory = peek_bench::kTaps - 1;
  float history[kHistory] = {};
  float edge[2 * kHistory] = {};

  void fire(const float* x, float* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements("y");
    std::memcpy(edge, history, sizeof(history));
    std::memcpy(edge + kHistory, x, kHistory * sizeof(float));
    for (std::size_t i = 0; i < kHistory; ++i) y[i] = peek_bench::dot(edge + i);
    for (std::size_t i = kHistory; i < n; ++i) y[i] = peek_bench::dot(x + i - kHistory);
    std::memcpy(history, x + n - kHistory, sizeof(history));
  }
};

struct Sink {
  double sum = 0.0;
  void fire(const float* y, dfg::Context& ctx) {
    for (std::size_t i = 0; i < ctx.elements("y"); ++i) sum += y[i];
  }
  void finish() { std::printf("checksum: %.17g\n", sum); }
};
