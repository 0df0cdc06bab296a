Sections of rank_<host>.cpp, main.cpp and the GPU sources (compiler/codegen/rank.cpp):
the pieces a printer repeats or chooses, by name. A line `@@ name` begins a section; the
newline before the next `@@` line or the file's end is not part of it (codegen/templates.hpp).

@@ cuda_include

#include <cuda_runtime.h>


@@ main_agree_gpus
  if (const int s = mpi.agree(app::gpu_error(mpi.host()), std::cerr); s != 0) return s;

@@ main_case
case $host$: return host_$id$::run_host(options, mpi);  // host $name$

@@ main_gpu_check
/// The GPUs each host's PEs use (spec name, CUDA device ordinal), in kHosts order.
$tables$constexpr std::span<const dfg::mpi::GpuUse> kGpus[] = {$spans$};

/// "" when every GPU of `host` is a CUDA device of this machine, else the reason.
std::string gpu_error(int host) {
  const std::span<const dfg::mpi::GpuUse> gpus = kGpus[host];
  if (gpus.empty()) return {};
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  return dfg::mpi::gpu_ordinals_error(gpus, count);
}


@@ main_gpu_span
kGpus_$id$
@@ main_gpu_table
constexpr dfg::mpi::GpuUse kGpus_$id$[] = {$gpus$};

@@ main_gpu_use
{"$name$", $device$}
@@ main_no_gpu_span
{}
@@ main_no_migrations
  const bool migrate = !flags.options.migrations.empty();
  if (const int s = mpi.agree(migrate ? "error: --migrate: this program has no alternative mappings" : "", std::cerr);
      s != 0)
    return s;

@@ main_run_host_decl
namespace host_$id$ {
int run_host(const dfg::Options& options, dfg::mpi::Session& mpi);  // $file$
}

@@ rank_alternatives
, overlap::kAlternatives, no_overlap::kAlternatives, kStateHandoffs
@@ rank_alternatives_mpi
, overlap::kAlternatives, no_overlap::kAlternatives, kStateHandoffs, true
@@ rank_check_migrations
  // --migrate against this host's alternatives; a refusal on any rank ends every rank.
  const auto& alternatives = options.overlap ? overlap::kAlternatives : no_overlap::kAlternatives;
  if (const int s = mpi.agree(dfg::check_requests(options, alternatives), std::cerr); s != 0) return s;

@@ rank_cycles_with_link
[&] {
      cycles();
      link.close();
    }
@@ rank_include
#include "$path$"

@@ rank_make_cpu_worker
workers.push_back(std::make_unique<$cls$>(run$mpi$));

@@ rank_make_gpu_worker
workers.push_back(make_$pe$(run));

@@ rank_migration_link
  // Live moves (--migrate-control) are agreed on by every rank through this link, which also
  // carries the state of a node that moves between hosts (dfg/mpi/migration_link.hpp).
  dfg::mpi::MigrationLink link(mpi, run.windows, kControlTag, kStateHandoffs, !options.migrate_control.empty());
  run.start_migrator(options.migrate_control, link, mpi.host(), kStateHandoffs);

@@ rank_what
main, the run's set-up, and the worker$s$ of $cpus$.
@@ rank_what_mpi
the run's set-up, run_host, and the worker$s$ of $cpus$.
@@ run_host_alternatives
, app::overlap::kAlternatives, app::no_overlap::kAlternatives
@@ run_host_batch
, {}, {}, app::kBatch
@@ struct_check
// struct $name$ of the spec: the class its tokens hold, laid out as dfgc counts their bytes.
static_assert(std::is_trivially_copyable_v<$cxx$> && std::is_standard_layout_v<$cxx$>,
              "struct $name$: its tokens move as bytes");
static_assert(sizeof($cxx$) == $size$ && alignof($cxx$) == $align$,
              "struct $name$: $size$ bytes aligned to $align$, as the spec lays it out");
$offsets$
@@ struct_checks

#include <cstddef>
#include <type_traits>
$checks$
@@ struct_offset
static_assert(offsetof($cxx$, $field$) == $offset$, "struct $name$: field $field$ at offset $offset$");

