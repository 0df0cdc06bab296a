/// \file
/// Where each member of a JSON document starts, by path ("/actors/Inc/gpu"), so that errors found
/// after nlohmann::json has parsed a file can point at the key they are about. The text must be
/// valid JSON (nlohmann has accepted it).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace dfgc::mapping {

class JsonLocations {
 public:
  explicit JsonLocations(std::string_view text);

  /// The byte offset of the key of the member at `path` (a JSON pointer without escapes; keys
  /// holding '/' or '~' are not indexed), or of the document for "".
  std::uint32_t key(const std::string& path) const;
  /// The byte offset of the member's value; for "" the document's.
  std::uint32_t value(const std::string& path) const;

 private:
  struct Place {
    std::uint32_t key = 0;
    std::uint32_t value = 0;
  };
  void skip_space();
  std::string read_string();
  void walk(const std::string& path);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::map<std::string, Place> places_;
};

}  // namespace dfgc::mapping
