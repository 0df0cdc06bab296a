#include "codegen/actor_headers.hpp"

#include <set>

#include "support/assert.hpp"

namespace dfgc::codegen {

namespace fs = std::filesystem;

namespace {

/// The deepest directory that holds both.
fs::path common_dir(const fs::path& a, const fs::path& b) {
  fs::path out;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end() && *i == *j; ++i, ++j)
    out /= *i;
  return out;
}

}  // namespace

ActorHeaders::ActorHeaders(const ActorFiles& files) : files_(files) {
  bool first = true;
  for (const auto& [path, text] : files.text) {
    fs::path dir = fs::path(path).parent_path();
    root_ = first ? dir : common_dir(root_, dir);
    first = false;
  }
}

std::string ActorHeaders::relative(const std::string& absolute) const {
  return fs::path(absolute).lexically_relative(root_).generic_string();
}

std::vector<std::string> ActorHeaders::include_dirs() const {
  std::set<std::string> dirs;
  for (const auto& [header_path, absolute] : files_.headers) {
    std::string dir = relative(fs::path(absolute).parent_path().string());
    if (dir != ".") dirs.insert(std::string(kDir) + "/" + dir);
  }
  std::vector<std::string> out{std::string(kDir)};
  out.insert(out.end(), dirs.begin(), dirs.end());
  return out;
}

std::map<std::string, std::string> ActorHeaders::copies() const {
  std::map<std::string, std::string> out;
  for (const auto& [path, text] : files_.text) out[std::string(kDir) + "/" + relative(path)] = text;
  return out;
}

std::string ActorHeaders::include(const std::string& header_path) const {
  auto it = files_.headers.find(header_path);
  // An island's class is generated into the project (codegen/island.hpp), not read.
  if (it == files_.headers.end() && header_path.starts_with(kIslandDir))
    return "\"" + header_path + "\"";
  DFGC_INTERNAL_ASSERT(it != files_.headers.end(), "header '", header_path, "' was not read");
  std::string path = relative(it->second);
  if (path.find('"') != std::string::npos) return "<" + path + ">";
  return "\"" + path + "\"";
}

}  // namespace dfgc::codegen
