// Masks every byte with a key on the GPU. The lengths are on the host: `fire` reads the input's,
// sets the output's to it, and launches the kernel over the used bytes only.
#pragma once

#include <cstdint>

#include "dfg/bounded.hpp"
#include "dfg/context.hpp"

__global__ void mask_kernel(const std::uint8_t* in, std::uint8_t* out, std::size_t n, std::uint8_t key) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<std::uint8_t>(in[i] ^ key);
}

struct MaskGpu {
  std::int64_t key = 0;

  void fire(dfg::Bounded<const std::uint8_t> in, dfg::Bounded<std::uint8_t> out, dfg::Context& ctx) {
    out.resize(in.size());
    if (in.empty()) return;
    const unsigned blocks = static_cast<unsigned>((in.size() + 255) / 256);
    mask_kernel<<<blocks, 256, 0, ctx.stream()>>>(in.data(), out.data(), in.size(), static_cast<std::uint8_t>(key));
  }
};
