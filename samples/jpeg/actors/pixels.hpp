// The IDCT, upsampling and colour conversion as one static actor: an image's dequantised records
// (a frame record, a record per block, the end-of-image record, zeros; actors/pad.hpp) in one
// token, the image out (as actors/colour.hpp gives it). The CPU implementation; pixels_gpu.cuh
// is the same on a GPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "colour.hpp"
#include "dfg/context.hpp"
#include "idct.hpp"
#include "records.hpp"

struct Pixels {
  int max_width = 0, max_height = 0;  // used by the GPU implementation to size its planes
  jpeg::Planes planes;

  void fire(const std::int32_t* in, std::uint8_t* out, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    std::size_t i = 0;
    if (n < 2 || in[0] != jpeg::kFrame)
      jpeg::corrupt("a token that does not start with a frame record");
    planes.start(in + 2, static_cast<std::size_t>(in[1]));
    i = 2 + static_cast<std::size_t>(in[1]);
    std::int32_t block[jpeg::kBlockPayload];
    for (; i + 2 + jpeg::kBlockPayload <= n && in[i] == jpeg::kBlock;
         i += 2 + jpeg::kBlockPayload) {
      block[0] = in[i + 2];
      block[1] = in[i + 3];
      block[2] = in[i + 4];
      jpeg::idct_islow(in + i + 5, block + 3);
      planes.place(block);
    }
    planes.convert(out, ctx.elements(1));
  }
};
