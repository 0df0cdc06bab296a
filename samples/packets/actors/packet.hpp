// The packets of the sample: what the source sends in iteration j, and the mask both the mask
// actor and the checker apply, so that the checker can recompute every token.
#pragma once

#include <cstddef>
#include <cstdint>

namespace packets {

/// The length of iteration j's packet for a capacity: every length from 0 to the capacity
/// comes round.
inline std::size_t length(std::int64_t j, std::size_t capacity) {
  return static_cast<std::size_t>((j * 37 + 11) % static_cast<std::int64_t>(capacity + 1));
}

/// Byte i of iteration j's packet: runs of 1 to 7 equal bytes, so that run-length coding pays.
inline std::uint8_t byte(std::int64_t j, std::size_t i) {
  const std::size_t run = 1 + static_cast<std::size_t>(j % 7);
  return static_cast<std::uint8_t>((i / run) * 13 + static_cast<std::size_t>(j));
}

inline std::uint8_t mask(std::uint8_t b, std::int64_t key) { return static_cast<std::uint8_t>(b ^ key); }

}  // namespace packets
