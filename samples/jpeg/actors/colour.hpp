// Upsampling and colour conversion: gathers an image's blocks of samples into planes, and at the
// end of the image upsamples the chroma planes and converts YCbCr to RGB as libjpeg does by
// default (frame.hpp), then gives the image: width and height (16 bits each, little-endian), the
// RGB pixels, zeros up to `image_bytes`. It takes no record while an image is going out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dfg/ports.hpp"
#include "frame.hpp"
#include "records.hpp"

namespace jpeg {

/// An image's planes of samples, filled block by block, then turned into the image token.
struct Planes {
  std::vector<std::int32_t> frame;  // the frame record's payload
  Layout layout;
  std::vector<std::uint8_t> s[3];

  void start(const std::int32_t* payload, std::size_t n) {
    frame.assign(payload, payload + n);
    layout = Layout(frame.data());
    if (frame[2] != 1 && frame[2] != 3) corrupt(std::to_string(frame[2]) + " components");
    for (int c = 0; c < layout.components; ++c) {
      if (!layout.supported(c)) corrupt("sampling other than 1:1, 2:1 and 2:1 x 2:1");
      s[c].assign(
          static_cast<std::size_t>(layout.stride[c]) * static_cast<std::size_t>(layout.rows[c]), 0);
    }
  }

  /// A block record's payload: [component, column, row, 64 samples].
  void place(const std::int32_t* block) {
    const int c = block[0], x0 = block[1] * 8, y0 = block[2] * 8;
    if (c < 0 || c >= layout.components || x0 + 8 > layout.stride[c] || y0 + 8 > layout.rows[c])
      corrupt("a block outside its component");
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x)
        s[c][static_cast<std::size_t>(y0 + y) * static_cast<std::size_t>(layout.stride[c]) +
             static_cast<std::size_t>(x0 + x)] = static_cast<std::uint8_t>(block[3 + 8 * y + x]);
  }

