$header$
// Host $host$: $what$
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <span>
#include <vector>

#include "$app_header$"
#include "dfg/context.hpp"
$runtime_includes$

$actor_includes$

namespace $ns$ {
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
      stats(options.measures() ? std::make_unique<dfg::Stats>(cycles, overlap ? overlap::kLatency
                                                                              : no_overlap::kLatency)
                               : nullptr),
      probes(tracer, options.measures_items() ? stats.get() : nullptr) {
  for (const char* track : kTrackNames) tracer.add_track(track);
  if (stats) {
    for (const char* pe : kPeNames) stats->add_pe(pe);
  }
  for (const EntryInfo& e : entries()) {
    probes.add(e.track, e.name, e.kind);
    if (stats && options.measures_items())
      stats->add_entry(e.kind, e.name, e.where, e.bytes ? e.bytes(params) : 0);
  }
}

std::span<const EntryInfo> Run::entries() const {
  return overlap ? std::span<const EntryInfo>(overlap::kEntries) : std::span<const EntryInfo>(no_overlap::kEntries);
}

int Run::report(const dfg::Options& options) {
  if (!options.trace_file.empty()) {
    if (const std::string error = tracer.write_file(options.trace_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
  }
  if (stats && options.stats) stats->print(std::cout, options.stats_per_item);
  if (!options.profile_file.empty()) {
    dfg::Profile profile(overlap, iterations, stats->summary());
    for (std::size_t pe = 0; pe < kPeCount; ++pe) profile.add_pe(kPeNames[pe], kPeKinds[pe]);
    for (const EntryInfo& e : entries())
      profile.add_entry(e.kind, e.profile, e.where, e.bytes ? e.bytes(params) : 0, e.step);
    if (const std::string error = profile.write(options.profile_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
    if (!profile.period_measured())
      std::cerr << "warning: --profile: too few iterations to measure the period; no cycle overhead written\n";
  }
  return 0;
}

namespace {

$worker$
$run_host$