// The inverse DCT: each block of dequantised coefficients to 64 samples 0..255. The integer
// algorithm is libjpeg's default (JDCT_ISLOW: Loeffler, Ligtenberg and Moschytz, 13-bit
// constants, two passes, the second descaled by 2^(13+2+3)), and the output is limited as
// libjpeg limits it, so that the samples are libjpeg's to the bit.
#pragma once

#include <cstdint>
#include <vector>

#include "dfg/ports.hpp"
#include "frame.hpp"
#include "records.hpp"

namespace jpeg {

/// libjpeg's post-IDCT range limit: a value centred on 0, wrapped to 10 bits, then clamped.
JPEG_HD inline std::int32_t idct_limit(std::int64_t x) {
  const int v = static_cast<int>(x & 1023);
  if (v < 128) return v + 128;
  if (v < 384) return 255;
  if (v < 896) return 0;
  return v - 896;
}

/// One 1-D pass of the LL&M IDCT on in[0], in[s], ... in[7s]; out gets 8 sums before descaling.
JPEG_HD inline void idct_1d(const std::int64_t* in, std::size_t s, std::int64_t* out) {
  constexpr std::int64_t c0_298 = 2446, c0_390 = 3196, c0_541 = 4433, c0_765 = 6270, c0_899 = 7373,
                         c1_175 = 9633, c1_501 = 12299, c1_847 = 15137, c1_961 = 16069,
                         c2_053 = 16819, c2_562 = 20995, c3_072 = 25172;  // round(x * 2^13)
  // Even part.
  std::int64_t z2 = in[2 * s], z3 = in[6 * s];
  std::int64_t z1 = (z2 + z3) * c0_541;
  const std::int64_t t2 = z1 - z3 * c1_847, t3 = z1 + z2 * c0_765;
  const std::int64_t t0 = (in[0] + in[4 * s]) * 8192, t1 = (in[0] - in[4 * s]) * 8192;
  const std::int64_t e10 = t0 + t3, e13 = t0 - t3, e11 = t1 + t2, e12 = t1 - t2;
  // Odd part.
  std::int64_t o0 = in[7 * s], o1 = in[5 * s], o2 = in[3 * s], o3 = in[1 * s];
  std::int64_t z4 = o1 + o3;
  z3 = o0 + o2;
  z2 = o1 + o2;
  z1 = o0 + o3;
  const std::int64_t z5 = (z3 + z4) * c1_175;
  o3 *= c1_501;
  o2 *= c3_072;
  o1 *= c2_053;
  o0 *= c0_298;
  z4 = z4 * -c0_390 + z5;
  z3 = z3 * -c1_961 + z5;
  z1 *= -c0_899;
  z2 *= -c2_562;
  o3 += z1 + z4;
  o2 += z2 + z3;
  o1 += z2 + z4;
  o0 += z1 + z3;
  out[0] = e10 + o3;
  out[7] = e10 - o3;
  out[1] = e11 + o2;
  out[6] = e11 - o2;
  out[2] = e12 + o1;
  out[5] = e12 - o1;
  out[3] = e13 + o0;
  out[4] = e13 - o0;
}

/// Rounding right shift.
JPEG_HD inline std::int64_t descale(std::int64_t x, int n) {
  return (x + (std::int64_t{1} << (n - 1))) >> n;
}

/// 64 dequantised coefficients (natural order) to 64 samples (row-major).
JPEG_HD inline void idct_islow(const std::int32_t* coef, std::int32_t* samples) {
  std::int64_t work[64], in[8], out[8];
  for (int col = 0; col < 8; ++col) {  // columns, scaled up by 2^2
    if ((coef[8 + col] | coef[16 + col] | coef[24 + col] | coef[32 + col] | coef[40 + col] |
         coef[48 + col] | coef[56 + col]) == 0) {  // no AC term: the DC alone, as the sums give it
      for (int r = 0; r < 8; ++r) work[8 * r + col] = std::int64_t{coef[col]} * 4;
      continue;
    }
    for (int r = 0; r < 8; ++r) in[r] = coef[8 * r + col];
    idct_1d(in, 1, out);
    for (int r = 0; r < 8; ++r) work[8 * r + col] = descale(out[r], 13 - 2);
  }
  for (int row = 0; row < 8; ++row) {  // rows, descaled by 2^(13+2+3)
    const std::int64_t* w = work + 8 * row;
    if ((w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) == 0) {  // the DC alone, as above
      const std::int32_t v = idct_limit(descale(w[0] * 8192, 13 + 2 + 3));
      for (int c = 0; c < 8; ++c) samples[8 * row + c] = v;
      continue;
    }
    idct_1d(w, 1, out);
    for (int c = 0; c < 8; ++c) samples[8 * row + c] = idct_limit(descale(out[c], 13 + 2 + 3));
  }
}

}  // namespace jpeg

struct Idct {
  std::vector<std::int32_t> rec;

  bool step(dfg::In<std::int32_t> values, dfg::Out<std::int32_t> samples) {
    bool fired = false;
    std::int32_t out[64];
    while (samples.room() >= jpeg::kMaxFrameRecord && jpeg::read_record(values, rec)) {
      if (rec[0] == jpeg::kBlock) {
        jpeg::idct_islow(rec.data() + 4, out);
        for (int i = 0; i < 64; ++i) rec[4 + i] = out[i];
      }
      jpeg::write_record(samples, rec[0], rec.data() + 1, rec.size() - 1);
      fired = true;
    }
    return fired;
  }
};
