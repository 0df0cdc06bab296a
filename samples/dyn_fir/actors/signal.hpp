// The input signal, and the FIR computed sequentially: the reference the sink checks against.
#pragma once

#include <cstdint>

namespace fir {

/// Sample t of the input: a hash of t, in [-1000, 1000].
inline std::int32_t sample(std::int64_t t) {
  std::uint64_t z = static_cast<std::uint64_t>(t) * 0x9E3779B97F4A7C15ull;
  z ^= z >> 31;
  return static_cast<std::int32_t>(z % 2001) - 1000;
}

/// y[t] = (c0 x[t] + c1 x[t-1] + c2 x[t-2] + c3 x[t-3]) >> shift, x[t] = 0 before t = 0.
inline std::int32_t reference(std::int64_t t, const int (&c)[4], int shift) {
  std::int32_t acc = 0;
  for (int k = 0; k < 4; ++k)
    if (t - k >= 0) acc += c[k] * sample(t - k);
  return acc >> shift;
}

}  // namespace fir
