#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"

namespace dfgc::codegen {

namespace {

/// `text` as a CMake bracket argument, [==[text]==], with `;` escaped (a list separator once the
/// argument is expanded): nothing else in it is interpreted.
std::string bracket_argument(std::string_view text) {
  std::string escaped;
  for (char c : text) escaped += c == ';' ? std::string("\\;") : std::string(1, c);
  std::string equals;
  // The closing bracket must not occur in the text, nor begin at its end.
  while ((escaped + "]").find("]" + equals + "]") != std::string::npos) equals += '=';
  return render_part("cmake_bracket", {{"equals", equals}, {"text", escaped}});
}

/// Whether some host has a GPU: the project then needs the CUDA language.
bool any_gpu(std::span<const Model> hosts) {
  for (const Model& m : hosts)
    if (m.has_gpu()) return true;
  return false;
}

/// Whether some host keeps a GPU's colour in mapped host memory (PlanColour::mapped), in either
/// strategy: the README then says how those small tokens move.
bool any_mapped(std::span<const Model> hosts) {
  for (const Model& m : hosts)
    for (ir::Strategy s : ir::kStrategies)
      for (const auto& colours : m.strategies[s].storage)
        for (const PlanColour& c : colours)
          if (c.mapped) return true;
  return false;
}

/// How a program on several hosts runs: ranks, placement, host-to-host transfers and their tags.
std::string mpi_note(std::span<const Model> hosts) {
  std::vector<std::string> names;
  for (const Model& h : hosts) names.push_back(h.host_name);
  std::string tags;
  for (const NetTransfer& t : hosts.front().program->net_transfers) {
    // An alternative's transfer (it runs once its node moved): "overlap, migration 0".
    std::string strategy(ir::to_string(t.strategy));
    if (t.alternative >= 0)
      strategy +=
          render_part("readme_tag_migration", {{"alternative", std::to_string(t.alternative)}});
    tags += render_part(
        "readme_tag_row",
        {{"tag", std::to_string(t.tag)}, {"strategy", strategy}, {"from", t.from}, {"to", t.to}});
  }
  return render_part(
      "readme_mpi_note",
      {{"count", std::to_string(hosts.size())}, {"hosts", join(names)}, {"tags", tags + "\n"}});
}

/// Which host-to-host transfers go over gpudirect links, and the two ways they may run.
std::string gpudirect_note(std::span<const Model> hosts) {
  const Model& m = hosts.front();
  std::vector<int> tags;  // in order: net_transfers is by tag
  for (const NetTransfer& t : m.program->net_transfers)
    if (t.gpudirect) tags.push_back(t.tag);
  if (tags.empty()) return "";
  std::string list = std::to_string(tags[0]);
  for (std::size_t i = 1; i < tags.size(); ++i)
    list += (i + 1 == tags.size() ? " and " : ", ") + std::to_string(tags[i]);
  return render_template(template_text("README_gpudirect.md"), {{"tags", list}});
}

/// "CUDA::cufft", ...: the libraries (`uses` in the spec) of the actors of the nodes that run on a
/// GPU of one of `hosts`, sorted, each once.
std::vector<std::string> gpu_libraries(std::span<const Model> hosts) {
  std::set<std::string> names;
  for (const Model& h : hosts)
    for (const PlanNode& n : h.nodes)
      if (h.pe(n.pe).kind == ir::PeKind::gpu) names.insert(n.libraries.begin(), n.libraries.end());
  std::vector<std::string> out;
  for (const std::string& name : names) out.push_back("CUDA::" + name);
  return out;
}

}  // namespace

std::string render_cmake(std::span<const Model> hosts, const std::vector<std::string>& actor_dirs) {
  const Model& m = hosts.front();
  const bool cuda = any_gpu(hosts);
  const bool mpi = m.multi_host();
  std::vector<std::string> sources;
  if (mpi) sources.push_back("main.cpp");
  for (const Model& h : hosts) {
    sources.push_back(rank_file(h));
    for (ir::PeId gpu : h.gpus) sources.push_back(gpu_file(h, gpu));
  }
  std::string packages;
  if (cuda) packages += render_part("cmake_find_cuda");
  if (mpi) packages += render_part("cmake_find_mpi", {{"hosts", std::to_string(hosts.size())}});
  if (!packages.empty()) packages += "\n";
  std::vector<std::string> libraries = {"Threads::Threads"};
  if (mpi) libraries.push_back("MPI::MPI_CXX");
  if (cuda) {
    libraries.push_back("CUDA::cudart");
    for (std::string& library : gpu_libraries(hosts)) libraries.push_back(std::move(library));
  }
  // Each directory as a bracket argument, taken as written, then as one quoted argument.
  std::vector<std::string> dir_vars, dirs;
  for (std::size_t i = 0; i < actor_dirs.size(); ++i) {
    std::string var =
        actor_dirs.size() == 1 ? "dfg_actor_headers" : fmt::format("dfg_actor_headers_{}", i);
    dir_vars.push_back(render_part("cmake_actor_dir_var",
                                   {{"var", var}, {"dir", bracket_argument(actor_dirs[i])}}));
    dirs.push_back(render_part("cmake_actor_dir", {{"var", var}}));
  }
  return render_template(
      template_text("CMakeLists.txt"),
      {{"header", file_header(m, "#")},
       {"app", m.program->app_name},
       {"arch", m.program->arch_name},
       {"cuda_architectures", cuda ? render_part("cmake_cuda_architectures") : ""},
       {"project", m.files.project},
       {"languages", cuda ? "CXX CUDA" : "CXX"},
       {"standard", render_part(cuda ? TemplatePart("cmake_standard_cuda")
                                     : TemplatePart("cmake_standard_cxx"))},
       {"find_packages", packages},
       {"sources", join(sources, "\n")},
       {"actor_dir_vars", join(dir_vars, "\n")},
       {"actor_dirs", join(dirs, "\n")},
       {"warnings", render_part(cuda ? TemplatePart("cmake_warnings_cuda")
                                     : TemplatePart("cmake_warnings_cxx"))},
       {"definitions", cuda ? render_part("cmake_nvtx") : ""},
       {"libraries", join(libraries, " ")}});
}

std::string render_readme(std::span<const Model> hosts) {
  const Model& m = hosts.front();
  const bool mpi = m.multi_host();
  std::vector<std::string> pes;
  for (const Model& h : hosts)
    for (ir::PeId pe : h.pes()) pes.push_back("`" + h.pe(pe).name + "`");
  std::string files = render_part("readme_file_cmake");
  if (mpi) files += render_part("readme_file_main");
  for (const Model& h : hosts) {
    files += render_part("readme_file_app", {{"file", app_header_file(h)},
                                             {"host", mpi ? "host " + h.host_name + ": " : ""}});
    std::vector<std::string> cpus;
    for (ir::PeId c : h.cpus) cpus.push_back(h.pe(c).name);
    files += render_part("readme_file_rank", {{"file", rank_file(h)},
                                              {"host", h.host_name},
                                              {"main", mpi ? "" : "main, "},
                                              {"s", cpus.size() > 1 ? "s" : ""},
                                              {"cpus", join(cpus)}});
    for (ir::PeId gpu : h.gpus)
      files +=
          render_part("readme_file_gpu", {{"file", gpu_file(h, gpu)}, {"gpu", h.pe(gpu).name}});
  }
  files += render_part("readme_files_rest");
  std::string header = file_header(m, "<!--") + " -->";
  // A batched program runs a multiple of its batch: the example, 1000 rounded up to one.
  const std::uint32_t k = m.program->batch;
  const std::string iterations = std::to_string((1000 + k - 1) / k * k);
  const std::string batch_note =
      k == 1 ? ""
             : (any_gpu(hosts) ? "\n" : "") +
                   render_part("readme_batch_note", {{"k", std::to_string(k)}});
  return render_template(
      template_text("README.md"),
      {{"header", header},
       {"app", m.program->app_name},
       {"arch", m.program->arch_name},
       {"spec", m.program->spec_name},
       {"cmake_flags", any_gpu(hosts) ? render_part("readme_cmake_flags") : ""},
       {"run", mpi ? render_part("readme_run_mpi",
                                 {{"hosts", std::to_string(hosts.size())}, {"n", iterations}})
                   : render_part("readme_run", {{"n", iterations}})},
       {"cuda_note", (any_gpu(hosts) ? render_part("readme_cuda_note") : "") + batch_note},
       {"mpi_note", mpi ? (any_gpu(hosts) ? "\n" : "") + mpi_note(hosts) : ""},
       {"gpudirect_note", mpi ? gpudirect_note(hosts) : ""},
       {"mapped_note", any_mapped(hosts) ? render_part("readme_mapped_note") : ""},
       {"pes", join(pes)},
       {"files", files}});
}

}  // namespace dfgc::codegen
