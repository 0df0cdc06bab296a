/// \file
/// The generated project as a whole: which files, with which text, and how they reach the disk.
///
///   CMakeLists.txt, README.md, app.hpp, rank_<host>.cpp, rank_<host>_<gpu>.cu (one per GPU),
///   schedule.txt, graph.dot, runtime/dfg/... (the runtime headers), dfgc-manifest.txt
///
/// An app on several hosts is one MPI program (one rank per host, one executable): main.cpp,
/// and per host app_<host>.hpp, rank_<host>.cpp and its GPUs' files, each host's sources in
/// namespace app::host_<host>; the runtime's dfg/mpi/ headers are copied too.
///
/// generate_project() renders everything in memory, so that a failure leaves nothing on disk;
/// write_project() then writes it: into a new or empty directory through a temporary sibling
/// that is renamed at the end, or over a directory dfgc wrote before (it has a manifest),
/// replacing the files of the old manifest and keeping every other file (a build directory).
/// A non-empty directory without a manifest is refused.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "actors/frontend.hpp"
#include "ir/ig.hpp"
#include "passes/plan_hosts.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::codegen {

inline constexpr std::string_view kManifest = "dfgc-manifest.txt";

/// Relative path (with '/') -> file text, sorted by path.
using Files = std::map<std::string, std::string>;

/// Every file of the project, printed from `plans` (plan_hosts). `out_dir` is where it will be
/// written: the actor headers' directories are given to CMake relative to it.
Files generate_project(const ir::Program& program, const ir::Ig& ig, const HostPlans& plans,
                       const ActorSignatures& signatures, const std::filesystem::path& out_dir);

/// Writes `files` into `out_dir` as described above; returns the reason it could not.
std::optional<std::string> write_project(const Files& files, const std::filesystem::path& out_dir);

}  // namespace dfgc::codegen
