$header$
// Host $host$: $what$
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "$app_header$"
#include "dfg/context.hpp"
#include "dfg/run_tables.hpp"
$runtime_includes$

$actor_includes$

namespace $ns$ {

Run::Run(const dfg::Options& options)
    : params(params_of(options.params)),
      iterations(options.iterations),
      overlap(options.overlap),
      barrier_sync(options.sync == dfg::SyncMode::barrier),
      cycles(iterations + (overlap ? overlap::kLatency : no_overlap::kLatency)),
      neighbours(overlap::neighbours()),
      windows(dfg::initial_windows(entries(), iterations), kPeCount),
      tracer(0, !options.trace_file.empty()),
      stats(options.measures() ? std::make_unique<dfg::Stats>(cycles, overlap ? overlap::kLatency
                                                                              : no_overlap::kLatency)
                               : nullptr),
      probes(tracer, options.measures_items() ? stats.get() : nullptr) {
  for (const char* track : kTrackNames) tracer.add_track(track);
  if (stats) {
    for (const char* pe : kPeNames) stats->add_pe(pe);
  }
  dfg::register_entries(entries(), params, probes, options.measures_items() ? stats.get() : nullptr);
}

std::span<const EntryInfo> Run::entries() const {
  return overlap ? std::span<const EntryInfo>(overlap::kEntries) : std::span<const EntryInfo>(no_overlap::kEntries);
}

int Run::report(const dfg::Options& options) {
  return dfg::write_reports(options, tracer, stats.get(), overlap, iterations, kPeNames, kPeKinds, entries(), params);
}

namespace {

$worker$
$run_host$