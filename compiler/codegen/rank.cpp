#include <set>

#include <fmt/format.h>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"
#include "codegen/worker.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::string rank_file(const Model& m) {
  return fmt::format("rank_{}.cpp", identifier(m.host_name));
}

std::string gpu_file(const Model& m, ir::PeId gpu) {
  // Two GPUs whose names join the same way (host A's b_c, host A_b's c) are told apart by a
  // number: the later one in spec order gets rank_A_b_c_2.cu.
  std::set<std::string> taken;
  for (ir::PeId pe = 0; pe < m.pe_table.size(); ++pe) {
    if (m.pe(pe).kind != ir::PeKind::gpu) continue;
    const std::string base =
        fmt::format("rank_{}_{}", identifier(m.host_names[m.pe(pe).host]), identifier(m.pe(pe).local_name));
    std::string name = base;
    for (int i = 2; !taken.insert(name).second; ++i) name = fmt::format("{}_{}", base, i);
    if (pe == gpu) return name + ".cu";
  }
  DFGC_UNREACHABLE("gpu_file of a PE that is no GPU");
}

std::string app_header_file(const Model& m) {
  if (!m.multi_host()) return "app.hpp";
  return fmt::format("app_{}.hpp", identifier(m.host_name));
}

std::string host_namespace(const Model& m) {
  if (!m.multi_host()) return "app";
  return fmt::format("app::host_{}", identifier(m.host_name));
}

std::string render_rank(const Model& m) {
  const bool mpi = m.multi_host();
  std::string makes;
  for (ir::PeId cpu : m.cpus)
    makes += fmt::format("workers.push_back(std::make_unique<{}>(run{}));\n", worker_class(m, cpu),
                         mpi && cpu == m.cpu() ? ", mpi" : "");
  for (ir::PeId gpu : m.gpus)
    makes += fmt::format("workers.push_back(make_{}(run));\n", identifier(m.pe(gpu).name));
  std::string runtime = m.has_gpu() ? "#include \"dfg/cuda/buffers.hpp\"\n"
                                    : "#include \"dfg/host_buffer.hpp\"\n";
  if (mpi) {
    // The dfg/mpi headers first: they include <mpi.h> without its C++ bindings.
    runtime = "#include \"dfg/mpi/abort.hpp\"\n#include \"dfg/mpi/barrier.hpp\"\n"
              "#include \"dfg/mpi/cycle_transfers.hpp\"\n" +
              std::string(m.has_gpudirect() ? "#include \"dfg/mpi/gpudirect.hpp\"\n" : "") +
              "#include \"dfg/mpi/session.hpp\"\n#include \"dfg/mpi/transfer.hpp\"\n" + runtime;
  }
  std::string run_host = render_template(template_text(mpi ? "run_host_mpi.cpp" : "run_host.cpp"),
                                         mpi ? Printer::Vars{{"host", m.host_name},
                                                             {"cpu", m.pe(m.cpu()).name},
                                                             {"make_workers", makes},
                                                             {"ns", host_namespace(m)}}
                                             : Printer::Vars{{"host", m.host_name}, {"make_workers", makes}});
  std::vector<std::string> cpu_names;
  std::string includes, workers;
  std::set<std::string> included;
  for (ir::PeId cpu : m.cpus) {
    cpu_names.push_back(m.pe(cpu).name);
    std::string lines = actor_includes(m, cpu);
    for (std::size_t at = 0; at < lines.size();) {
      const std::size_t end = lines.find('\n', at) + 1;
      if (included.insert(lines.substr(at, end - at)).second) includes += lines.substr(at, end - at);
      at = end;
    }
    workers += render_worker(m, cpu);
  }
  const std::string of = fmt::format("the worker{} of {}", m.cpus.size() > 1 ? "s" : "", fmt::join(cpu_names, ", "));
  return render_template(template_text("rank.cpp"),
                         {{"header", file_header(m, "//")},
                          {"host", m.host_name},
                          {"what", mpi ? fmt::format("the run's set-up, run_host, and {}.", of)
                                       : fmt::format("main, the run's set-up, and {}.", of)},
                          {"app_header", app_header_file(m)},
                          {"ns", host_namespace(m)},
                          {"runtime_includes", runtime},
                          {"actor_includes", includes},
                          {"worker", workers},
                          {"run_host", run_host}});
}

