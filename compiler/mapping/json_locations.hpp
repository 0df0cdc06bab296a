/// \file
/// Where each member of a JSON document starts, by path ("/actors/Inc/gpu"), so that errors found
/// after nlohmann::json has parsed a file can point at the key they are about, and which keys an
/// object holds twice (nlohmann keeps the last silently). The text must be valid JSON (nlohmann
/// has accepted it) nested at most max_depth deep (first_too_deep() checks that first).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dfgc::mapping {

/// The byte offset of the first '[' or '{' (outside strings) that opens a value nested deeper
/// than `max_depth` (the document's own object or array is depth 1); nullopt if there is none.
/// Any text is scanned, valid JSON or not.
std::optional<std::uint32_t> first_too_deep(std::string_view text, std::size_t max_depth);

class JsonLocations {
 public:
  /// A key that an object holds twice.
  struct Duplicate {
    std::string key;
    std::uint32_t first = 0;  ///< the byte offset of its first occurrence
    std::uint32_t again = 0;  ///< of the later one
  };

  JsonLocations(std::string_view text, std::size_t max_depth);

  /// The byte offset of the key of the member at `path` (a JSON pointer without escapes; keys
  /// holding '/' or '~' are not indexed), or of the document for "".
  std::uint32_t key(const std::string& path) const;
  /// The byte offset of the member's value; for "" the document's.
  std::uint32_t value(const std::string& path) const;
  /// Every repeated key, in text order.
  const std::vector<Duplicate>& duplicates() const { return duplicates_; }

 private:
  struct Place {
    std::uint32_t key = 0;
    std::uint32_t value = 0;
  };
  void skip_space();
  std::string read_string();
  void walk(const std::string& path, std::size_t depth);

  std::string_view text_;
  std::size_t max_depth_;
  std::size_t pos_ = 0;
  std::map<std::string, Place> places_;
  std::vector<Duplicate> duplicates_;
};

}  // namespace dfgc::mapping
