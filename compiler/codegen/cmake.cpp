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

std::string cuda_architectures() {
  return R"cmake(# CUDA architectures: -DCMAKE_CUDA_ARCHITECTURES=...; by default the build machine's GPU,
# else 90 (H100, H200).
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE dfg_gpu_caps RESULT_VARIABLE dfg_smi_status ERROR_QUIET)
  if(dfg_smi_status EQUAL 0 AND dfg_gpu_caps MATCHES "^([0-9]+)\\.([0-9]+)")
    set(CMAKE_CUDA_ARCHITECTURES "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
  else()
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
endif()
)cmake";
}

/// `text` as a CMake bracket argument, [==[text]==], with `;` escaped (a list separator once the
/// argument is expanded): nothing else in it is interpreted.
std::string bracket_argument(std::string_view text) {
  std::string escaped;
  for (char c : text) escaped += c == ';' ? std::string("\\;") : std::string(1, c);
  std::string equals;
  // The closing bracket must not occur in the text, nor begin at its end.
  while ((escaped + "]").find("]" + equals + "]") != std::string::npos) equals += '=';
  return fmt::format("[{0}[{1}]{0}]", equals, escaped);
}

/// Whether some host has a GPU: the project then needs the CUDA language.
bool any_gpu(std::span<const Model> hosts) {
  for (const Model& m : hosts)
    if (m.has_gpu()) return true;
  return false;
}

/// How a program on several hosts runs: ranks, placement, host-to-host transfers and their tags.
std::string mpi_note(std::span<const Model> hosts) {
  const Model& m = hosts.front();
  std::string names, tags;
  for (const Model& h : hosts) names += fmt::format("{}{}", names.empty() ? "" : ", ", h.host_name);
  for (const NetTransfer& t : m.net_transfers)
    tags += fmt::format("| {} | {} | `{} -> {}` |\n", t.tag, ir::to_string(t.strategy), t.from, t.to);
  return fmt::format(
      "The program runs on {} hosts ({}), one MPI rank each (MPI_THREAD_SERIALIZED): host i is\n"
      "rank i, unless `--hostmap A=1,B=0` (or the environment variable `DFG_HOSTMAP`) says otherwise.\n"
      "A wrong number of ranks, a bad map or a GPU ordinal this machine lacks stops every rank at\n"
      "start-up with one message. The worker of each host's first CPU makes its MPI calls: in cycle c it posts\n"
      "the receives, then the sends of its host-to-host transfers (MPI_Irecv, MPI_Issend), fires its\n"
      "nodes and completes them before it ends the cycle (without overlap: in their transfer step).\n"
      "`--sync=barrier` adds a barrier of all ranks at the end of every cycle. A failing rank ends\n"
      "the job (MPI_Abort) with its rank and the reason. `--trace FILE` writes one file per host\n"
      "(FILE with the host's name before the extension).\n"
      "\n"
      "Each host-to-host transfer has a tag, unique in the program: numbered in schedule.txt order,\n"
      "the overlap strategy first.\n"
      "\n"
      "| tag | strategy | transfer |\n"
      "| --- | --- | --- |\n"
      "{}\n",
      hosts.size(), names, tags);
}

/// Which host-to-host transfers go over gpudirect links, and the two ways they may run.
std::string gpudirect_note(std::span<const Model> hosts) {
  const Model& m = hosts.front();
  std::vector<int> tags;  // in order: net_transfers is by tag
  for (const NetTransfer& t : m.net_transfers)
    if (t.gpudirect) tags.push_back(t.tag);
  if (tags.empty()) return "";
  std::string list = std::to_string(tags[0]);
  for (std::size_t i = 1; i < tags.size(); ++i)
    list += (i + 1 == tags.size() ? " and " : ", ") + std::to_string(tags[i]);
  return render_template(template_text("README_gpudirect.md"), {{"tags", list}});
}

/// " CUDA::cufft ...": the libraries (`uses` in the spec) of the actors of the nodes that run on a
/// GPU of one of `hosts`, sorted, each once.
std::string gpu_libraries(std::span<const Model> hosts) {
  std::set<std::string> names;
  for (const Model& h : hosts)
    for (const PlanNode& n : h.nodes)
      if (h.pe(n.pe).kind == ir::PeKind::gpu) names.insert(n.libraries.begin(), n.libraries.end());
  std::string out;
  for (const std::string& name : names) out += " CUDA::" + name;
  return out;
}

}  // namespace

