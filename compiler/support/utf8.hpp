/// \file
/// UTF-8 decoding for columns and for echoing source lines: where one character ends, and what it
/// is. A malformed byte (a stray continuation byte, an overlong form, a surrogate, a truncated
/// sequence) is one character of its own.
#pragma once

#include <cstddef>
#include <string_view>

namespace dfgc::utf8 {

/// One character at the start of a text.
struct Char {
  std::size_t length = 1;  ///< bytes, at least 1
  char32_t code = 0;       ///< the code point, when valid
  bool valid = false;      ///< false: a malformed byte (length 1)
};

/// The character starting `text` (which must not be empty).
inline Char decode(std::string_view text) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char b0 = byte(0);
  if (b0 < 0x80) return {1, b0, true};
  std::size_t len = b0 >= 0xC2 && b0 <= 0xDF   ? 2
                    : b0 >= 0xE0 && b0 <= 0xEF ? 3
                    : b0 >= 0xF0 && b0 <= 0xF4 ? 4
                                               : 0;
  if (len == 0 || text.size() < len) return {};
  char32_t cp = b0 & (0x7F >> len);
  for (std::size_t i = 1; i < len; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  static constexpr char32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
  return {len, cp, true};
}

/// How many characters `text` holds.
inline std::size_t count(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); i += decode(text.substr(i)).length) ++n;
  return n;
}

}  // namespace dfgc::utf8
