#include "support/source_manager.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "support/assert.hpp"

namespace dfgc {

std::optional<std::uint32_t> SourceManager::find(const std::string& path) const {
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (files_[i].name == path) return static_cast<std::uint32_t>(i + 1);
  return std::nullopt;
}

std::optional<std::uint32_t> SourceManager::load_file(const std::string& path, std::string* error) {
  if (auto id = find(path)) return id;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    if (error) *error = "read error";
    return std::nullopt;
  }
  return add_buffer(path, std::move(text).str());
}

std::uint32_t SourceManager::add_buffer(std::string name, std::string contents) {
  File f;
  f.name = std::move(name);
  f.text = std::move(contents);
  f.line_starts = compute_line_starts(f.text);
  files_.push_back(std::move(f));
  return static_cast<std::uint32_t>(files_.size());
}

const SourceManager::File& SourceManager::file(std::uint32_t id) const {
  DFGC_INTERNAL_ASSERT(id >= 1 && id <= files_.size(), "bad file id ", id);
  return files_[id - 1];
}

const std::string& SourceManager::name(std::uint32_t id) const { return file(id).name; }

std::string_view SourceManager::contents(std::uint32_t id) const { return file(id).text; }

std::vector<std::uint32_t> SourceManager::compute_line_starts(std::string_view text) {
  std::vector<std::uint32_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(static_cast<std::uint32_t>(i + 1));
  return starts;
}

LineCol SourceManager::line_col(SourceLoc loc) const {
  const File& f = file(loc.file);
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), loc.offset);
  auto line = static_cast<std::uint32_t>(it - f.line_starts.begin());  // >= 1
  return {line, loc.offset - f.line_starts[line - 1] + 1};
}

SourceLoc SourceManager::loc_at(std::uint32_t id, std::uint32_t line, std::uint32_t col) const {
  const File& f = file(id);
  if (line == 0) line = 1;
  if (col == 0) col = 1;
  if (line > f.line_starts.size()) return {id, static_cast<std::uint32_t>(f.text.size())};
  std::uint64_t offset = std::uint64_t{f.line_starts[line - 1]} + col - 1;
  return {id, static_cast<std::uint32_t>(std::min<std::uint64_t>(offset, f.text.size()))};
}

std::string_view SourceManager::line_text(std::uint32_t id, std::uint32_t line) const {
  const File& f = file(id);
  if (line == 0 || line > f.line_starts.size()) return {};
  std::string_view text = f.text;
  std::size_t begin = f.line_starts[line - 1];
  std::size_t end = text.find('\n', begin);
  if (end == std::string_view::npos) end = text.size();
  std::string_view result = text.substr(begin, end - begin);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

}  // namespace dfgc
