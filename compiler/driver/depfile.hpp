/// \file
/// Writes a Make-style depfile for `dfgc compile --depfile FILE`: one rule whose target is the
/// project's manifest and whose prerequisites are every file the compile read, so that a build
/// system (CMake's DEPFILE, Ninja, Make) reruns dfgc when any of them changes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dfgc {

/// The depfile's text: `target: input...`, paths made absolute and escaped for Make and Ninja
/// (spaces, '#', '$'), each input once, one per continued line.
std::string render_depfile(const std::string& target, const std::vector<std::string>& inputs);

/// Writes render_depfile(target, inputs) to `path` through a temporary file renamed into place, so
/// that a reader never sees half of it. Returns the reason on failure.
std::optional<std::string> write_depfile(const std::string& path, const std::string& target,
                                         const std::vector<std::string>& inputs);

}  // namespace dfgc
