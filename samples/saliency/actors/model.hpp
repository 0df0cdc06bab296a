// The static pathway of the visual saliency model (PACCO journal paper, section 5.3; Marat et al.):
// the constants every implementation shares, the frames of the synthetic camera, a small FFT for
// the CPU, and the reference of the whole pipeline in double precision that the GPU and CPU
// programs are checked against.
//
// The pipeline, on a W x H grey image:
//   1. Hanning window, 2. 2-D FFT, 3. a bank of 6 orientations x 4 frequencies of Gabor filters
//   in the frequency domain (24 maps), 4. inverse FFT of each map, 5. interactions between maps at
//   each pixel (the same orientation at neighbouring frequencies excites, other orientations at the
//   same frequency inhibit), 6. normalisations: each map to [0, 1], Itti's weight
//   (max - mean)^2 with values under a threshold suppressed, the sum of the 24 maps, and that sum
//   to [0, 1]: the saliency map.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#if defined(__CUDACC__) || defined(__CUDA__)
#define SALIENCY_HD __host__ __device__
#else
#define SALIENCY_HD
#endif

namespace saliency {

inline constexpr int kOrientations = 6;
inline constexpr int kFrequencies = 4;
inline constexpr int kMaps = kOrientations * kFrequencies;  // map m: orientation m / 4, frequency m % 4
inline constexpr float kSigmaRatio = 0.35f;  // sigma_j = kSigmaRatio * f_j
inline constexpr float kExcite = 0.5f;       // weight of the same orientation at f_(j-1) and f_(j+1)
inline constexpr float kInhibit = 0.5f;      // weight of the mean of the other orientations at f_j
inline constexpr float kThreshold = 0.2f;    // Itti: normalised values under it are suppressed
inline constexpr int kStats = 4;             // per map in the Stats token: min, max, sum, unused

/// The centre frequency f_j of band j, in cycles per pixel: 0.25, 0.125, 0.0625, 0.03125.
SALIENCY_HD inline float centre(int j) { return 0.25f / static_cast<float>(1 << j); }

/// A bin index as a signed frequency index: 0, 1, ..., then the negative ones.
SALIENCY_HD inline int signed_bin(int k, int n) { return 2 * k < n ? k : k - n; }

/// The Gabor filter of map m at the frequency (u, v) in cycles per pixel, given cos and sin of
/// its orientation: exp(-((u' - f)^2 + v'^2) / (2 sigma^2)), u' = u cos + v sin, v' = v cos - u sin.
template <class T>
SALIENCY_HD inline T gabor(T u, T v, T cos_theta, T sin_theta, T f) {
  const T up = u * cos_theta + v * sin_theta - f;
  const T vp = v * cos_theta - u * sin_theta;
  const T sigma = static_cast<T>(kSigmaRatio) * f;
  return std::exp(-(up * up + vp * vp) / (2 * sigma * sigma));
}

/// The Hanning weight of pixel x of n.
inline double hanning(int x, int n) {
  return n > 1 ? 0.5 - 0.5 * std::cos(2.0 * 3.14159265358979323846 * x / (n - 1)) : 1.0;
}

/// Frame t of the synthetic camera, W x H grey levels: a texture of two oriented gratings and
/// noise, and four moving shapes (a bright disc, a dark square, a striped bar, a grating patch).
/// A pure function of (W, H, t): the camera and the reference draw the same frames.
inline void render_frame(int w, int h, std::int64_t t, std::uint8_t* out) {
  const double pi = 3.14159265358979323846;
  const double tt = static_cast<double>(t % 1000);
  const double s = std::min(w, h) / 576.0;  // shapes scale with the image
  const double disc_x = std::fmod(40 * s + 3.0 * tt, w), disc_y = h * 0.3 + 40 * s * std::sin(tt * 0.05);
  const double sq_x = w * 0.7 - std::fmod(2.0 * tt, w * 0.5), sq_y = std::fmod(h * 0.2 + 1.5 * tt, h);
  const double bar_angle = tt * 0.02, bar_x = w * 0.5, bar_y = h * 0.65;
  const double patch_x = w * 0.2 + 30 * s * std::cos(tt * 0.03), patch_y = h * 0.75;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint32_t hash = static_cast<std::uint32_t>(x) * 73856093u ^ static_cast<std::uint32_t>(y) * 19349663u;
      hash = (hash ^ (hash >> 13)) * 0x5bd1e995u;
      double v = 110 + 25 * std::sin(0.21 * x + 0.13 * y) * std::cos(0.07 * x - 0.17 * y) +
                 12 * std::sin(0.9 * x) + static_cast<double>(hash >> 28) - 8;
      const double dx = x - disc_x, dy = y - disc_y;
      if (dx * dx + dy * dy < 900 * s * s) v = 230;
      if (std::abs(x - sq_x) < 25 * s && std::abs(y - sq_y) < 25 * s) v = 20;
      const double bx = (x - bar_x) * std::cos(bar_angle) + (y - bar_y) * std::sin(bar_angle);
      const double by = (y - bar_y) * std::cos(bar_angle) - (x - bar_x) * std::sin(bar_angle);
      if (std::abs(bx) < 70 * s && std::abs(by) < 8 * s) v = 128 + 100 * std::sin(bx * 0.6);
      const double px = x - patch_x, py = y - patch_y;
      if (px * px + py * py < 1600 * s * s) v = 128 + 90 * std::sin(2 * pi * 0.2 * (px + py) / std::sqrt(2.0));
      out[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0));
    }
}

