/// \file
/// render_depfile and depfile_target: see depfile.hpp.
#include "driver/depfile.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

#include <fmt/format.h>

namespace dfgc {

namespace {

std::string absolute(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  return (ec ? std::filesystem::path(path) : p).lexically_normal().string();
}

/// Escapes a path as GCC does for -MD: Make and Ninja read a backslash before a space or '#', and
/// "$$" for '$'.
std::string escape(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

}  // namespace

std::string render_depfile(const std::string& target, const std::vector<std::string>& inputs) {
  std::set<std::string> seen;
  std::string text = escape(absolute(target)) + ":";
  for (const std::string& input : inputs) {
    std::string path = absolute(input);
    if (seen.insert(path).second) text += " \\\n  " + escape(path);
  }
  return text + "\n";
}

ReplaceTarget depfile_target(const std::string& path, const std::filesystem::path& out_dir,
                             const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  auto refuse = [&](const std::string& why) {
    return ReplaceTarget{{}, fmt::format("cannot write depfile '{}': {}", path, why)};
  };
  std::error_code ec;
  auto resolved = [&](const fs::path& p) {
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec).lexically_normal();
    return r.has_parent_path() && r.filename().empty() ? r.parent_path() : r;
  };
  const fs::path dir = resolved(out_dir);
  // The output directory, a path inside it or an input, as written or through its symlinks.
  auto clash = [&](const fs::path& file) -> std::optional<std::string> {
    auto [d, f] = std::mismatch(dir.begin(), dir.end(), file.begin(), file.end());
    if (d == dir.end())
      return file == dir ? "it is the output directory"
                         : fmt::format("it is inside the output directory '{}'", out_dir.string());
    bool exists = fs::exists(file, ec);
    for (const std::string& input : inputs) {
      fs::path in = resolved(input);
      if (in == file || (exists && fs::equivalent(in, file, ec) && !ec))
        return fmt::format("it is '{}', a file the compile reads", input);
    }
    return std::nullopt;
  };
  if (auto why = clash(resolved(path))) return refuse(*why);
  ReplaceTarget target = replace_target(path);
  if (!target.error.empty()) return refuse(target.error);
  if (auto why = clash(resolved(target.file))) return refuse(*why);
  return target;
}

}  // namespace dfgc
