// The actors of samples/streamit/fmradio: StreamIt's FMRadio filters, in its order of operations.
// Each filter's sum is a double, stored as a float when pushed; the coefficients are computed in
// double from float parameters and the equalizer's cut-offs in float, as FMRadio.str declares
// them. samples/streamit/README.md says how close that comes to StreamIt's reference.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <dfg/context.hpp>
#include <dfg/port_group.hpp>
#include <dfg/state.hpp>

namespace fmradio {

inline constexpr double kPi = 3.141592653589793;
inline constexpr float kSamplingRate = 250000000.0f;  // 250 MHz
inline constexpr float kCutoff = 108000000.0f;        // the radio's low-pass filter
inline constexpr float kMaxAmplitude = 27000.0f;
inline constexpr float kBandwidth = 10000.0f;
inline constexpr float kLow = 55.0f, kHigh = 1760.0f;  // the equalizer's first and last cut-offs

/// The equalizer's cut-off `i` of `bands + 1`, spaced exponentially from kLow to kHigh.
inline float cutoff(int i, int bands) {
  const float step = static_cast<float>(i) * (std::log(kHigh) - std::log(kLow)) /
                     static_cast<float>(bands);
  return std::exp(step + std::log(kLow));
}

/// Band b's gain (StreamIt's eqGain[b + 1]): the middle bands amplified the most.
inline float gain(int b, int bands) {
  const double val =
      (static_cast<float>(b) - static_cast<float>(bands - 1) / 2.0) / 5.0;
  return static_cast<float>(val > 0 ? 2.0 - val : 2.0 + val);
}

}  // namespace fmradio

struct Source {
  float next = 0.0f;
  void fire(float* x) {
    x[0] = next;
    next += 1.0f;
  }
  void save(dfg::State& s) const { s.write(&next, sizeof next); }
  void restore(const dfg::State& s) { s.read(&next, sizeof next); }
};

/// StreamIt's LowPassFilter: y = sum over i < taps of x[i] c[i], x oldest first, then the
/// window moves by decimation + 1 samples.
struct LowPass {
  static constexpr bool dfg_stateless = true;  // the window is the history
  int cut = -1;
  int bands = 10;
  int taps = 64;
  int decimation = 0;
  std::vector<float> c;
  void init() {
    const float freq = cut < 0 ? fmradio::kCutoff : fmradio::cutoff(cut, bands);
    const float m = static_cast<float>(taps - 1);
    const double w = 2 * fmradio::kPi * freq / fmradio::kSamplingRate;
    c.resize(static_cast<std::size_t>(taps));
    for (int i = 0; i < taps; ++i) {
      const double d = i - static_cast<double>(m) / 2;
      c[static_cast<std::size_t>(i)] =
          d == 0 ? static_cast<float>(w / fmradio::kPi)
                 : static_cast<float>(std::sin(w * d) / fmradio::kPi / d *
                                      (0.54 - 0.46 * std::cos(2 * fmradio::kPi * i / m)));
    }
  }
  void fire(const float* x, float* y) const {
    double sum = 0.0;
    for (int i = 0; i < taps; ++i)
      sum += static_cast<double>(x[i]) * c[static_cast<std::size_t>(i)];
    y[0] = static_cast<float>(sum);
  }
};

struct Demodulate {
  static constexpr bool dfg_stateless = true;
  float gain = 0.0f;
  void init() {
    gain = static_cast<float>(
        static_cast<double>(fmradio::kMaxAmplitude) *
        (fmradio::kSamplingRate / (static_cast<double>(fmradio::kBandwidth) * fmradio::kPi)));
  }
  void fire(const float* x, float* y) const {
    const float t = static_cast<float>(static_cast<double>(x[0]) * x[1]);
    y[0] = static_cast<float>(gain * std::atan(static_cast<double>(t)));
  }
};

struct Subtract {
  static constexpr bool dfg_stateless = true;
  void fire(const float* low, const float* high, float* y) const { y[0] = high[0] - low[0]; }
};

struct Amplify {
  static constexpr bool dfg_stateless = true;
  int band = 0;
  int bands = 10;
  float k = 0.0f;
  void init() { k = fmradio::gain(band, bands); }
  void fire(const float* x, float* y) const { y[0] = x[0] * k; }
};

/// The bands' outputs added in order, in double, stored as a float.
struct Sum {
  static constexpr bool dfg_stateless = true;
  int bands = 10;
  void fire(dfg::Ports<const float> x, float* y) const {
    double sum = 0.0;
    for (std::size_t b = 0; b < x.size(); ++b) sum += x[b][0];
    y[0] = static_cast<float>(sum);
  }
};

/// Prints each sample past the warm-up (ctx.warming_up(): the firings whose inputs hold values
/// from before the stream) as StreamIt's println(float) did; with the runtime param PRINT = 0,
/// counts them and sums their bits instead, and prints that once at the end.
struct Print {
  bool print = true;
  unsigned long long samples = 0, checksum = 0;
  void init(dfg::Context& ctx) { print = ctx.runtime_param("PRINT") != 0; }
  void fire(const float* x, dfg::Context& ctx) {
    if (ctx.warming_up()) return;
    if (print) {
      std::printf("%f\n", static_cast<double>(x[0]));
      return;
    }
    std::uint32_t bits = 0;
    std::memcpy(&bits, x, sizeof bits);
    checksum = checksum * 31 + bits;
    ++samples;
  }
  void finish() {
    if (!print) std::printf("fmradio: %llu samples, checksum %016llx\n", samples, checksum);
  }
  void save(dfg::State& s) const {
    s.write(&samples, sizeof samples);
    s.write(&checksum, sizeof checksum);
  }
  void restore(const dfg::State& s) {
    s.read(&samples, sizeof samples);
    s.read(&checksum, sizeof checksum);
  }
};
