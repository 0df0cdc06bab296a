// An image's geometry and the pixel arithmetic shared by the CPU actors and the GPU kernels:
// where each component's blocks go, libjpeg's fancy upsampling and its YCbCr to RGB conversion.
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__CUDA__)  // nvcc, or clang in CUDA mode
#define JPEG_HD __host__ __device__
#else
#define JPEG_HD
#endif

namespace jpeg {

/// The geometry of a frame record's payload [width, height, components, (H, V) each, ...].
struct Layout {
  int width = 0, height = 0, components = 0, hmax = 1, vmax = 1;
  int h[3] = {1, 1, 1}, v[3] = {1, 1, 1};
  int stride[3] = {}, rows[3] = {};  // the blocks' extent of each component
  int cw[3] = {}, ch[3] = {};        // its samples that belong to the image

  Layout() = default;
  /// `frame` points at the record's payload. Components beyond 3 are not read.
  JPEG_HD explicit Layout(const std::int32_t* frame) {
    width = frame[0];
    height = frame[1];
    components = frame[2] < 3 ? frame[2] : 3;
    for (int c = 0; c < components; ++c) {
      h[c] = frame[3 + 2 * c];
      v[c] = frame[4 + 2 * c];
      hmax = h[c] > hmax ? h[c] : hmax;
      vmax = v[c] > vmax ? v[c] : vmax;
    }
    const int mx = (width + 8 * hmax - 1) / (8 * hmax), my = (height + 8 * vmax - 1) / (8 * vmax);
    for (int c = 0; c < components; ++c) {
      stride[c] = mx * h[c] * 8;
      rows[c] = my * v[c] * 8;
      cw[c] = (width * h[c] + hmax - 1) / hmax;
      ch[c] = (height * v[c] + vmax - 1) / vmax;
    }
  }

  /// Whether the upsampling below handles component c: 1:1, h2v1 or h2v2.
  JPEG_HD bool supported(int c) const {
    return (h[c] == hmax || 2 * h[c] == hmax) && (v[c] == vmax || 2 * v[c] == vmax) &&
           !(h[c] == hmax && v[c] != vmax);
  }
};

/// Sample (x, y) of component c upsampled to the image, from its plane s (Layout::stride wide):
/// libjpeg's h2v1 and h2v2 fancy upsampling (3:1 blends of the nearest samples, the edge rows and
/// columns repeated), or a copy at 1:1.
JPEG_HD inline int upsampled(const Layout& l, int c, const std::uint8_t* s, int x, int y) {
  auto at = [&](int col, int row) { return int{s[row * l.stride[c] + col]}; };
  if (l.h[c] == l.hmax && l.v[c] == l.vmax) return at(x, y);
  const int j = x / 2, last = l.cw[c] - 1;
  if (l.v[c] == l.vmax) {  // h2v1
    const int here = at(j, y);
    if (x % 2 == 0) return j == 0 ? here : (3 * here + at(j - 1, y) + 1) >> 2;
    return j == last ? here : (3 * here + at(j + 1, y) + 2) >> 2;
  }
  // h2v2: column sums of the nearest row (3) and the next nearest (1), then 3:1 across columns.
  const int i = y / 2;
  int other = y % 2 == 0 ? i - 1 : i + 1;
  other = other < 0 ? 0 : (other > l.ch[c] - 1 ? l.ch[c] - 1 : other);
  auto colsum = [&](int col) { return 3 * at(col, i) + at(col, other); };
  const int here = colsum(j);
  if (x % 2 == 0) return j == 0 ? (4 * here + 8) >> 4 : (3 * here + colsum(j - 1) + 8) >> 4;
  return j == last ? (4 * here + 7) >> 4 : (3 * here + colsum(j + 1) + 7) >> 4;
}

/// libjpeg's YCbCr to RGB: the products of its 16-bit fixed-point tables, each channel clamped.
JPEG_HD inline void ycc_rgb(int y, int cb, int cr, std::uint8_t* rgb) {
  constexpr std::int64_t half = std::int64_t{1} << 15;
  constexpr std::int64_t cr_r = 91881, cb_b = 116130, cr_g = 46802,
                         cb_g = 22554;  // round(x * 2^16)
  const std::int64_t b = cb - 128, r = cr - 128;
  const std::int64_t out[3] = {y + ((cr_r * r + half) >> 16),
                               y + ((-cb_g * b + half - cr_g * r) >> 16),
                               y + ((cb_b * b + half) >> 16)};
  for (int k = 0; k < 3; ++k)
    rgb[k] = static_cast<std::uint8_t>(out[k] < 0 ? 0 : (out[k] > 255 ? 255 : out[k]));
}

}  // namespace jpeg
