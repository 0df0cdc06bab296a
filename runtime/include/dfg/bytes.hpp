/// \file
/// dfg::format_bytes: byte counts for people ("512 B", "16 MiB", "1.5 GiB"), as in error
/// messages and the --stats table.
///
/// Guarantees: a pure function; thread-safe; allocates its result only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace dfg {

/// Exact multiples print without decimals ("16 MiB"), others with one ("1.5 GiB").
inline std::string format_bytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  std::uint64_t scale = 1;
  while (unit + 1 < 7 && bytes / scale >= 1024) {
    scale *= 1024;
    ++unit;
  }
  char text[32];
  if (bytes % scale == 0) {
    std::snprintf(text, sizeof text, "%llu %s", static_cast<unsigned long long>(bytes / scale),
                  kUnits[unit]);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s",
                  static_cast<double>(bytes) / static_cast<double>(scale), kUnits[unit]);
  }
  return text;
}

}  // namespace dfg
