// The 8x8 inverse DCT of the sample, in fixed point (the same code in the actors and in the
// sink's reference), the test blocks and their run-length code.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace idct {

/// Run-length code: (zeros before, value) pairs per block, then kEob; kPad fills the token.
inline constexpr std::int32_t kEob = 64;
inline constexpr std::int32_t kPad = -1;

/// c[k][n] = C(k) cos((2n + 1) k pi / 16) / 2, scaled by 2^13.
inline const std::int32_t (&table())[8][8] {
  static const auto t = [] {
    struct T {
      std::int32_t c[8][8];
    } out{};
    for (int k = 0; k < 8; ++k)
      for (int n = 0; n < 8; ++n) {
        const double ck = k == 0 ? std::sqrt(0.5) : 1.0;
        out.c[k][n] = static_cast<std::int32_t>(std::lround(ck * std::cos((2 * n + 1) * k * M_PI / 16) / 2 * 8192));
      }
    return out;
  }();
  return t.c;
}

/// One pass over 8 vectors of 8 (rows: stride 1 within, 8 between; columns: 8 within, 1 between).
inline void pass(const std::int32_t* in, std::int32_t* out, std::size_t within, std::size_t between) {
  const auto& c = table();
  for (std::size_t v = 0; v < 8; ++v)
    for (std::size_t n = 0; n < 8; ++n) {
      std::int64_t acc = 0;
      for (std::size_t k = 0; k < 8; ++k) acc += std::int64_t{c[k][n]} * in[v * between + k * within];
      out[v * between + n * within] = static_cast<std::int32_t>((acc + 4096) >> 13);
    }
}

inline void rows(const std::int32_t* in, std::int32_t* out) { pass(in, out, 1, 8); }

/// Columns, then the level shift and the clamp to a pixel.
inline void columns(const std::int32_t* in, std::int32_t* out) {
  pass(in, out, 8, 1);
  for (std::size_t i = 0; i < 64; ++i) out[i] = out[i] + 128 < 0 ? 0 : out[i] + 128 > 255 ? 255 : out[i] + 128;
}

/// Coefficient i of block b: a few low frequencies, more of them in some blocks.
inline std::int32_t coefficient(std::int64_t b, std::size_t i) {
  const std::uint64_t z = (static_cast<std::uint64_t>(b) * 0x9E3779B97F4A7C15ull) ^ (i * 0xBF58476D1CE4E5B9ull);
  const std::size_t kept = 1 + static_cast<std::size_t>(static_cast<std::uint64_t>(b) * 7 % 40);
  if (i >= kept || (z >> 7) % 3 == 0) return 0;
  return static_cast<std::int32_t>((z >> 13) % 401) - 200;
}

/// Appends block b's code to `out`.
inline void encode(std::int64_t b, std::vector<std::int32_t>& out) {
  std::int32_t zeros = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    const std::int32_t v = coefficient(b, i);
    if (v == 0) {
      ++zeros;
      continue;
    }
    out.push_back(zeros);
    out.push_back(v);
    zeros = 0;
  }
  out.push_back(kEob);
}

}  // namespace idct
