#include <set>

#include <fmt/format.h>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"
#include "codegen/worker.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::string rank_file(const Model& m) { return m.files.rank; }

std::string gpu_file(const Model& m, ir::PeId gpu) {
  DFGC_INTERNAL_ASSERT(!m.files.gpu[gpu].empty(), "gpu_file of a PE that is no GPU");
  return m.files.gpu[gpu];
}

std::string app_header_file(const Model& m) { return m.files.app_header; }

std::string host_namespace(const Model& m) { return m.files.ns; }

std::string render_rank(const Model& m) {
  const bool mpi = m.multi_host();
  std::string makes;
  for (ir::PeId cpu : m.cpus)
    makes += render_part("rank_make_cpu_worker", {{"cls", m.pe(cpu).worker},
                                                  {"mpi", mpi && cpu == m.cpu() ? ", mpi" : ""}});
  for (ir::PeId gpu : m.gpus)
    makes += render_part("rank_make_gpu_worker", {{"pe", m.pe(gpu).ident}});
  std::vector<std::string_view> headers;
  if (mpi) {
    // dfg/mpi/check.hpp, through these, includes <mpi.h> without its C++ bindings; no other
    // header includes <mpi.h> (the formatter sorts the block).
    headers = {"dfg/mpi/abort.hpp", "dfg/mpi/barrier.hpp", "dfg/mpi/cycle_transfers.hpp"};
    if (m.has_gpudirect()) headers.push_back("dfg/mpi/gpudirect.hpp");
    if (!m.migrations.empty()) headers.push_back("dfg/mpi/migration_link.hpp");
    headers.insert(headers.end(), {"dfg/mpi/session.hpp", "dfg/mpi/transfer.hpp"});
  }
  headers.push_back(m.has_gpu() ? "dfg/cuda/buffers.hpp" : "dfg/host_buffer.hpp");
  std::string runtime;
  for (std::string_view h : headers)
    runtime += render_part("rank_include", {{"path", std::string(h)}});
  const bool migrates = !m.migrations.empty();
  std::string run_host = render_template(
      template_text(mpi ? TemplateFile("run_host_mpi.cpp") : TemplateFile("run_host.cpp")),
      mpi ? Printer::Vars{{"host", m.host_name},
                          {"cpu", m.pe(m.cpu()).name},
                          {"make_workers", makes},
                          {"ns", host_namespace(m)},
                          {"check_migrations",
                           migrates ? render_part("rank_check_migrations") : ""},
                          {"migration_link", migrates ? render_part("rank_migration_link") : ""},
                          {"link_capture", migrates ? ", &link" : ""},
                          {"cycles", migrates ? render_part("rank_cycles_with_link") : "cycles"}}
          : Printer::Vars{
                {"host", m.host_name},
                {"make_workers", makes},
                {"main_alternatives", migrates               ? render_part("run_host_alternatives")
                                      : m.program->batch > 1 ? render_part("run_host_batch")
                                                             : ""}});
  std::vector<std::string> cpu_names;
  std::string workers;
  std::set<std::string> included;
  std::set<std::uint32_t> structs;
  for (ir::PeId cpu : m.cpus) {
    cpu_names.push_back(m.pe(cpu).name);
    included.merge(actor_includes(m, cpu));
    structs.merge(structs_used(m, cpu));
    workers += render_worker(m, cpu);
  }
  const Printer::Vars of = {{"s", m.cpus.size() > 1 ? "s" : ""}, {"cpus", join(cpu_names)}};
  return render_template(
      template_text("rank.cpp"),
      {{"header", file_header(m, "//")},
       {"host", m.host_name},
       {"what", render_part(mpi ? TemplatePart("rank_what_mpi") : TemplatePart("rank_what"), of)},
       {"app_header", app_header_file(m)},
       {"ns", host_namespace(m)},
       {"runtime_includes", runtime},
       {"actor_includes", include_lines(included)},
       {"struct_checks", struct_checks(m, structs)},
       {"worker", workers},
       {"run_host", run_host},
       {"alternatives", migrates ? render_part(mpi ? TemplatePart("rank_alternatives_mpi")
                                                   : TemplatePart("rank_alternatives"))
                                 : ""}});
}

std::string render_gpu(const Model& m, ir::PeId gpu) {
  return render_template(template_text("gpu.cu"),
                         {{"header", file_header(m, "//")},
                          {"pe", m.pe(gpu).name},
                          {"device", std::to_string(m.pe(gpu).device)},
                          {"host", m.host_name},
                          {"app_header", app_header_file(m)},
                          {"ns", host_namespace(m)},
                          {"actor_includes", include_lines(actor_includes(m, gpu))},
                          {"struct_checks", struct_checks(m, structs_used(m, gpu))},
                          {"worker", render_worker(m, gpu)},
                          {"pe_ident", m.pe(gpu).ident},
                          {"cls", m.pe(gpu).worker}});
}

std::string render_main(std::span<const Model> hosts) {
  const Model& first = hosts.front();
  std::string decls, cases, gpu_tables;
  std::vector<std::string> host_list, host_names, gpu_spans;
  bool any_gpu = false;
  for (const Model& m : hosts) {
    const std::string& name = m.host_name;
    const std::string& id = m.files.ident;
    host_list.push_back(name);
    host_names.push_back(render_part("string_literal", {{"text", name}}));
    decls += render_part("main_run_host_decl", {{"id", id}, {"file", rank_file(m)}});
    if (m.host + 1 == hosts.size()) decls += "\n";
    cases +=
        render_part("main_case", {{"host", std::to_string(m.host)}, {"id", id}, {"name", name}});
    std::vector<std::string> gpus;
    for (ir::PeId g : m.gpus)
      gpus.push_back(render_part(
          "main_gpu_use", {{"name", m.pe(g).name}, {"device", std::to_string(m.pe(g).device)}}));
    any_gpu = any_gpu || !gpus.empty();
    if (!gpus.empty())
      gpu_tables += render_part("main_gpu_table", {{"id", id}, {"gpus", join(gpus)}});
    gpu_spans.push_back(gpus.empty() ? render_part("main_no_gpu_span")
                                     : render_part("main_gpu_span", {{"id", id}}));
  }
  std::string gpu_check;
  if (any_gpu)
    gpu_check = render_part("main_gpu_check", {{"tables", gpu_tables}, {"spans", join(gpu_spans)}});
  return render_template(
      template_text("main.cpp"),
      {{"header", file_header(first, "//")},
       {"host_count", std::to_string(hosts.size())},
       {"host_list", join(host_list)},
       {"cuda_include", any_gpu ? render_part("cuda_include") : ""},
       {"first_header", app_header_file(first)},
       {"run_host_decls", decls},
       {"hosts", join(host_names)},
       {"gpu_check", gpu_check},
       {"cases", cases},
       {"ns", host_namespace(first)},
       {"no_migrations", first.migrations.empty() ? render_part("main_no_migrations") : ""},
       {"agree_gpus", any_gpu ? render_part("main_agree_gpus") : ""},
       {"batch", first.program->batch > 1 ? ", " + host_namespace(first) + "::kBatch" : ""}});
}

}  // namespace dfgc::codegen
