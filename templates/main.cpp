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
#include "dfg/flags.hpp"
#include "$first_header$"  // kRuntimeParams: the same in every host's header

namespace app {

$run_host_decls$
namespace {

/// The hosts of the architecture, in spec order: host i runs on MPI rank i unless --hostmap
/// (or DFG_HOSTMAP) says otherwise.
constexpr std::string_view kHosts[] = {$hosts$};

$gpu_check$/// --trace FILE and --profile FILE: each rank writes its own file, FILE with the host's name
/// before the extension (trace.json -> trace.A.json).
std::string per_host_file(const std::string& file, std::string_view host) {
  const std::size_t slash = file.find_last_of('/');
  const std::size_t dot = file.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::size_t at = has_ext ? dot : file.size();
  return file.substr(0, at) + "." + std::string(host) + file.substr(at);
}

/// Runs host `host` on this rank.
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
  const dfg::FlagsResult flags = dfg::parse_flags(argc, argv, $params$);
  if (const int s = mpi.agree(flags.ok() ? std::string() : flags.error, std::cerr); s != 0) return s;
  if (flags.options.help) {
    if (mpi.rank() == 0) std::cout << dfg::usage(argv[0], $params$);
    return 0;
  }
  const bool migrate = !flags.options.migrations.empty();
  if (const int s = mpi.agree(migrate ? "error: --migrate: this program has no alternative mappings" : "", std::cerr);
      s != 0)
    return s;
  if (const int s = mpi.place(app::kHosts, {flags.options.hostmap, flags.options.cuda_aware_mpi}, std::cerr); s != 0)
    return s;
  // Ranks that ran different cycles would wait forever for each other's messages.
  const dfg::mpi::RunFlags run_flags{flags.options.iterations, flags.options.overlap,
                                     flags.options.sync == dfg::SyncMode::barrier};
  if (const int s = mpi.agree_run_flags(run_flags, std::cerr); s != 0) return s;
$agree_gpus$  dfg::Options options = flags.options;
  if (!options.trace_file.empty()) options.trace_file = app::per_host_file(options.trace_file, mpi.host_name());
  if (!options.profile_file.empty()) options.profile_file = app::per_host_file(options.profile_file, mpi.host_name());
  return dfg::mpi::main_guard(mpi, [&] { return app::run_host(mpi.host(), options, mpi); });
}
