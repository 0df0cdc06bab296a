// Upsampling and colour conversion: gathers an image's blocks of samples into planes, and at the
// end of the image upsamples the chroma planes and converts YCbCr to RGB as libjpeg does by
// default ("fancy" triangle upsampling, h2v1 and h2v2; its fixed-point YCbCr tables), then gives
// the image: width and height (16 bits each, little-endian), the RGB pixels, zeros up to
// `image_bytes`. It takes no record while an image is going out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dfg/ports.hpp"
#include "records.hpp"

namespace jpeg {

struct Plane {
  int h = 1, v = 1;           // sampling factors
  int stride = 0, rows = 0;   // the blocks' extent
  int width = 0, height = 0;  // the component's samples that belong to the image
  std::vector<std::uint8_t> s;
  int at(int x, int y) const { return s[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + static_cast<std::size_t>(x)]; }
};

/// Sample (x, y) of a component upsampled to the image: libjpeg's h2v1 and h2v2 fancy upsampling
/// (3:1 blends of the nearest samples, the edge rows and columns repeated), or a copy at 1:1.
inline int upsampled(const Plane& p, int hmax, int vmax, int x, int y) {
  if (p.h == hmax && p.v == vmax) return p.at(x, y);
  if (hmax != 2 * p.h || (vmax != p.v && vmax != 2 * p.v)) corrupt("sampling other than 1:1, 2:1 and 2:1 x 2:1");
  const int j = x / 2;
  if (vmax == p.v) {  // h2v1
    const int c = p.at(j, y);
    if (x % 2 == 0) return j == 0 ? c : (3 * c + p.at(j - 1, y) + 1) >> 2;
    return j == p.width - 1 ? c : (3 * c + p.at(j + 1, y) + 2) >> 2;
  }
  // h2v2: column sums of the nearest row (3) and the next nearest (1), then 3:1 across columns.
  const int i = y / 2;
  const int other = std::clamp(y % 2 == 0 ? i - 1 : i + 1, 0, p.height - 1);
  auto colsum = [&](int col) { return 3 * p.at(col, i) + p.at(col, other); };
  const int here = colsum(j);
  if (x % 2 == 0) return j == 0 ? (4 * here + 8) >> 4 : (3 * here + colsum(j - 1) + 8) >> 4;
  return j == p.width - 1 ? (4 * here + 7) >> 4 : (3 * here + colsum(j + 1) + 7) >> 4;
}

/// libjpeg's YCbCr to RGB: 16-bit fixed-point tables, each channel clamped to 0..255.
struct YccTables {
  int cr_r[256], cb_b[256];
  std::int64_t cr_g[256], cb_g[256];
  YccTables() {
    constexpr int bits = 16;
    constexpr std::int64_t half = std::int64_t{1} << (bits - 1);
    auto fix = [](double x) { return static_cast<std::int64_t>(x * (1 << bits) + 0.5); };
    for (int i = 0; i < 256; ++i) {
      const std::int64_t x = i - 128;
      cr_r[i] = static_cast<int>((fix(1.40200) * x + half) >> bits);
      cb_b[i] = static_cast<int>((fix(1.77200) * x + half) >> bits);
      cr_g[i] = -fix(0.71414) * x;
      cb_g[i] = -fix(0.34414) * x + half;
    }
  }
};

}  // namespace jpeg

struct Colour {
  int image_bytes = 0;

  jpeg::YccTables ycc;
  int width = 0, height = 0, hmax = 1, vmax = 1;
  std::vector<jpeg::Plane> planes;
  std::vector<std::uint8_t> image;  // going out
  std::size_t sent = 0;
  std::vector<std::int32_t> rec;

  bool step(dfg::In<std::int32_t> samples, dfg::Out<std::uint8_t> rgb) {
    bool fired = false;
    for (;;) {
      if (sent < image.size()) {
        auto slots = rgb.reserve(image.size() - sent);
        if (slots.size() == 0) break;
        for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = image[sent + i];
        rgb.commit(slots.size());
        sent += slots.size();
      } else {
        if (!jpeg::read_record(samples, rec)) break;
        if (rec[0] == jpeg::kFrame) frame();
        else if (rec[0] == jpeg::kBlock) place();
        else if (rec[0] == jpeg::kEndOfImage) convert();
      }
      fired = true;
    }
    return fired;
  }

 private:
  void frame() {
    width = rec[1];
    height = rec[2];
    const int nc = rec[3];
    planes.assign(static_cast<std::size_t>(nc), jpeg::Plane{});
    hmax = vmax = 1;
    for (int c = 0; c < nc; ++c) {
      planes[static_cast<std::size_t>(c)].h = rec[4 + 2 * c];
      planes[static_cast<std::size_t>(c)].v = rec[5 + 2 * c];
      hmax = std::max(hmax, rec[4 + 2 * c]);
      vmax = std::max(vmax, rec[5 + 2 * c]);
    }
    const int mcus_x = (width + 8 * hmax - 1) / (8 * hmax), mcus_y = (height + 8 * vmax - 1) / (8 * vmax);
    for (jpeg::Plane& p : planes) {
      p.stride = mcus_x * p.h * 8;
      p.rows = mcus_y * p.v * 8;
      p.width = (width * p.h + hmax - 1) / hmax;
      p.height = (height * p.v + vmax - 1) / vmax;
      p.s.assign(static_cast<std::size_t>(p.stride) * static_cast<std::size_t>(p.rows), 0);
    }
  }

  void place() {
    jpeg::Plane& p = planes.at(static_cast<std::size_t>(rec[1]));
    const int x0 = rec[2] * 8, y0 = rec[3] * 8;
    if (x0 + 8 > p.stride || y0 + 8 > p.rows) jpeg::corrupt("a block outside its component");
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x)
        p.s[static_cast<std::size_t>(y0 + y) * static_cast<std::size_t>(p.stride) + static_cast<std::size_t>(x0 + x)] =
            static_cast<std::uint8_t>(rec[4 + 8 * y + x]);
  }

  void convert() {
    const std::size_t need = 4 + std::size_t{3} * static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    if (need > static_cast<std::size_t>(image_bytes))
      jpeg::corrupt("an image of " + std::to_string(width) + "x" + std::to_string(height) + " needs " + std::to_string(need) +
                    " bytes; the token holds " + std::to_string(image_bytes));
    image.assign(static_cast<std::size_t>(image_bytes), 0);
    image[0] = static_cast<std::uint8_t>(width & 255);
    image[1] = static_cast<std::uint8_t>(width >> 8);
    image[2] = static_cast<std::uint8_t>(height & 255);
    image[3] = static_cast<std::uint8_t>(height >> 8);
    std::uint8_t* o = image.data() + 4;
    auto clamp = [](std::int64_t v) { return static_cast<std::uint8_t>(std::clamp<std::int64_t>(v, 0, 255)); };
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x, o += 3) {
        const int luma = jpeg::upsampled(planes[0], hmax, vmax, x, y);
        if (planes.size() == 1) {
          o[0] = o[1] = o[2] = static_cast<std::uint8_t>(luma);
          continue;
        }
        const int cb = jpeg::upsampled(planes[1], hmax, vmax, x, y), cr = jpeg::upsampled(planes[2], hmax, vmax, x, y);
        o[0] = clamp(luma + ycc.cr_r[cr]);
        o[1] = clamp(luma + ((ycc.cb_g[cb] + ycc.cr_g[cr]) >> 16));
        o[2] = clamp(luma + ycc.cb_b[cb]);
      }
    sent = 0;
  }
};
