#include "mapping/json_locations.hpp"

namespace dfgc::mapping {

namespace {

/// The value of the 4 hex digits at `text[at]`, or 0 where they are not.
std::uint32_t hex4(std::string_view text, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    char c = i < text.size() ? text[i] : '0';
    std::uint32_t d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : 0;
    v = v * 16 + d;
  }
  return v;
}

void append_utf8(std::string& s, std::uint32_t cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::optional<std::uint32_t> first_too_deep(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return static_cast<std::uint32_t>(i);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

JsonLocations::JsonLocations(std::string_view text, std::size_t max_depth)
    : text_(text), max_depth_(max_depth) {
  if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark, as nlohmann skips
  skip_space();
  places_[""] = {static_cast<std::uint32_t>(pos_), static_cast<std::uint32_t>(pos_)};
  walk("", 0);
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

/// Reads a string with the cursor on its opening quote and decodes its escapes (a \u surrogate
/// pair to one code point), so that two spellings of one key compare equal, as they do for
/// nlohmann.
std::string JsonLocations::read_string() {
  std::string s;
  ++pos_;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    char c = text_[pos_++];
    if (c != '\\' || pos_ >= text_.size()) {
      s += c;
      continue;
    }
    char e = text_[pos_++];
    switch (e) {
      case 'b': s += '\b'; break;
      case 'f': s += '\f'; break;
      case 'n': s += '\n'; break;
      case 'r': s += '\r'; break;
      case 't': s += '\t'; break;
      case 'u': {
        std::uint32_t cp = hex4(text_, pos_);
        pos_ += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
          std::uint32_t low = hex4(text_, pos_ + 2);
          if (low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            pos_ += 6;
          }
        }
        append_utf8(s, cp);
        break;
      }
      default: s += e;  // '"', '\\', '/'
    }
  }
  ++pos_;
  return s;
}

/// Records the members of the value at the cursor (objects and arrays, recursively, at most
/// max_depth_ deep) and moves past it.
void JsonLocations::walk(const std::string& path, std::size_t depth) {
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
  if (depth >= max_depth_) {  // not valid input: first_too_deep() refuses it first
    pos_ = text_.size();
    return;
  }
  char close = c == '{' ? '}' : ']';
  ++pos_;
  std::map<std::string, std::uint32_t> keys;  // of this object, at their first occurrence
  for (std::size_t index = 0;; ++index) {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] == close) break;
    std::string child = path + "/" + std::to_string(index);
    auto key = static_cast<std::uint32_t>(pos_);
    if (c == '{') {
      std::string name = read_string();
      auto [first, fresh] = keys.try_emplace(name, key);
      if (!fresh) duplicates_.push_back({name, first->second, key});
      child = path + "/" + name;
      skip_space();
      ++pos_;  // ':'
      skip_space();
    }
    // A repeated key keeps its first place (nlohmann keeps its last value; the repeat is an
    // error anyway).
    places_.try_emplace(child, Place{key, static_cast<std::uint32_t>(pos_)});
    walk(child, depth + 1);
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
  }
  ++pos_;
}

}  // namespace dfgc::mapping