  /// The image token: size, RGB, zeros to `bytes`. Row by row: each component's row upsampled
  /// as upsampled() (frame.hpp) computes it, then YCbCr to RGB through tables of ycc_rgb's
  /// products.
  void convert(std::uint8_t* out, std::size_t bytes) {
    const int w = layout.width, h = layout.height;
    const std::size_t need =
        4 + std::size_t{3} * static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    if (need > bytes)
      corrupt("an image of " + std::to_string(w) + "x" + std::to_string(h) + " needs " +
              std::to_string(need) + " bytes; the token holds " + std::to_string(bytes));
    out[0] = static_cast<std::uint8_t>(w & 255);
    out[1] = static_cast<std::uint8_t>(w >> 8);
    out[2] = static_cast<std::uint8_t>(h & 255);
    out[3] = static_cast<std::uint8_t>(h >> 8);
    const Tables& t = tables();
    std::uint8_t* o = out + 4;
    for (int c = 0; c < layout.components; ++c) row[c].resize(static_cast<std::size_t>(w) + 1);
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* r[3] = {};
      for (int c = 0; c < layout.components; ++c) r[c] = upsample_row(c, y);
      if (layout.components == 1) {
        for (int x = 0; x < w; ++x, o += 3) o[0] = o[1] = o[2] = r[0][x];
        continue;
      }
      for (int x = 0; x < w; ++x, o += 3) {
        const int luma = r[0][x], cb = r[1][x], cr = r[2][x];
        o[0] = t.clamp(luma + t.cr_r[cr]);
        o[1] = t.clamp(luma + ((t.cb_g[cb] + t.cr_g[cr]) >> 16));
        o[2] = t.clamp(luma + t.cb_b[cb]);
      }
    }
    std::fill(o, out + bytes, std::uint8_t{0});
  }

 private:
  std::vector<std::uint8_t> row[3];
  std::vector<int> colsum;

  /// ycc_rgb's products for every Cb and Cr, as libjpeg's tables hold them.
  struct Tables {
    int cr_r[256], cb_b[256], cr_g[256], cb_g[256];
    static std::uint8_t clamp(int v) {
      return static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
    Tables() {
      constexpr std::int64_t half = std::int64_t{1} << 15;
      for (int i = 0; i < 256; ++i) {
        const std::int64_t x = i - 128;
        cr_r[i] = static_cast<int>((91881 * x + half) >> 16);
        cb_b[i] = static_cast<int>((116130 * x + half) >> 16);
        cr_g[i] = static_cast<int>(-46802 * x);
        cb_g[i] = static_cast<int>(-22554 * x + half);
      }
    }
  };
  static const Tables& tables() {
    static const Tables t;
    return t;
  }

  /// Row y of component c upsampled to the image's width: the plane's row at 1:1, or libjpeg's
  /// h2v1 and h2v2 fancy upsampling (upsampled() in frame.hpp, a row at a time).
  const std::uint8_t* upsample_row(int c, int y) {
    const int stride = layout.stride[c], w = layout.width, last = layout.cw[c] - 1;
    const std::uint8_t* s0 = s[c].data();
    if (layout.h[c] == layout.hmax && layout.v[c] == layout.vmax)
      return s0 + static_cast<std::size_t>(y) * static_cast<std::size_t>(stride);
    std::uint8_t* o = row[c].data();
    const int half_w = (w + 1) / 2;  // output pairs
    if (layout.v[c] == layout.vmax) {  // h2v1
      const std::uint8_t* in = s0 + static_cast<std::size_t>(y) * static_cast<std::size_t>(stride);
      for (int j = 0; j < half_w; ++j) {
        const int here = in[j];
        o[2 * j] = static_cast<std::uint8_t>(j == 0 ? here : (3 * here + in[j - 1] + 1) >> 2);
        o[2 * j + 1] =
            static_cast<std::uint8_t>(j == last ? here : (3 * here + in[j + 1] + 2) >> 2);
      }
      return o;
    }
    // h2v2: column sums of the nearest row (3) and the next nearest (1), then 3:1 across columns.
    const int i = y / 2;
    int other = y % 2 == 0 ? i - 1 : i + 1;
    other = other < 0 ? 0 : (other > layout.ch[c] - 1 ? layout.ch[c] - 1 : other);
    const std::uint8_t* nearest = s0 + static_cast<std::size_t>(i) * static_cast<std::size_t>(stride);
    const std::uint8_t* next =
        s0 + static_cast<std::size_t>(other) * static_cast<std::size_t>(stride);
    const int n = std::min(half_w + 1, last + 1);
    colsum.resize(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) colsum[static_cast<std::size_t>(j)] = 3 * nearest[j] + next[j];
    const int* cs = colsum.data();
    for (int j = 0; j < half_w; ++j) {
      const int here = cs[j];
      o[2 * j] = static_cast<std::uint8_t>(j == 0 ? (4 * here + 8) >> 4
                                                  : (3 * here + cs[j - 1] + 8) >> 4);
      o[2 * j + 1] = static_cast<std::uint8_t>(j == last ? (4 * here + 7) >> 4
                                                         : (3 * here + cs[j + 1] + 7) >> 4);
    }
    return o;
  }
};

}  // namespace jpeg

struct Colour {
  int image_bytes = 0;

  jpeg::Planes planes;
  std::vector<std::uint8_t> image;  // going out
  std::size_t sent = 0;
  std::vector<std::int32_t> rec;

  bool step(dfg::In<std::int32_t> samples, dfg::Out<std::uint8_t> rgb) {
    bool fired = false;
    for (;;) {
      if (sent < image.size()) {
        auto slots = rgb.reserve(image.size() - sent);
        if (slots.size() == 0) break;
        slots.copy_from(image.data() + sent);
        rgb.commit(slots.size());
        sent += slots.size();
      } else {
        if (!jpeg::read_record(samples, rec)) break;
        if (rec[0] == jpeg::kFrame) {
          planes.start(rec.data() + 1, rec.size() - 1);
        } else if (rec[0] == jpeg::kBlock) {
          planes.place(rec.data() + 1);
        } else if (rec[0] == jpeg::kEndOfImage) {
          image.resize(static_cast<std::size_t>(image_bytes));
          planes.convert(image.data(), image.size());
          sent = 0;
        }
      }
      fired = true;
    }
    return fired;
  }
};
