// The FIR bank's actors: a source of deterministic samples, a 64-tap FIR filter (one per band,
// its taps chosen by its `band` param) that carries its history from block to block, and a sink
// that checks sampled outputs against a direct evaluation and sums every output into a checksum,
// printed when the run ends. samples/fir_bank/reference.cpp runs the same classes in sequence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/context.hpp>

namespace fir_bank {

inline constexpr int kTaps = 64;
inline constexpr int kBands = 8;

/// Sample t of the input stream (t counts from the first sample of iteration 0): a fixed hash,
/// so that any sample can be recomputed from its index.
inline float input(std::int64_t t) {
  std::uint64_t x = static_cast<std::uint64_t>(t) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<float>(x & 0xFFFF) / 65536.0f - 0.5f;
}

/// Tap k of band b: a windowed cosine at the band's centre frequency.
inline float tap(int band, int k) {
  const double pi = 3.14159265358979323846;
  const double centre = (band + 0.5) / (2.0 * kBands);
  const double window = 0.54 - 0.46 * std::cos(2.0 * pi * k / (kTaps - 1));
  return static_cast<float>(window * std::cos(2.0 * pi * centre * (k - (kTaps - 1) / 2.0)) / kTaps);
}

/// Output t of band b, evaluated directly from the input stream in the filter's order.
inline float output(int band, std::int64_t t) {
  float acc = 0.0f;
  for (int k = 0; k < kTaps; ++k) acc += tap(band, k) * (t - k >= 0 ? input(t - k) : 0.0f);
  return acc;
}

}  // namespace fir_bank

struct Source {
  void fire(float* x, dfg::Context& ctx) {
    const auto n = static_cast<std::int64_t>(ctx.elements(0));
    const std::int64_t first = ctx.iteration() * n;
    for (std::int64_t i = 0; i < n; ++i) x[i] = fir_bank::input(first + i);
  }
};

struct Fir {
  int band = 0;

  void init(dfg::Context& ctx) {
    for (int k = 0; k < fir_bank::kTaps; ++k) h_[k] = fir_bank::tap(band, k);
    // history_[i]: input sample i of the last kTaps - 1 before the block (zeros at the start).
    history_.assign(fir_bank::kTaps - 1 + ctx.elements(0), 0.0f);
  }

  /// y[i] = sum over k of h[k] x[i - k], x running on from the previous block.
  void fire(const float* x, float* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    constexpr std::size_t kHistory = fir_bank::kTaps - 1;
    float* window = history_.data();  // kHistory samples of the past, then the block
    for (std::size_t i = 0; i < n; ++i) window[kHistory + i] = x[i];
    for (std::size_t i = 0; i < n; ++i) {
      float acc = 0.0f;
      for (int k = 0; k < fir_bank::kTaps; ++k) acc += h_[k] * window[kHistory + i - k];
      y[i] = acc;
    }
    for (std::size_t i = 0; i < kHistory; ++i) window[i] = window[n + i];
  }

 private:
  float h_[fir_bank::kTaps] = {};
  std::vector<float> history_;
};

struct Sink {
  /// Checks 16 outputs of each band against fir_bank::output, adds every output to the checksum.
  void fire(const float* y0, const float* y1, const float* y2, const float* y3, const float* y4, const float* y5,
            const float* y6, const float* y7, dfg::Context& ctx) {
    const float* bands[fir_bank::kBands] = {y0, y1, y2, y3, y4, y5, y6, y7};
    const auto n = static_cast<std::int64_t>(ctx.elements(0));
    const std::int64_t first = ctx.iteration() * n;
    for (int b = 0; b < fir_bank::kBands; ++b) {
      for (std::int64_t i = ctx.iteration() % 7; i < n; i += n / 16 + 1) {
        const float want = fir_bank::output(b, first + i);
        if (std::fabs(bands[b][i] - want) > 1e-5f)
          throw std::runtime_error("sink: iteration " + std::to_string(ctx.iteration()) + ", band " +
                                   std::to_string(b) + ", sample " + std::to_string(i) + ": got " +
                                   std::to_string(bands[b][i]) + ", expected " + std::to_string(want));
      }
      double sum = 0;
      for (std::int64_t i = 0; i < n; ++i) sum += bands[b][i];
      checksum_ += sum * static_cast<double>(b + 1);
    }
    ++iterations_;
  }

  void finish() {  // after a run that completed only: never claims a failed run checked
    if (iterations_ > 0) std::printf("fir_bank: %lld iterations, checksum %.17g\n", iterations_, checksum_);
    std::fflush(stdout);
  }

 private:
  double checksum_ = 0;
  long long iterations_ = 0;
};
