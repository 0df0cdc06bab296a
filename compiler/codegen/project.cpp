#include "codegen/project.hpp"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "codegen/actor_headers.hpp"
#include "codegen/files.hpp"
#include "codegen/format.hpp"
#include "codegen/island.hpp"
#include "codegen/runtime_files.hpp"
#include "codegen/templates.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::string file_header(const Model& m, std::string_view comment) {
  std::string text(template_text("file_header.txt"));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return render_template(text, {{"comment", std::string(comment)},
                                {"version", DFGC_VERSION},
                                {"spec", m.program->spec_name}});
}

namespace {

/// The runtime headers the program includes: the host-only ones, dfg/cuda/ where a host has a
/// GPU, dfg/mpi/ on several hosts (dfg/mpi/gpudirect.hpp, which needs CUDA too, only where a
/// transfer goes over a gpudirect link).
void add_runtime(std::span<const Model> hosts, Files& files) {
  bool gpu = false, gpudirect = false;
  for (const Model& m : hosts) {
    gpu = gpu || m.has_gpu();
    gpudirect = gpudirect || m.has_gpudirect();
  }
  for (const auto& [path, text] : runtime_files()) {
    bool cuda = path.starts_with("cuda/");
    bool mpi = path.starts_with("mpi/") && (path != "mpi/gpudirect.hpp" || gpudirect);
    bool host = path.find('/') == std::string_view::npos || path.starts_with("detail/");
    if (host || (cuda && gpu) || (mpi && hosts.size() > 1))
      files[fmt::format("runtime/dfg/{}", path)] = std::string(text);
  }
}

std::string manifest(const Model& m, const Files& files) {
  std::string out = file_header(m, "#") +
                    "\n# The files dfgc wrote here. 'dfgc compile -o' replaces them and keeps any "
                    "other file.\n";
  for (const auto& [path, text] : files) out += path + "\n";
  out += std::string(kManifest) + "\n";
  return out;
}

}  // namespace

Files generate_project(const HostPlans& plans, const ActorFiles& actor_files, Files dumps,
                       std::size_t format_limit) {
  std::vector<Model> hosts;
  for (const HostPlan& plan : plans.hosts) {
    DFGC_INTERNAL_ASSERT(plan.signed_nodes, "host ", plan.host_name,
                         "'s plan was made without the actors' signatures");
    hosts.push_back(Model{plan, &actor_files});
  }
  Files files = std::move(dumps);
  files["CMakeLists.txt"] = render_cmake(hosts, ActorHeaders(actor_files).include_dirs());
  files["README.md"] = render_readme(hosts);
  // The sources, laid out in the .clang-format style up to `format_limit` bytes (format.hpp).
  auto source = [&files, format_limit](const std::string& path, const std::string& text) {
    files[path] = format_cpp(text, path, format_limit);
  };
  if (hosts.size() > 1) source("main.cpp", render_main(hosts));
  for (const Model& m : hosts) {
    source(app_header_file(m), render_app_header(m));
    source(rank_file(m), render_rank(m));
    for (ir::PeId gpu : m.gpus) source(gpu_file(m, gpu), render_gpu(m, gpu));
    for (const PlanIsland& island : m.islands)
      source(island_file(island), render_island(m, island));
    if (!m.mapped_rings.empty()) source(mapped_rings_file(m), render_mapped_rings(m));
  }
  add_runtime(hosts, files);
  files.merge(ActorHeaders(actor_files).copies());
  files[std::string(kManifest)] = manifest(hosts.front(), files);
  return files;
}

}  // namespace dfgc::codegen
