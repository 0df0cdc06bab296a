/// \file
/// render_depfile and write_depfile: see depfile.hpp.
#include "driver/depfile.hpp"

#include <unistd.h>
#include <filesystem>
#include <fstream>
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

std::optional<std::string> write_depfile(const std::string& path, const std::string& target,
                                         const std::vector<std::string>& inputs) {
  std::string temporary = fmt::format("{}.tmp{}", path, ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << render_depfile(target, inputs);
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return fmt::format("cannot write depfile '{}'", path);
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return fmt::format("cannot write depfile '{}': {}", path, ec.message());
  }
  return std::nullopt;
}

}  // namespace dfgc
