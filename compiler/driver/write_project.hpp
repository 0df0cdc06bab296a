/// \file
/// Writing a generated project (codegen/project.hpp) to disk, crash-safe: into a new directory
/// (made whole beside it, then renamed), or into an existing one that is empty or that dfgc wrote
/// before (it has a manifest), where the files of the old manifest are replaced and every other
/// file is kept (a build directory). A non-empty directory without a manifest is refused. The new
/// files are staged first and moved into place after a journal is committed: a failure leaves the
/// old project as it was, a kill leaves it old or the journal that the next compile into the
/// directory carries out (write_project.cpp says what each point of the write leaves). Nothing
/// outside the directory is touched, whatever its manifest says.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "codegen/project.hpp"

namespace dfgc {

/// Ways for tests to stop or fail write_project() part-way.
struct WriteHooks {
  /// Asked before each step of the write ("stage PATH", "commit", "remove PATH", "move PATH",
  /// "clean"); true stops the write there, leaving everything as a kill at that point would.
  std::function<bool(std::string_view step)> interrupt;
  /// An errno with which writing the staged file PATH fails (0: none), as on a full disk.
  std::function<int(std::string_view path)> write_error;
};

/// Writes `files` into `out_dir` as the file comment says; returns the reason it could not.
std::optional<std::string> write_project(const codegen::Files& files,
                                         const std::filesystem::path& out_dir,
                                         const WriteHooks& hooks = {});

/// Finishes or discards what an interrupted write_project() left in `out_dir` (which exists):
/// write_project() does it first.
std::optional<std::string> recover_project(const std::filesystem::path& out_dir);

}  // namespace dfgc
