/// \file
/// Byte counts that saturate instead of wrapping. A PE's memory is a sum of products (slots x
/// token bytes); sema bounds one token's bytes by 2^63 - 1, but a spec can still make the products
/// and their sum exceed it. Every such sum and product goes through add_bytes() and mul_bytes(),
/// which stop at kMaxByteCount: a saturated count means "at least 2^63 - 1 bytes", never a
/// wrapped, small or negative one. Counts are non-negative.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace dfgc::ir {

inline constexpr std::int64_t kMaxByteCount = std::numeric_limits<std::int64_t>::max();

/// a + b, or kMaxByteCount when it does not fit.
constexpr std::int64_t add_bytes(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kMaxByteCount : sum;
}

/// a x b, or kMaxByteCount when it does not fit.
constexpr std::int64_t mul_bytes(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kMaxByteCount : product;
}

/// Whether a count reached the bound (and so may stand for more).
constexpr bool saturated(std::int64_t bytes) { return bytes == kMaxByteCount; }

/// The count in decimal; a saturated one reads "at least 9223372036854775807".
inline std::string byte_count_text(std::int64_t bytes) {
  return (saturated(bytes) ? "at least " : "") + std::to_string(bytes);
}

}  // namespace dfgc::ir
