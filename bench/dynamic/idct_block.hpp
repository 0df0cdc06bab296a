// The 8x8 integer IDCT of the IDCT benchmark (idct.cu), shared with its CPU test
// (test/unit/runtime/dynamic_bench_test.cpp): a separable fixed-point IDCT, exact and identical
// on CPU and GPU, within one of the real-valued IDCT on the benchmark's inputs.
#pragma once

#include <cmath>
#include <cstdint>

#include "dfg/detail/ring_span.hpp"  // DFG_HOST_DEVICE

namespace idct {

/// The fixed-point basis: basis[u * 8 + x] = round(4096 * c(u) * cos((2x + 1) u pi / 16)),
/// c(0) = sqrt(1/8), c(u) = 1/2.
inline void make_basis(std::int32_t* basis) {
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x) {
      const double c = u == 0 ? std::sqrt(0.125) : 0.5;
      basis[u * 8 + x] = static_cast<std::int32_t>(
          std::lround(4096.0 * c * std::cos((2 * x + 1) * u * M_PI / 16)));
    }
}

/// Coefficient k of the benchmark's input (k % 64: its place in the block) from a random word:
/// the DC term in [-1024, 1024), the lowest frequencies in [-256, 256), the rest in [-32, 32).
inline std::int16_t coefficient(std::uint64_t k, std::uint32_t random) {
  const int range = k % 64 == 0 ? 1024 : (k % 64 < 10 ? 256 : 32);
  return static_cast<std::int16_t>(static_cast<int>(random % (2 * range)) - range);
}

/// The 2-D IDCT of one block (64 coefficients, row-major), rows then columns, each output
/// rounded and clamped to [-256, 255].
template <class In, class Out>
DFG_HOST_DEVICE void idct_block(const In& in, Out&& out, const std::int32_t* basis) {
  std::int32_t c[64], rows[64];
  for (int k = 0; k < 64; ++k) c[k] = in[k];
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      std::int32_t s = 0;
      for (int u = 0; u < 8; ++u) s += basis[u * 8 + x] * c[y * 8 + u];
      rows[y * 8 + x] = (s + (1 << 7)) >> 8;
    }
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      std::int32_t s = 0;
      for (int v = 0; v < 8; ++v) s += basis[v * 8 + y] * rows[v * 8 + x];
      const std::int32_t p = (s + (1 << 15)) >> 16;
      out[y * 8 + x] = static_cast<std::int16_t>(p < -256 ? -256 : (p > 255 ? 255 : p));
    }
}

}  // namespace idct
