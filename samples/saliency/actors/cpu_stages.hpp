// The steps of the static pathway on a CPU, in single precision, with the token layouts of the
// GPU actors (gpu_stages.cuh), so that any step may run on either: the CPU-only mapping uses
// these. Tokens: Spectrum is the half spectrum of the real windowed image (h rows of w / 2 + 1
// complex values, interleaved re, im: cuFFT's R2C layout); Maps the 24 complex maps after the
// inverse FFT (map-major, h x w each); Energy the 24 real maps after the interactions; Stats the
// min, max and sum of each of them; Saliency the final map in [0, 1].
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/context.hpp>

#include "model.hpp"

namespace saliency {

/// W and H of the run, checked against the elements of the port `pixels_port` (W * H of them,
/// or `per_pixel` times as many).
struct Shape {
  int w = 0, h = 0;
  std::size_t pixels() const { return static_cast<std::size_t>(w) * static_cast<std::size_t>(h); }
  std::size_t half() const { return static_cast<std::size_t>(h) * static_cast<std::size_t>(w / 2 + 1); }

  static Shape of(const dfg::Context& ctx, const char* actor, std::size_t port, std::size_t per_pixel) {
    Shape s{static_cast<int>(ctx.runtime_param("W")), static_cast<int>(ctx.runtime_param("H"))};
    if (ctx.elements(port) != per_pixel * s.pixels())
      throw std::invalid_argument(std::string(actor) + ": port " + std::to_string(port) + " holds " +
                                  std::to_string(ctx.elements(port)) + " values, not " + std::to_string(per_pixel) +
                                  " * W * H");
    return s;
  }
};

}  // namespace saliency

/// Hanning window and forward FFT: frame -> half spectrum.
struct RetinaCpu {
  // Scratch that init() sets up: nothing carries from one firing to the next, so the node
  // may run replicas (`@ {A.c1, A.c2}`).
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;
  std::vector<std::complex<float>> image_;

  void init(dfg::Context& ctx) {
    shape_ = saliency::Shape::of(ctx, "RetinaCpu", 0, 1);
    image_.resize(shape_.pixels());
  }

  void fire(const std::uint8_t* frame, float* spectrum, dfg::Context&) {
    const int w = shape_.w, h = shape_.h;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = static_cast<std::size_t>(y) * w + x;
        image_[i] = static_cast<float>(frame[i] / 255.0 * saliency::hanning(x, w) * saliency::hanning(y, h));
      }
    saliency::fft2d(image_.data(), w, h, false);
    const int half = w / 2 + 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < half; ++x) {
        const std::complex<float> v = image_[static_cast<std::size_t>(y) * w + x];
        spectrum[2 * (static_cast<std::size_t>(y) * half + x)] = v.real();
        spectrum[2 * (static_cast<std::size_t>(y) * half + x) + 1] = v.imag();
      }
  }
};

/// The 24 Gabor filters applied to the spectrum, and the inverse FFT of each map.
struct GaborBankCpu {
  // Scratch that init() sets up: nothing carries from one firing to the next, so the node
  // may run replicas (`@ {A.c1, A.c2}`).
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;

  void init(dfg::Context& ctx) { shape_ = saliency::Shape::of(ctx, "GaborBankCpu", 1, 2 * saliency::kMaps); }

  void fire(const float* spectrum, float* maps, dfg::Context&) {
    const int w = shape_.w, h = shape_.h, half = w / 2 + 1;
    const float scale = 1.0f / static_cast<float>(shape_.pixels());
    auto* out = reinterpret_cast<std::complex<float>*>(maps);
    for (int m = 0; m < saliency::kMaps; ++m) {
      const float theta = 3.14159265f * static_cast<float>(m / saliency::kFrequencies) / saliency::kOrientations;
      const float c = std::cos(theta), s = std::sin(theta), f = saliency::centre(m % saliency::kFrequencies);
      std::complex<float>* map = out + static_cast<std::size_t>(m) * shape_.pixels();
      for (int ky = 0; ky < h; ++ky)
        for (int kx = 0; kx < w; ++kx) {
          // The spectrum of a real image: the half the FFT keeps, or the conjugate of its mirror.
          const bool kept = kx < half;
          const std::size_t at = kept ? static_cast<std::size_t>(ky) * half + kx
                                      : static_cast<std::size_t>((h - ky) % h) * half + (w - kx);
          const std::complex<float> x(spectrum[2 * at], kept ? spectrum[2 * at + 1] : -spectrum[2 * at + 1]);
          const float u = static_cast<float>(saliency::signed_bin(kx, w)) / static_cast<float>(w);
          const float v = static_cast<float>(saliency::signed_bin(ky, h)) / static_cast<float>(h);
          map[static_cast<std::size_t>(ky) * w + kx] = x * (saliency::gabor(u, v, c, s, f) * scale);
        }
      saliency::fft2d(map, w, h, true);
    }
  }
};

