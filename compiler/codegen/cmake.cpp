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

}  // namespace

std::string render_cmake(const Model& m, const std::vector<std::string>& actor_dirs) {
  const bool cuda = m.has_gpu();
  std::string sources = rank_file(m);
  for (ir::PeId gpu : m.program->arch.hosts[m.host].gpus) sources += "\n" + gpu_file(m, gpu);
  std::string dirs;
  for (const std::string& d : actor_dirs)
    dirs += fmt::format("{}${{CMAKE_CURRENT_SOURCE_DIR}}/{}", dirs.empty() ? "" : "\n", d);
  return render_template(
      template_text("CMakeLists.txt"),
      {{"header", file_header(m, "#")},
       {"app", m.program->app_name},
       {"arch", m.program->arch.name},
       {"cuda_architectures", cuda ? cuda_architectures() : ""},
       {"project", identifier(m.program->app_name)},
       {"languages", cuda ? "CXX CUDA" : "CXX"},
       {"standard", cuda ? "# C++20 for both languages, as compile options: CMake 3.25 does not know nvcc's C++20\n"
                           "# flag, and it would give CUDA sources the CXX_STANDARD otherwise. One CUDA runtime, shared.\n"
                           "set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)"
                         : "set(CMAKE_CXX_STANDARD 20)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\nset(CMAKE_CXX_EXTENSIONS OFF)"},
       {"find_cuda", cuda ? "find_package(CUDAToolkit REQUIRED)\n\n" : ""},
       {"sources", sources},
       {"actor_dirs", dirs},
       {"warnings", cuda ? "$<$<COMPILE_LANGUAGE:CXX>:-std=c++20 -Wall -Wextra>\n"
                           "$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall,-Wextra>"
                         : "-Wall -Wextra"},
       {"definitions", cuda ? "# NVTX ranges around firings and transfers, for Nsight Systems.\n"
                              "target_compile_definitions(app PRIVATE DFG_ENABLE_NVTX=1)\n"
                            : ""},
       {"libraries", cuda ? "Threads::Threads CUDA::cudart" : "Threads::Threads"}});
}

std::string render_readme(const Model& m) {
  const ir::Host& host = m.program->arch.hosts[m.host];
  std::string pes;
  for (ir::PeId pe : m.pes()) pes += fmt::format("{}`{}`", pes.empty() ? "" : ", ", m.pe(pe).name);
  std::string files = fmt::format(
      "| `CMakeLists.txt` | the build: one executable `app` |\n"
      "| `app.hpp` | params, token sizes, processing elements, every firing/transfer/copy with its "
      "window, the shared run state |\n"
      "| `{}` | host {}: main, the set-up, the worker of {} |\n",
      rank_file(m), host.name, m.pe(host.cpu).name);
  for (ir::PeId gpu : host.gpus)
    files += fmt::format("| `{}` | the worker of GPU {}: its storage, streams, transfers, firings |\n",
                         gpu_file(m, gpu), m.pe(gpu).name);
  files +=
      "| `schedule.txt` | the implementation graph of both strategies, one item a line |\n"
      "| `graph.dot` | the same as a graph (`dot -Tsvg graph.dot`) |\n"
      "| `runtime/dfg/` | the header-only runtime the sources include |\n"
      "| `dfgc-manifest.txt` | the files dfgc wrote here |";
  std::string header = file_header(m, "<!--") + " -->";
  return render_template(
      template_text("README.md"),
      {{"header", header},
       {"app", m.program->app_name},
       {"arch", m.program->arch.name},
       {"spec", spec_path_for_header(m.program->spec_file)},
       {"cmake_flags", m.has_gpu() ? "  # -DCMAKE_CUDA_ARCHITECTURES=90 to choose the GPU" : ""},
       {"cuda_note", m.has_gpu() ? "The GPU code needs the CUDA toolkit (nvcc) and, to run, the GPUs the "
                                   "architecture names\n(CUDA device ordinals).\n"
                                 : ""},
       {"pes", pes},
       {"files", files}});
}

}  // namespace dfgc::codegen
