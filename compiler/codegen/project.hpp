/// \file
/// The generated project as a whole: which files, with which text (driver/write_project.hpp
/// writes them).
///
///   CMakeLists.txt, README.md, app.hpp, rank_<host>.cpp, rank_<host>_<gpu>.cu (one per GPU),
///   schedule.txt, graph.dot, runtime/dfg/... (the runtime headers), actors/... (the actor
///   headers and the user's headers they include: actor_headers.hpp), dfgc-manifest.txt
///
/// An app on several hosts is one MPI program (one rank per host, one executable): main.cpp,
/// and per host app_<host>.hpp, rank_<host>.cpp and its GPUs' files, each host's sources in
/// namespace app::host_<host>; the runtime's dfg/mpi/ headers are copied too.
///
/// generate_project() renders everything in memory, so that a failure leaves nothing on disk.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "actors/frontend.hpp"
#include "codegen/format.hpp"
#include "plan/plan.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::codegen {

inline constexpr std::string_view kManifest = "dfgc-manifest.txt";

/// Relative path (with '/') -> file text, sorted by path.
using Files = std::map<std::string, std::string>;

/// Every file of the project, printed from `plans` (plan_hosts(), with the actors' signatures:
/// HostPlan::signed_nodes) alone, with copies of
/// `actor_files` (check_actors) and `dumps`: the files the caller prints from the IR
/// (schedule.txt, graph.dot), listed in the manifest as the others. Nothing in it depends on where
/// dfgc runs or where the project is written. Sources over `format_limit` bytes are not laid out
/// by clang-format (format.hpp).
Files generate_project(const HostPlans& plans, const ActorFiles& actor_files, Files dumps = {},
                       std::size_t format_limit = kFormatLimit);

}  // namespace dfgc::codegen