/// A mixed-radix FFT of any length (recursive on the smallest prime factor; O(n^2) for a prime),
/// for the CPU actors and the reference. Unnormalised in both directions.
template <class T>
class Fft {
 public:
  explicit Fft(std::size_t n) : n_(n), forward_(n), inverse_(n), in_(n), out_(n), sub_(n) {
    for (std::size_t k = 0; k < n; ++k) {
      const double a = -2.0 * 3.14159265358979323846 * static_cast<double>(k) / static_cast<double>(n);
      forward_[k] = std::complex<T>(static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a)));
      inverse_[k] = std::conj(forward_[k]);
    }
  }
  /// Transforms n values at data[0], data[stride], ... in place.
  void run(std::complex<T>* data, std::size_t stride, bool inverse) {
    for (std::size_t i = 0; i < n_; ++i) in_[i] = data[i * stride];
    step(in_.data(), 1, out_.data(), n_, inverse ? inverse_.data() : forward_.data());
    for (std::size_t i = 0; i < n_; ++i) data[i * stride] = out_[i];
  }

 private:
  // out[0..n) = the DFT of in[0], in[s], ..., in[(n - 1) s]; n divides n_; roots[k] = w_(n_)^k.
  void step(const std::complex<T>* in, std::size_t s, std::complex<T>* out, std::size_t n,
            const std::complex<T>* roots) {
    if (n == 1) {
      out[0] = in[0];
      return;
    }
    std::size_t p = 2;
    while (n % p != 0 && p * p <= n) ++p;
    if (n % p != 0) p = n;
    const std::size_t m = n / p, unit = n_ / n;  // roots[unit] = w_n
    for (std::size_t r = 0; r < p; ++r) step(in + r * s, s * p, out + r * m, m, roots);
    std::complex<T>* sub = sub_.data();
    for (std::size_t k = 0; k < m; ++k) {
      for (std::size_t r = 0; r < p; ++r) sub[r] = out[r * m + k] * roots[unit * r * k];
      if (p == 2) {
        out[k] = sub[0] + sub[1];
        out[m + k] = sub[0] - sub[1];
        continue;
      }
      for (std::size_t q = 0; q < p; ++q) {
        std::complex<T> acc = sub[0];
        for (std::size_t r = 1; r < p; ++r) acc += sub[r] * roots[(n_ / p) * ((r * q) % p)];
        out[q * m + k] = acc;
      }
    }
  }
  std::size_t n_;
  std::vector<std::complex<T>> forward_, inverse_, in_, out_, sub_;
};

/// The 2-D FFT of an h x w row-major array, in place.
template <class T>
void fft2d(std::complex<T>* data, int w, int h, bool inverse) {
  Fft<T> rows(static_cast<std::size_t>(w)), cols(static_cast<std::size_t>(h));
  for (int y = 0; y < h; ++y) rows.run(data + static_cast<std::size_t>(y) * w, 1, inverse);
  for (int x = 0; x < w; ++x) cols.run(data + x, static_cast<std::size_t>(w), inverse);
}

