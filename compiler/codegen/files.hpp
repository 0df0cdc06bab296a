/// \file
/// The renderers of the generated project's files, one per kind of file, each from its template
/// in templates/ (see project.hpp for the whole tree):
///   app.hpp            render_app_header  (app_header.cpp); app_<host>.hpp on several hosts
///   rank_<host>.cpp    render_rank        (rank.cpp)
///   rank_<host>_<gpu>.cu render_gpu       (rank.cpp)
///   main.cpp           render_main        (rank.cpp), on several hosts only
///   CMakeLists.txt     render_cmake       (cmake.cpp)
///   README.md          render_readme      (cmake.cpp)
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "actors/frontend.hpp"
#include "plan/plan.hpp"

namespace dfgc::codegen {

/// What the renderers read for one host: its plan (plan/plan.hpp, the actor signatures
/// included) and the files Clang read for the actors. They read nothing else: neither the
/// program nor the implementation graph.
struct Model : HostPlan {
  const ActorFiles* actor_files = nullptr;  ///< the actor headers and what they include
};

/// The fixed first line of every generated file: generator, version, spec, DO NOT EDIT.
/// `comment` is the line-comment marker of the file's language ("//", "#", "<!--").
std::string file_header(const Model& m, std::string_view comment);

std::string render_app_header(const Model& m);
std::string render_rank(const Model& m);
std::string render_gpu(const Model& m, ir::PeId gpu);

/// The main of a program on several hosts: MPI, the placement of the hosts on the ranks, the
/// start-up checks, then the rank's host. `hosts`: every host's model, in spec order.
std::string render_main(std::span<const Model> hosts);

/// `hosts`: every host's model, in spec order (one for a single-host program).
/// `actor_dirs`: the include directories of the actor headers, relative to the generated directory.
std::string render_cmake(std::span<const Model> hosts, const std::vector<std::string>& actor_dirs);
std::string render_readme(std::span<const Model> hosts);

/// "rank_A.cpp", "rank_A_g0.cu" (a number added where two GPUs' names would join the same way:
/// "rank_A_b_c_2.cu").
std::string rank_file(const Model& m);
std::string gpu_file(const Model& m, ir::PeId gpu);
/// "app.hpp" for a single host, else "app_A.hpp" (each host's own).
std::string app_header_file(const Model& m);
/// The C++ namespace of a host's sources: "app" for a single host, else "app::host_A".
std::string host_namespace(const Model& m);

}  // namespace dfgc::codegen
