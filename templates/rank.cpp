$header$
// Host $host$: main, the run's set-up, and the worker of $cpu$.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <span>
#include <vector>

#include "app.hpp"
#include "dfg/context.hpp"
$runtime_includes$

$actor_includes$

namespace app {
namespace {

/// Every entry's initial window: [first_cycle, first_cycle + iterations).
std::vector<dfg::Window> windows_of(std::span<const EntryInfo> entries, std::int64_t iterations) {
  std::vector<dfg::Window> windows;
  for (const EntryInfo& e : entries) windows.push_back({e.first_cycle, e.first_cycle + iterations});
  return windows;
}

}  // namespace

Run::Run(const dfg::Options& options)
    : params(params_of(options.params)),
      iterations(options.iterations),
      overlap(options.overlap),
      barrier_sync(options.sync == dfg::SyncMode::barrier),
      cycles(iterations + (overlap ? overlap::kLatency : no_overlap::kLatency)),
      neighbours(overlap::neighbours()),
      windows(windows_of(overlap ? std::span<const EntryInfo>(overlap::kEntries)
                                 : std::span<const EntryInfo>(no_overlap::kEntries),
                         iterations),
              kPeCount),
      tracer(0, !options.trace_file.empty()),
      stats(options.stats ? std::make_unique<dfg::Stats>(cycles, overlap ? overlap::kLatency
                                                                         : no_overlap::kLatency)
                          : nullptr),
      probes(tracer, options.stats_per_item ? stats.get() : nullptr) {
  for (const char* track : kTrackNames) tracer.add_track(track);
  if (stats) {
    for (const char* pe : kPeNames) stats->add_pe(pe);
  }
  for (const EntryInfo& e : overlap ? std::span<const EntryInfo>(overlap::kEntries)
                                    : std::span<const EntryInfo>(no_overlap::kEntries)) {
    probes.add(e.track, e.name, e.kind);
    if (stats && options.stats_per_item)
      stats->add_entry(e.kind, e.name, e.where, e.bytes ? e.bytes(params) : 0);
  }
}

int Run::report(const dfg::Options& options) {
  if (!options.trace_file.empty()) {
    if (const std::string error = tracer.write_file(options.trace_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
  }
  if (stats) stats->print(std::cout);
  return 0;
}

namespace {

$worker$
/// Builds the workers of host $host$ (allocating the storage), runs one thread per PE, reports.
int run_host(const dfg::Options& options) {
  Run run(options);
  std::vector<std::unique_ptr<Worker>> workers;  // in Pe order
  $make_workers$
  dfg::Workers threads;
  for (std::size_t pe = 0; pe < workers.size(); ++pe) {
    Worker& worker = *workers[pe];
    threads.spawn(kPeNames[pe], [&worker](dfg::Where& where) { worker.run(where); });
  }
  if (const int status = threads.join_and_report(std::cerr); status != 0) return status;
  return run.report(options);
}

}  // namespace
}  // namespace app

int main(int argc, char** argv) {
  const dfg::FlagsResult flags = dfg::parse_flags(argc, argv, app::kRuntimeParams);
  if (!flags.ok()) {
    std::cerr << flags.error << '\n';
    return 1;
  }
  if (flags.options.help) {
    std::cout << dfg::usage(argv[0], app::kRuntimeParams);
    return 0;
  }
  if (!flags.options.migrations.empty()) {
    std::cerr << "error: --migrate: this program has no alternative mappings\n";
    return 1;
  }
  return dfg::main_guard(std::cerr, [&] { return app::run_host(flags.options); });
}
