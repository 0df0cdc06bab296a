/// \file
/// dfg::detail::parse_int_literal: an integer as the spec language writes it (docs/language.md):
/// an optional '-', then decimal digits or '0x' and hexadecimal digits, a '_' allowed only
/// between two digits (`1_000_000`, `0x40`, `0xFF_FF`). Shared by dfgc's `-D NAME=VALUE` and the
/// generated programs' `--set NAME=VALUE` and `--params FILE`, so that every place a user types
/// a number reads it the same way.
///
/// Guarantees: pure, no allocation but for the error text, no exceptions.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace dfg::detail {

/// The value of `text`, or nullopt with `why` set: "expected an integer", "digit separator '_'
/// must be between digits", "expected hexadecimal digits after '0x'", "integer out of range".
inline std::optional<std::int64_t> parse_int_literal(std::string_view text, std::string& why) {
  const bool negative = !text.empty() && text.front() == '-';
  std::string_view s = text.substr(negative ? 1 : 0);
  const bool hex = s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) s.remove_prefix(2);
  auto digit = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (hex && c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (s.empty()) {
    why = hex ? "expected hexadecimal digits after '0x'" : "expected an integer";
    return std::nullopt;
  }
  const std::uint64_t base = hex ? 16 : 10;
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  std::uint64_t value = 0;
  bool overflow = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (i == 0 || i + 1 == s.size() || digit(s[i - 1]) < 0 || digit(s[i + 1]) < 0) {
        why = "digit separator '_' must be between digits";
        return std::nullopt;
      }
      continue;
    }
    const int d = digit(s[i]);
    if (d < 0) {
      why = "expected an integer";
      return std::nullopt;
    }
    if (value > (limit - static_cast<std::uint64_t>(d)) / base) overflow = true;
    if (!overflow) value = value * base + static_cast<std::uint64_t>(d);
  }
  if (overflow) {
    why = "integer out of range";
    return std::nullopt;
  }
  if (negative)
    return value == limit ? std::numeric_limits<std::int64_t>::min()
                          : -static_cast<std::int64_t>(value);
  return static_cast<std::int64_t>(value);
}

}  // namespace dfg::detail
