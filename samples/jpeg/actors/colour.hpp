// Upsampling and colour conversion: gathers an image's blocks of samples into planes, and at the
// end of the image upsamples the chroma planes and converts YCbCr to RGB as libjpeg does by
// default (frame.hpp), then gives the image: width and height (16 bits each, little-endian), the
// RGB pixels, zeros up to `image_bytes`. It takes no record while an image is going out.
#pragma once

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

  /// The image token: size, RGB, zeros to `bytes`.
  void convert(std::uint8_t* out, std::size_t bytes) const {
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
    std::uint8_t* o = out + 4;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x, o += 3) {
        const int luma = upsampled(layout, 0, s[0].data(), x, y);
        if (layout.components == 1)
          o[0] = o[1] = o[2] = static_cast<std::uint8_t>(luma);
        else
          ycc_rgb(luma, upsampled(layout, 1, s[1].data(), x, y),
                  upsampled(layout, 2, s[2].data(), x, y), o);
      }
    for (std::uint8_t* end = out + bytes; o < end; ++o) *o = 0;
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
        for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = image[sent + i];
        rgb.commit(slots.size());
        sent += slots.size();
      } else {
        if (!jpeg::read_record(samples, rec)) break;
        if (rec[0] == jpeg::kFrame) {
          planes.start(rec.data() + 1, rec.size() - 1);
        } else if (rec[0] == jpeg::kBlock) {
          planes.place(rec.data() + 1);
        } else if (rec[0] == jpeg::kEndOfImage) {
          image.assign(static_cast<std::size_t>(image_bytes), 0);
          planes.convert(image.data(), image.size());
          sent = 0;
        }
      }
      fired = true;
    }
    return fired;
  }
};
