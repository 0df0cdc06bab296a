$header$
// main of the program on $host_count$ hosts ($host_list$): one MPI rank per host. It starts MPI,
// places the hosts on the ranks, checks this host's GPUs, then runs the host (rank_<host>.cpp).
// Run it as `mpirun -np $host_count$ app [flags]`; README.md describes the flags.
#include "dfg/mpi/abort.hpp"  // first: <mpi.h> without the C++ bindings
#include "dfg/mpi/placement.hpp"
#include "dfg/mpi/session.hpp"

#include <iostream>
#include <span>
#include <string>
#include <string_view>
$cuda_include$
#include "dfg/checkpoint.hpp"
#include "dfg/flags.hpp"
#include "dfg/outputs.hpp"
#include "dfg/size.hpp"
#include "$first_header$"  // kRuntimeParams, kRuntimeSizes: the same in every host's header

namespace app {

$run_host_decls$
namespace {

/// The hosts of the architecture, in spec order: host i runs on MPI rank i unless --hostmap
/// (or DFG_HOSTMAP) says otherwise.
constexpr std::string_view kHosts[] = {$hosts$};

$gpu_check$/// Runs host `host` on this rank.
int run_host(int host, const dfg::Options& options, dfg::mpi::Session& mpi) {
  switch (host) {
    $cases$
  }
  return 1;
}

}  // namespace
}  // namespace app

int main(int argc, char** argv) {
  dfg::mpi::Session mpi(argc, argv);
  // Every start-up check is agreed on by all ranks: its error is printed once, every rank exits 1.
  const dfg::FlagsResult flags = dfg::parse_flags(argc, argv, $ns$::kRuntimeParams$batch$);
  if (const int s = mpi.agree(flags.ok() ? std::string() : flags.error, std::cerr); s != 0) return s;
  if (const int s = mpi.agree(dfg::several_hosts_flags_error(flags.options, $host_count$), std::cerr); s != 0)
    return s;
  if (flags.options.help) {
    if (mpi.rank() == 0) std::cout << dfg::usage(argv[0], $ns$::kRuntimeParams$batch$);
    return dfg::finish_stdout(0, std::cerr);
  }
$no_migrations$  if (const int s = mpi.place(app::kHosts, {flags.options.hostmap, flags.options.cuda_aware_mpi}, std::cerr); s != 0)
    return s;
  // Ranks that ran different cycles, moved nodes at different iterations or sized their tokens
  // differently would wait forever for each other's messages.
  if (const int s = mpi.agree_run_flags(dfg::mpi::run_flags(flags.options), std::cerr); s != 0) return s;
  if (const int s = mpi.agree_params($ns$::kRuntimeParams, flags.options.params, std::cerr); s != 0) return s;
  const std::string size_error =
      dfg::token_size_error($ns$::kRuntimeSizes, $ns$::params_of(flags.options.params),
                            $ns$::kRuntimeParams, flags.options.params);
  if (const int s = mpi.agree(size_error, std::cerr); s != 0) return s;
$agree_gpus$  // --trace FILE and --profile FILE: each rank writes its own file, FILE with its host's name
  // before the extension (trace.json -> trace.A.json).
  dfg::Options options = flags.options;
  if (const int s = mpi.agree(dfg::open_outputs(options, true), std::cerr); s != 0) return s;
  if (!options.trace_file.empty()) options.trace_file = dfg::per_host_file(options.trace_file, mpi.host_name());
  if (!options.profile_file.empty()) options.profile_file = dfg::per_host_file(options.profile_file, mpi.host_name());
  if (!options.stats_json_file.empty()) options.stats_json_file = dfg::per_host_file(options.stats_json_file, mpi.host_name());
  if (const int s = mpi.agree(dfg::open_outputs(options, false), std::cerr); s != 0) return s;
  const int status = dfg::mpi::main_guard(mpi, [&] { return app::run_host(mpi.host(), options, mpi); });
  return dfg::finish_stdout(status, std::cerr);
}
