// The actors of samples/receiver: a source of bursts on several channels, FIR filters, an AGC
// and its meter, a mixer, an energy detector, a merge of hit lists and the report that checks
// them against the bursts the source planted.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/bounded.hpp>
#include <dfg/context.hpp>
#include <dfg/state.hpp>

namespace receiver {

constexpr double kPi = 3.14159265358979323846;
constexpr float kThreshold = 0.25f;  // a hit: a channel sample of power over this
constexpr int kBurst = 8;            // iterations a burst lasts; a channel is on one burst in 3

/// Whether channel k is on at source sample n: bursts of kBurst iterations (`per_iteration`
/// source samples each), channel k in the bursts b with (b + k) mod 3 = 0.
inline bool on(int k, std::int64_t n, std::int64_t per_iteration) {
  return (n / (kBurst * per_iteration) + k) % 3 == 0;
}

/// Channel k's centre, in cycles a sample after the front filter: the band split in `channels`.
inline double centre(int k, int channels) { return (k + 0.5) / channels - 0.5; }

}  // namespace receiver

/// Sample n: every channel on at n, a tone at its centre (at the source's rate, `decimation`
/// times the channels' band), all under a slow fading, and a little deterministic noise.
struct Source {
  static constexpr bool dfg_stateless = true;
  int channels = 4;
  int decimation = 2;
  int block = 64;
  void fire(std::complex<float>* x, dfg::Context& ctx) const {
    const std::int64_t n = ctx.iteration() * ctx.firings() + ctx.firing();
    const std::int64_t per_iteration = static_cast<std::int64_t>(decimation) * block;
    std::complex<double> s = 0;
    for (int k = 0; k < channels; ++k)
      if (receiver::on(k, n, per_iteration))
        s += std::polar(1.0, 2 * receiver::kPi * receiver::centre(k, channels) / decimation *
                                 static_cast<double>(n));
    const double fading =
        0.55 + 0.45 * std::sin(2 * receiver::kPi * static_cast<double>(n) / 40000);
    const std::uint32_t h = static_cast<std::uint32_t>(n) * 2654435761u;
    const double noise = 0.01 * (static_cast<double>(h >> 8) / (1 << 24) - 0.5);
    x[0] = std::complex<float>(fading * s + std::complex<double>(noise, -noise));
  }
};

/// A call a firing: x is the window of `taps` samples, oldest first; y their sum weighted by a
/// Hamming-windowed sinc of cut-off `cutoff`, its gain at 0 Hz 1.
struct Lowpass {
  static constexpr bool dfg_stateless = true;
  int rate = 2;
  int taps = 16;
  double cutoff = 0.25;
  std::vector<float> h;
  void init() {
    h.resize(static_cast<std::size_t>(taps));
    double sum = 0;
    for (int t = 0; t < taps; ++t) {
      const double m = t - (taps - 1) / 2.0;
      const double sinc =
          m == 0 ? 2 * cutoff : std::sin(2 * receiver::kPi * cutoff * m) / (receiver::kPi * m);
      const double w = 0.54 - 0.46 * std::cos(2 * receiver::kPi * t / (taps - 1));
      h[static_cast<std::size_t>(t)] = static_cast<float>(sinc * w);
      sum += sinc * w;
    }
    for (float& c : h) c = static_cast<float>(c / sum);
  }
  void fire(const std::complex<float>* x, std::complex<float>* y) const {
    std::complex<float> acc = 0;
    for (std::size_t t = 0; t < h.size(); ++t) acc += h[t] * x[t];
    y[0] = acc;
  }
};

struct Agc {
  static constexpr bool dfg_stateless = true;
  int block = 64;
  void fire(const std::complex<float>* x, const float* g, std::complex<float>* y,
            float* used) const {
    for (int i = 0; i < block; ++i) y[i] = g[0] * x[i];
    used[0] = g[0];
  }
};

/// The gain that would have given the block unit power, approached halfway (in decibels).
struct Meter {
  static constexpr bool dfg_stateless = true;
  int block = 64;
  void fire(const std::complex<float>* y, const float* used, float* next) const {
    double power = 0;
    for (int i = 0; i < block; ++i) power += std::norm(y[i]);
    power /= block;
    next[0] = power > 0 ? static_cast<float>(used[0] / std::pow(power, 0.25)) : used[0];
  }
};

