/// \file
/// A JSON file of `dfgc map` (a costs file), read so that every way it can be unreadable or
/// malformed is a user error, located in the file where there is a place to point at, never an
/// exception, a crash or a hang:
///  - the file must be a regular file (not a directory, a FIFO or a device) of at most
///    kMaxJsonFileBytes;
///  - its text must be JSON: nlohmann's syntax errors and numbers beyond a double's range are
///    located at their place;
///  - values nest at most kMaxJsonDepth deep (the document's own object is depth 1);
///  - no object holds a key twice (nlohmann would keep the last silently).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mapping/json_locations.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::mapping {

inline constexpr std::uint64_t kMaxJsonFileBytes = std::uint64_t{64} << 20;
inline constexpr std::size_t kMaxJsonDepth = 64;

/// Reads `path` into `sources`; `what` names the file in errors ("costs file").
std::optional<std::uint32_t> load_json_file(const std::string& path, std::string_view what,
                                            SourceManager& sources, DiagnosticEngine& diags);

struct JsonDocument {
  nlohmann::json root;
  JsonLocations where;  ///< of `root`'s members in the file's text
};

/// Parses and checks the text of `file` (a file of `sources`).
std::optional<JsonDocument> parse_json(std::uint32_t file, const SourceManager& sources,
                                       DiagnosticEngine& diags);

}  // namespace dfgc::mapping
