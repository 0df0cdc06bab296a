/// \file
/// dfg::detail::json_string: a string as a JSON string literal, for the runtime's JSON writers
/// (trace.hpp, profile.hpp). Pure function: no shared state, allocates its result.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace dfg::detail {

/// `s` quoted, with the escapes JSON requires.
inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x",
                        static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace dfg::detail