/// The interactions between the 24 maps at each pixel, and the min, max and sum of each result.
struct InteractionsCpu {
  // Scratch that init() sets up: nothing carries from one firing to the next, so the node
  // may run replicas (`@ {A.c1, A.c2}`).
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;

  void init(dfg::Context& ctx) { shape_ = saliency::Shape::of(ctx, "InteractionsCpu", 1, saliency::kMaps); }

  void fire(const float* maps, float* energy, float* stats, dfg::Context&) {
    using saliency::kFrequencies, saliency::kMaps, saliency::kOrientations;
    const std::size_t n = shape_.pixels();
    std::vector<float> low(kMaps, 1e30f), high(kMaps, -1e30f);
    std::vector<double> sum(kMaps, 0.0);
    float e[kMaps];
    for (std::size_t i = 0; i < n; ++i) {
      for (int m = 0; m < kMaps; ++m)
        e[m] = std::hypot(maps[2 * (m * n + i)], maps[2 * (m * n + i) + 1]);
      for (int m = 0; m < kMaps; ++m) {
        const int o = m / kFrequencies, j = m % kFrequencies;
        float v = e[m];
        if (j > 0) v += saliency::kExcite * e[m - 1];
        if (j + 1 < kFrequencies) v += saliency::kExcite * e[m + 1];
        float others = 0;
        for (int o2 = 0; o2 < kOrientations; ++o2)
          if (o2 != o) others += e[o2 * kFrequencies + j];
        v = std::max(0.0f, v - saliency::kInhibit * others / (kOrientations - 1));
        energy[m * n + i] = v;
        low[m] = std::min(low[m], v);
        high[m] = std::max(high[m], v);
        sum[m] += v;
      }
    }
    for (int m = 0; m < kMaps; ++m) {
      stats[saliency::kStats * m] = low[m];
      stats[saliency::kStats * m + 1] = high[m];
      stats[saliency::kStats * m + 2] = static_cast<float>(sum[m]);
      stats[saliency::kStats * m + 3] = 0;
    }
  }
};

/// Each map to [0, 1], Itti's weight with the threshold, the sum of the maps, the sum to [0, 1].
struct NormalizationsCpu {
  // Scratch that init() sets up: nothing carries from one firing to the next, so the node
  // may run replicas (`@ {A.c1, A.c2}`).
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;
  std::vector<float> sum_;

  void init(dfg::Context& ctx) {
    shape_ = saliency::Shape::of(ctx, "NormalizationsCpu", 2, 1);
    sum_.resize(shape_.pixels());
  }

  void fire(const float* energy, const float* stats, float* saliency, dfg::Context&) {
    const std::size_t n = shape_.pixels();
    std::fill(sum_.begin(), sum_.end(), 0.0f);
    for (int m = 0; m < saliency::kMaps; ++m) {
      const float low = stats[saliency::kStats * m], range = stats[saliency::kStats * m + 1] - low;
      const float scale = range > 0 ? 1.0f / range : 0.0f;
      const float mean = (stats[saliency::kStats * m + 2] / static_cast<float>(n) - low) * scale;
      const float weight = (1.0f - mean) * (1.0f - mean);
      for (std::size_t i = 0; i < n; ++i) {
        const float v = (energy[m * n + i] - low) * scale;
        sum_[i] += v < saliency::kThreshold ? 0.0f : v * weight;
      }
    }
    const auto [lo, hi] = std::minmax_element(sum_.begin(), sum_.end());
    const float low = *lo, scale = *hi > *lo ? 1.0f / (*hi - *lo) : 0.0f;
    for (std::size_t i = 0; i < n; ++i) saliency[i] = (sum_[i] - low) * scale;
  }
};
