#include <fmt/format.h>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"
#include "codegen/worker.hpp"

namespace dfgc::codegen {

std::string rank_file(const Model& m) {
  return fmt::format("rank_{}.cpp", identifier(m.program->arch.hosts[m.host].name));
}

std::string gpu_file(const Model& m, ir::PeId gpu) {
  return fmt::format("rank_{}_{}.cu", identifier(m.program->arch.hosts[m.host].name),
                     identifier(m.pe(gpu).local_name));
}

std::string render_rank(const Model& m) {
  const ir::Host& host = m.program->arch.hosts[m.host];
  std::string makes =
      fmt::format("workers.push_back(std::make_unique<{}>(run));\n", worker_class(m, host.cpu));
  for (ir::PeId gpu : host.gpus)
    makes += fmt::format("workers.push_back(make_{}(run));\n", identifier(m.pe(gpu).name));
  std::string runtime = m.has_gpu() ? "#include \"dfg/cuda/buffers.hpp\"\n#include \"dfg/cuda/nvtx.hpp\"\n"
                                    : "#include \"dfg/host_buffer.hpp\"\n";
  return render_template(template_text("rank.cpp"),
                         {{"header", file_header(m, "//")},
                          {"host", host.name},
                          {"cpu", m.pe(host.cpu).name},
                          {"runtime_includes", runtime},
                          {"actor_includes", actor_includes(m, host.cpu)},
                          {"worker", render_worker(m, host.cpu)},
                          {"make_workers", makes}});
}

std::string render_gpu(const Model& m, ir::PeId gpu) {
  return render_template(template_text("gpu.cu"),
                         {{"header", file_header(m, "//")},
                          {"pe", m.pe(gpu).name},
                          {"device", std::to_string(m.pe(gpu).device)},
                          {"host", m.program->arch.hosts[m.host].name},
                          {"actor_includes", actor_includes(m, gpu)},
                          {"worker", render_worker(m, gpu)},
                          {"pe_ident", identifier(m.pe(gpu).name)},
                          {"cls", worker_class(m, gpu)}});
}

}  // namespace dfgc::codegen