std::string render_gpu(const Model& m, ir::PeId gpu) {
  return render_template(template_text("gpu.cu"),
                         {{"header", file_header(m, "//")},
                          {"pe", m.pe(gpu).name},
                          {"device", std::to_string(m.pe(gpu).device)},
                          {"host", m.host_name},
                          {"app_header", app_header_file(m)},
                          {"ns", host_namespace(m)},
                          {"actor_includes", actor_includes(m, gpu)},
                          {"worker", render_worker(m, gpu)},
                          {"pe_ident", identifier(m.pe(gpu).name)},
                          {"cls", worker_class(m, gpu)}});
}

std::string render_main(std::span<const Model> hosts) {
  const Model& first = hosts.front();
  std::string host_list, host_names, decls, cases, gpu_tables, gpu_spans;
  bool any_gpu = false;
  for (const Model& m : hosts) {
    const std::string& name = m.host_name;
    const std::string id = identifier(name);
    host_list += fmt::format("{}{}", host_list.empty() ? "" : ", ", name);
    host_names += fmt::format("{}\"{}\"", host_names.empty() ? "" : ", ", name);
    decls += fmt::format("namespace host_{} {{\nint run_host(const dfg::Options& options, dfg::mpi::Session& mpi);  // {}\n}}\n",
                         id, rank_file(m));
    if (m.host + 1 == hosts.size()) decls += "\n";
    cases += fmt::format("case {}: return host_{}::run_host(options, mpi);  // host {}\n", m.host, id, name);
    std::vector<std::string> gpus;
    for (ir::PeId g : m.gpus) gpus.push_back(fmt::format("{{\"{}\", {}}}", m.pe(g).name, m.pe(g).device));
    any_gpu = any_gpu || !gpus.empty();
    if (!gpus.empty())
      gpu_tables += fmt::format("constexpr dfg::mpi::GpuUse kGpus_{}[] = {{{}}};\n", id, fmt::join(gpus, ", "));
    gpu_spans += fmt::format("{}{}", gpu_spans.empty() ? "" : ", ",
                             gpus.empty() ? std::string("{}") : "kGpus_" + id);
  }
  std::string gpu_check;
  if (any_gpu) {
    gpu_check = render_template(
        "/// The GPUs each host's PEs use (spec name, CUDA device ordinal), in kHosts order.\n"
        "$tables$constexpr std::span<const dfg::mpi::GpuUse> kGpus[] = {$spans$};\n"
        "\n"
        "/// \"\" when every GPU of `host` is a CUDA device of this machine, else the reason.\n"
        "std::string gpu_error(int host) {\n"
        "  const std::span<const dfg::mpi::GpuUse> gpus = kGpus[host];\n"
        "  if (gpus.empty()) return {};\n"
        "  int count = 0;\n"
        "  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;\n"
        "  return dfg::mpi::gpu_ordinals_error(gpus, count);\n"
        "}\n"
        "\n",
        {{"tables", gpu_tables}, {"spans", gpu_spans}});
  }
  return render_template(
      template_text("main.cpp"),
      {{"header", file_header(first, "//")},
       {"host_count", std::to_string(hosts.size())},
       {"host_list", host_list},
       {"cuda_include", any_gpu ? "\n#include <cuda_runtime.h>\n\n" : ""},
       {"first_header", app_header_file(first)},
       {"run_host_decls", decls},
       {"hosts", host_names},
       {"gpu_check", gpu_check},
       {"cases", cases},
       {"ns", host_namespace(first)},
       {"agree_gpus", any_gpu ? "  if (const int s = mpi.agree(app::gpu_error(mpi.host()), std::cerr); s != 0) return s;\n"
                              : ""}});
}

}  // namespace dfgc::codegen
