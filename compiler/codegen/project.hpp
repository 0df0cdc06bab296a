/// \file
/// The generated project as a whole: which files, with which text, and how they reach the disk.
///
///   CMakeLists.txt, README.md, app.hpp, rank_<host>.cpp, rank_<host>_<gpu>.cu (one per GPU),
///   schedule.txt, graph.dot, runtime/dfg/... (the runtime headers), actors/... (the actor
///   headers and the user's headers they include: actor_headers.hpp), dfgc-manifest.txt
///
/// An app on several hosts is one MPI program (one rank per host, one executable): main.cpp,
/// and per host app_<host>.hpp, rank_<host>.cpp and its GPUs' files, each host's sources in
/// namespace app::host_<host>; the runtime's dfg/mpi/ headers are copied too.
///
/// generate_project() renders everything in memory, so that a failure leaves nothing on disk;
/// write_project() then writes it: into a new directory (made whole beside it, then renamed), or
/// into an existing one that is empty or that dfgc wrote before (it has a manifest), where the
/// files of the old manifest are replaced and every other file is kept (a build directory).
/// A non-empty directory without a manifest is refused. The new files are staged first and moved
/// into place after a journal is committed: a failure leaves the old project as it was, a kill
/// leaves it old or the journal that the next compile into the directory carries out (project.cpp
/// says what each point of the write leaves). Nothing outside the directory is touched, whatever
/// its manifest says.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "actors/frontend.hpp"
#include "codegen/format.hpp"
#include "passes/plan_hosts.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::codegen {

inline constexpr std::string_view kManifest = "dfgc-manifest.txt";

/// Relative path (with '/') -> file text, sorted by path.
using Files = std::map<std::string, std::string>;

/// Every file of the project, printed from `plans` (plan_hosts) alone, with copies of
/// `actor_files` (check_actors) and `dumps`: the files the caller prints from the IR
/// (schedule.txt, graph.dot), listed in the manifest as the others. Nothing in it depends on where
/// dfgc runs or where the project is written. Sources over `format_limit` bytes are not laid out
/// by clang-format (format.hpp).
Files generate_project(const HostPlans& plans, const ActorSignatures& signatures,
                       const ActorFiles& actor_files, Files dumps = {},
                       std::size_t format_limit = kFormatLimit);

/// Ways for tests to stop or fail write_project() part-way.
struct WriteHooks {
  /// Asked before each step of the write ("stage PATH", "commit", "remove PATH", "move PATH",
  /// "clean"); true stops the write there, leaving everything as a kill at that point would.
  std::function<bool(std::string_view step)> interrupt;
  /// An errno with which writing the staged file PATH fails (0: none), as on a full disk.
  std::function<int(std::string_view path)> write_error;
};

/// Writes `files` into `out_dir` as described above; returns the reason it could not.
std::optional<std::string> write_project(const Files& files, const std::filesystem::path& out_dir,
                                         const WriteHooks& hooks = {});

/// Finishes or discards what an interrupted write_project() left in `out_dir` (which exists):
/// write_project() does it first.
std::optional<std::string> recover_project(const std::filesystem::path& out_dir);

}  // namespace dfgc::codegen
