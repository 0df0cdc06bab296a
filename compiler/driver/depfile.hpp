/// \file
/// Writes a Make-style depfile for `dfgc compile --depfile FILE`: one rule whose target is the
/// project's manifest and whose prerequisites are every file the compile read, so that a build
/// system (CMake's DEPFILE, Ninja, Make) reruns dfgc when any of them changes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "driver/replace_file.hpp"

namespace dfgc {

/// The depfile's text: `target: input...`, paths made absolute and escaped for Make and Ninja
/// (spaces, '#', '$'), each input once, one per continued line.
std::string render_depfile(const std::string& target, const std::vector<std::string>& inputs);

/// The file `--depfile path` replaces (replace_target(): a regular file or a new path, symlinks
/// followed), or why it may not be written: besides replace_target()'s reasons, it is one of
/// `inputs` (the spec, an import, an actor header: the files the depfile lists) or the output
/// directory `out_dir` or a path inside it. Checked before the project is written, so a refused
/// depfile leaves everything as it was. The error is the whole message.
ReplaceTarget depfile_target(const std::string& path, const std::filesystem::path& out_dir,
                             const std::vector<std::string>& inputs);

}  // namespace dfgc
