// The IDCT, upsampling and colour conversion on a GPU: the same arithmetic as actors/pixels.hpp
// (frame.hpp, idct.hpp are host and device code), one thread per 8x8 block for the IDCT, then one
// thread per pixel for upsampling and colour. Everything it needs to know of the image (its size,
// its sampling) it reads from the token on the device, so a firing is two launches on the
// firing's stream and no copy. The planes between the two kernels are allocated in init().
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/context.hpp"
#include "dfg/cuda/check.hpp"
#include "frame.hpp"
#include "idct.hpp"
#include "records.hpp"

namespace jpeg {

/// Block b of the token (after the frame record) to its place in its plane, if it is a block.
__global__ void idct_kernel(const std::int32_t* in, std::size_t n, std::uint8_t* planes,
                            std::size_t plane_bytes) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t at = 2 + static_cast<std::size_t>(in[1]) + b * (2 + kBlockPayload);
  if (at + 2 + kBlockPayload > n || in[at] != kBlock) return;
  const Layout l(in + 2);
  const std::int32_t* rec = in + at + 2;
  const int c = rec[0], x0 = rec[1] * 8, y0 = rec[2] * 8;
  if (c < 0 || c >= l.components || x0 + 8 > l.stride[c] || y0 + 8 > l.rows[c] ||
      static_cast<std::size_t>(l.stride[c]) * static_cast<std::size_t>(l.rows[c]) > plane_bytes)
    return;
  std::int32_t samples[64];
  idct_islow(rec + 3, samples);
  std::uint8_t* p = planes + static_cast<std::size_t>(c) * plane_bytes;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      p[(y0 + y) * l.stride[c] + x0 + x] = static_cast<std::uint8_t>(samples[8 * y + x]);
}

/// Pixel p of the image token (its size first, zeros after the image).
__global__ void colour_kernel(const std::int32_t* in, const std::uint8_t* planes,
                              std::size_t plane_bytes, std::uint8_t* out, std::size_t out_bytes) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (4 + 3 * p + 3 > out_bytes) return;
  const Layout l(in + 2);
  const bool fits =
      4 + 3 * static_cast<std::size_t>(l.width) * static_cast<std::size_t>(l.height) <= out_bytes;
  if (p == 0) {
    out[0] = static_cast<std::uint8_t>(l.width & 255);
    out[1] = static_cast<std::uint8_t>(l.width >> 8);
    out[2] = static_cast<std::uint8_t>(l.height & 255);
    out[3] = static_cast<std::uint8_t>(l.height >> 8);
  }
  std::uint8_t* o = out + 4 + 3 * p;
  if (!fits || p >= static_cast<std::size_t>(l.width) * static_cast<std::size_t>(l.height)) {
    o[0] = o[1] = o[2] = 0;
    return;
  }
  const int x = static_cast<int>(p % static_cast<std::size_t>(l.width)),
            y = static_cast<int>(p / static_cast<std::size_t>(l.width));
  const int luma = upsampled(l, 0, planes, x, y);
  if (l.components == 1)
    o[0] = o[1] = o[2] = static_cast<std::uint8_t>(luma);
  else
    ycc_rgb(luma, upsampled(l, 1, planes + plane_bytes, x, y),
            upsampled(l, 2, planes + 2 * plane_bytes, x, y), o);
}

}  // namespace jpeg

struct PixelsGpu {
  int max_width = 0, max_height = 0;
  std::uint8_t* planes = nullptr;
  std::size_t plane_bytes = 0;

  void init(dfg::Context&) {
    plane_bytes =
        static_cast<std::size_t>(max_width + 16) * static_cast<std::size_t>(max_height + 16);
    DFG_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&planes), 3 * plane_bytes), "jpeg planes");
  }

  ~PixelsGpu() {
    if (planes != nullptr) cudaFree(planes);
  }

  void fire(const std::int32_t* in, std::uint8_t* out, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0), out_bytes = ctx.elements(1);
    const std::size_t blocks = n / (2 + jpeg::kBlockPayload) + 1, pixels = (out_bytes - 4) / 3;
    jpeg::idct_kernel<<<static_cast<unsigned>((blocks + 127) / 128), 128, 0, ctx.stream()>>>(
        in, n, planes, plane_bytes);
    jpeg::colour_kernel<<<static_cast<unsigned>((pixels + 255) / 256), 256, 0, ctx.stream()>>>(
        in, planes, plane_bytes, out, out_bytes);
  }
};