std::string render_cmake(std::span<const Model> hosts, const std::vector<std::string>& actor_dirs) {
  const Model& m = hosts.front();
  const bool cuda = any_gpu(hosts);
  const bool mpi = m.multi_host();
  std::string sources = mpi ? "main.cpp" : "";
  for (const Model& h : hosts) {
    sources += (sources.empty() ? "" : "\n") + rank_file(h);
    for (ir::PeId gpu : h.gpus) sources += "\n" + gpu_file(h, gpu);
  }
  std::string packages = cuda ? "find_package(CUDAToolkit REQUIRED)\n" : "";
  if (mpi) packages += "# One MPI rank per host: mpirun -np " + std::to_string(hosts.size()) + " app\n"
                       "find_package(MPI REQUIRED COMPONENTS CXX)\n";
  if (!packages.empty()) packages += "\n";
  std::string libraries = "Threads::Threads";
  if (mpi) libraries += " MPI::MPI_CXX";
  if (cuda) libraries += " CUDA::cudart" + gpu_libraries(hosts);
  // Each directory as a bracket argument, taken as written, then as one quoted argument.
  std::string dir_vars, dirs;
  for (std::size_t i = 0; i < actor_dirs.size(); ++i) {
    std::string var = actor_dirs.size() == 1 ? "dfg_actor_headers" : fmt::format("dfg_actor_headers_{}", i);
    dir_vars += fmt::format("{}set({} {})", i == 0 ? "" : "\n", var, bracket_argument(actor_dirs[i]));
    dirs += fmt::format("{}\"${{CMAKE_CURRENT_SOURCE_DIR}}/${{{}}}\"", i == 0 ? "" : "\n", var);
  }
  return render_template(
      template_text("CMakeLists.txt"),
      {{"header", file_header(m, "#")},
       {"app", m.app_name},
       {"arch", m.arch_name},
       {"cuda_architectures", cuda ? cuda_architectures() : ""},
       {"project", identifier(m.app_name)},
       {"languages", cuda ? "CXX CUDA" : "CXX"},
       {"standard", cuda ? "# C++20 for both languages, as compile options: CMake 3.25 does not know nvcc's C++20\n"
                           "# flag, and it would give CUDA sources the CXX_STANDARD otherwise. One CUDA runtime, shared.\n"
                           "set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)"
                         : "set(CMAKE_CXX_STANDARD 20)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\nset(CMAKE_CXX_EXTENSIONS OFF)"},
       {"find_packages", packages},
       {"sources", sources},
       {"actor_dir_vars", dir_vars},
       {"actor_dirs", dirs},
       {"warnings", cuda ? "$<$<COMPILE_LANGUAGE:CXX>:-std=c++20 -Wall -Wextra>\n"
                           "$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall,-Wextra>"
                         : "-Wall -Wextra"},
       {"definitions", cuda ? "# NVTX ranges around firings and transfers, for Nsight Systems.\n"
                              "target_compile_definitions(app PRIVATE DFG_ENABLE_NVTX=1)\n"
                            : ""},
       {"libraries", libraries}});
}

std::string render_readme(std::span<const Model> hosts) {
  const Model& m = hosts.front();
  const bool mpi = m.multi_host();
  std::string pes;
  for (const Model& h : hosts)
    for (ir::PeId pe : h.pes()) pes += fmt::format("{}`{}`", pes.empty() ? "" : ", ", h.pe(pe).name);
  std::string files = "| `CMakeLists.txt` | the build: one executable `app` |\n";
  if (mpi)
    files += "| `main.cpp` | main: MPI, the hosts' placement on the ranks, the start-up checks |\n";
  for (const Model& h : hosts) {
    files += fmt::format(
        "| `{}` | {}params, token sizes, processing elements, every firing/transfer/copy with its "
        "window, the shared run state |\n",
        app_header_file(h), mpi ? "host " + h.host_name + ": " : "");
    std::vector<std::string> cpus;
    for (ir::PeId c : h.cpus) cpus.push_back(h.pe(c).name);
    files += fmt::format("| `{}` | host {}: {}the set-up, the worker{} of {} |\n", rank_file(h), h.host_name,
                         mpi ? "" : "main, ", cpus.size() > 1 ? "s" : "", fmt::join(cpus, ", "));
    for (ir::PeId gpu : h.gpus)
      files += fmt::format("| `{}` | the worker of GPU {}: its storage, streams, transfers, firings |\n",
                           gpu_file(h, gpu), h.pe(gpu).name);
  }
  files +=
      "| `schedule.txt` | the implementation graph of both strategies, one item a line |\n"
      "| `graph.dot` | the same as a graph (`dot -Tsvg graph.dot`) |\n"
      "| `runtime/dfg/` | the header-only runtime the sources include |\n"
      "| `actors/` | copies of the actor headers and of the headers they include, which the sources "
      "include from there |\n"
      "| `dfgc-manifest.txt` | the files dfgc wrote here |";
  std::string header = file_header(m, "<!--") + " -->";
  return render_template(
      template_text("README.md"),
      {{"header", header},
       {"app", m.app_name},
       {"arch", m.arch_name},
       {"spec", m.spec_name},
       {"cmake_flags", any_gpu(hosts) ? "  # -DCMAKE_CUDA_ARCHITECTURES=90 to choose the GPU" : ""},
       {"run", mpi ? fmt::format("mpirun -np {} build/app --iterations 1000 --stats", hosts.size())
                   : "build/app --iterations 1000 --stats"},
       {"cuda_note", any_gpu(hosts) ? "The GPU code needs the CUDA toolkit (nvcc) and, to run, the GPUs the "
                                      "architecture names\n(CUDA device ordinals).\n"
                                    : ""},
       {"mpi_note", mpi ? (any_gpu(hosts) ? "\n" : "") + mpi_note(hosts) : ""},
       {"gpudirect_note", mpi ? gpudirect_note(hosts) : ""},
       {"pes", pes},
       {"files", files}});
}

}  // namespace dfgc::codegen
