#include "mapping/json_locations.hpp"

namespace dfgc::mapping {

JsonLocations::JsonLocations(std::string_view text) : text_(text) {
  skip_space();
  places_[""] = {static_cast<std::uint32_t>(pos_), static_cast<std::uint32_t>(pos_)};
  walk("");
}

std::uint32_t JsonLocations::key(const std::string& path) const {
  auto it = places_.find(path);
  return it == places_.end() ? 0 : it->second.key;
}

std::uint32_t JsonLocations::value(const std::string& path) const {
  auto it = places_.find(path);
  return it == places_.end() ? 0 : it->second.value;
}

void JsonLocations::skip_space() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
    ++pos_;
}

/// Reads a string with the cursor on its opening quote; simple escapes are decoded, \u kept.
std::string JsonLocations::read_string() {
  std::string s;
  ++pos_;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
    s += text_[pos_++];
  }
  ++pos_;
  return s;
}

/// Records the members of the value at the cursor (objects and arrays, recursively) and moves
/// past it.
void JsonLocations::walk(const std::string& path) {
  if (pos_ >= text_.size()) return;
  char c = text_[pos_];
  if (c == '"') {
    read_string();
    return;
  }
  if (c != '{' && c != '[') {
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' && text_[pos_] != ']')
      ++pos_;
    return;
  }
  char close = c == '{' ? '}' : ']';
  ++pos_;
  for (std::size_t index = 0;; ++index) {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] == close) break;
    std::string child = path + "/" + std::to_string(index);
    auto key = static_cast<std::uint32_t>(pos_);
    if (c == '{') {
      child = path + "/" + read_string();
      skip_space();
      ++pos_;  // ':'
      skip_space();
    }
    places_[child] = {key, static_cast<std::uint32_t>(pos_)};
    walk(child);
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
  }
  ++pos_;
}

}  // namespace dfgc::mapping