/// The whole pipeline on one frame, in double precision, written as plainly as the model reads
/// (full complex spectra, one map after the other): the saliency map, h x w values in [0, 1].
inline std::vector<double> reference(const std::uint8_t* frame, int w, int h) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<std::complex<double>> spectrum(n);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      spectrum[static_cast<std::size_t>(y) * w + x] = frame[static_cast<std::size_t>(y) * w + x] / 255.0 * hanning(x, w) * hanning(y, h);
  fft2d(spectrum.data(), w, h, false);
  std::vector<std::vector<double>> energy(kMaps, std::vector<double>(n));
  std::vector<std::complex<double>> map(n);
  for (int m = 0; m < kMaps; ++m) {
    const double theta = 3.14159265358979323846 * (m / kFrequencies) / kOrientations;
    const double f = centre(m % kFrequencies);
    for (int ky = 0; ky < h; ++ky)
      for (int kx = 0; kx < w; ++kx) {
        const double u = static_cast<double>(signed_bin(kx, w)) / w, v = static_cast<double>(signed_bin(ky, h)) / h;
        const std::size_t i = static_cast<std::size_t>(ky) * w + kx;
        map[i] = spectrum[i] * gabor(u, v, std::cos(theta), std::sin(theta), f) / static_cast<double>(n);
      }
    fft2d(map.data(), w, h, true);
    for (std::size_t i = 0; i < n; ++i) energy[m][i] = std::abs(map[i]);
  }
  // Interactions, then the statistics of each map.
  std::vector<std::vector<double>> r(kMaps, std::vector<double>(n));
  for (int m = 0; m < kMaps; ++m) {
    const int o = m / kFrequencies, j = m % kFrequencies;
    for (std::size_t i = 0; i < n; ++i) {
      double v = energy[m][i];
      if (j > 0) v += kExcite * energy[m - 1][i];
      if (j + 1 < kFrequencies) v += kExcite * energy[m + 1][i];
      double others = 0;
      for (int o2 = 0; o2 < kOrientations; ++o2)
        if (o2 != o) others += energy[o2 * kFrequencies + j][i];
      r[m][i] = std::max(0.0, v - kInhibit * others / (kOrientations - 1));
    }
  }
  std::vector<double> sum(n, 0.0);
  for (int m = 0; m < kMaps; ++m) {
    const auto [lo, hi] = std::minmax_element(r[m].begin(), r[m].end());
    const double low = *lo, range = *hi - *lo;
    std::vector<double> normal(n, 0.0);
    double mean = 0;
    for (std::size_t i = 0; i < n; ++i) {
      normal[i] = range > 0 ? (r[m][i] - low) / range : 0.0;
      mean += normal[i];
    }
    mean /= static_cast<double>(n);
    const double weight = (1.0 - mean) * (1.0 - mean);  // (max - mean)^2, the max being 1
    for (std::size_t i = 0; i < n; ++i) sum[i] += normal[i] < kThreshold ? 0.0 : normal[i] * weight;
  }
  const auto [lo, hi] = std::minmax_element(sum.begin(), sum.end());
  const double low = *lo, range = *hi - *lo;
  for (double& v : sum) v = range > 0 ? (v - low) / range : 0.0;
  return sum;
}

/// How a computed saliency map compares with the reference. The tolerance: every value within
/// 2e-3 of the reference except at most 0.1% of the pixels (a value next to the threshold may
/// fall on the other side of it in single precision), none further than 0.1, and a mean absolute
/// difference under 1e-4.
struct Comparison {
  double max_abs = 0, mean_abs = 0;
  std::size_t over = 0;  // pixels further than 2e-3
  std::size_t pixels = 0;
  bool ok() const { return max_abs <= 0.1 && mean_abs <= 1e-4 && over * 1000 <= pixels; }
  std::string text() const {
    char line[200];
    std::snprintf(line, sizeof line, "max |diff| %.2e, mean |diff| %.2e, %zu of %zu pixels off by more than 2e-3",
                  max_abs, mean_abs, over, pixels);
    return line;
  }
};

inline Comparison compare(const float* got, const std::vector<double>& want) {
  Comparison c;
  c.pixels = want.size();
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double d = std::abs(static_cast<double>(got[i]) - want[i]);
    if (!(d <= 1.0)) {  // NaN included
      c.max_abs = 1e30;
      ++c.over;
      continue;
    }
    c.max_abs = std::max(c.max_abs, d);
    c.mean_abs += d;
    if (d > 2e-3) ++c.over;
  }
  c.mean_abs /= static_cast<double>(std::max<std::size_t>(1, c.pixels));
  return c;
}

}  // namespace saliency