/// x times exp(-2 pi j c n), c the channel's centre, n the sample's number.
struct Mixer {
  static constexpr bool dfg_stateless = true;
  int channel = 0;
  int channels = 4;
  int block = 64;
  void fire(const std::complex<float>* x, std::complex<float>* y, dfg::Context& ctx) const {
    const double c = receiver::centre(channel, channels);
    for (int i = 0; i < block; ++i) {
      const std::int64_t n = ctx.iteration() * block + i;
      const double phase = -2 * receiver::kPi * std::fmod(c * static_cast<double>(n), 1.0);
      y[i] = x[i] * std::complex<float>(std::polar(1.0, phase));
    }
  }
};

struct Detect {
  static constexpr bool dfg_stateless = true;
  int channel = 0;
  int samples = 16;
  void fire(const std::complex<float>* x, dfg::Bounded<std::int32_t> h) const {
    std::size_t n = 0;
    for (int i = 0; i < samples; ++i)
      if (std::norm(x[i]) > receiver::kThreshold) ++n;
    h.resize(n);
    n = 0;
    for (int i = 0; i < samples; ++i)
      if (std::norm(x[i]) > receiver::kThreshold) h[n++] = channel * samples + i;
  }
};

struct Merge {
  static constexpr bool dfg_stateless = true;
  void fire(dfg::Bounded<const std::int32_t> a, dfg::Bounded<const std::int32_t> b,
            dfg::Bounded<std::int32_t> y) const {
    y.resize(a.size() + b.size());
    std::size_t n = 0;
    for (std::int32_t v : a) y[n++] = v;
    for (std::int32_t v : b) y[n++] = v;
  }
};

/// A line an iteration: `iteration I: k:hits ...` for each channel heard. Away from a burst's
/// edges (the filters' and the AGC's transients), a channel on in the iteration before, this one
/// and the next must be heard in more than half its samples, and one off in all three not at all;
/// the first 4 iterations are the AGC's. finish() says how many iterations were checked.
struct Report {
  int channels = 4;
  int samples = 16;
  int decimation = 2;
  int block = 64;
  std::int64_t checked = 0;
  std::int64_t heard = 0;  // channel-iterations heard

  void fire(dfg::Bounded<const std::int32_t> h, dfg::Context& ctx) {
    const std::int64_t i = ctx.iteration();
    std::vector<int> hits(static_cast<std::size_t>(channels), 0);
    for (std::int32_t v : h) {
      const int k = v / samples;
      if (k < 0 || k >= channels || v % samples < 0)
        throw std::runtime_error("iteration " + std::to_string(i) + ": hit " + std::to_string(v) +
                                 " of no channel");
      ++hits[static_cast<std::size_t>(k)];
    }
    std::string line = "iteration " + std::to_string(i) + ":";
    const std::int64_t per_iteration = static_cast<std::int64_t>(decimation) * block;
    for (int k = 0; k < channels; ++k) {
      const int n = hits[static_cast<std::size_t>(k)];
      if (n > 0) line += " " + std::to_string(k) + ":" + std::to_string(n);
      heard += n > 0;
      int planted = 0;  // of iterations i - 1, i, i + 1
      for (std::int64_t j = i - 1; j <= i + 1; ++j)
        planted += receiver::on(k, std::max<std::int64_t>(j, 0) * per_iteration, per_iteration);
      if (i < 4 || planted == 1 || planted == 2) continue;
      if (planted == 3 && 2 * n <= samples)
        throw std::runtime_error("iteration " + std::to_string(i) + ": channel " +
                                 std::to_string(k) + " is on, but heard in " + std::to_string(n) +
                                 " of " + std::to_string(samples) + " samples");
      if (planted == 0 && n > 0)
        throw std::runtime_error("iteration " + std::to_string(i) + ": channel " +
                                 std::to_string(k) + " is off, but heard in " + std::to_string(n) +
                                 " samples");
    }
    std::printf("%s\n", line.c_str());
    ++checked;
  }
  void finish() const {
    std::printf(
        "receiver: %lld iterations, %lld channel-iterations heard, every burst as planted\n",
        static_cast<long long>(checked), static_cast<long long>(heard));
  }
  void save(dfg::State& s) const {
    s.write(&checked, sizeof checked);
    s.write(&heard, sizeof heard);
  }
  void restore(const dfg::State& s) {
    s.read(&checked, sizeof checked);
    s.read(&heard, sizeof heard);
  }
};
