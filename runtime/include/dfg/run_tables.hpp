/// \file
/// The start-up and the end of a generated program's run, written once here instead of in every
/// generated rank file: the initial iteration windows, the registration of every firing, transfer
/// and delay copy with the probes and the stats, and the reports written after the workers joined
/// (--trace, --stats, --profile).
///
/// `Entry` is the generated program's EntryInfo: kind, name, where, track, first_cycle,
/// bytes(params) (or null), profile, at, step. `Params` is its runtime-param struct.
///
/// Guarantees: called by the main thread only, before the workers start (initial_windows,
/// register_entries) or after they joined (write_reports); they allocate, and do not block
/// beyond writing the report files.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "dfg/flags.hpp"
#include "dfg/probe.hpp"
#include "dfg/profile.hpp"
#include "dfg/stats.hpp"
#include "dfg/trace.hpp"
#include "dfg/window.hpp"

namespace dfg {

/// Every entry's initial window: [first_cycle, first_cycle + iterations).
template <class Entry>
std::vector<Window> initial_windows(std::span<const Entry> entries, std::int64_t iterations) {
  std::vector<Window> windows;
  windows.reserve(entries.size());
  for (const Entry& e : entries) windows.push_back({e.first_cycle, e.first_cycle + iterations});
  return windows;
}

/// Registers every entry with the probes, and with `stats` when each item is timed (may be null).
template <class Entry, class Params>
void register_entries(std::span<const Entry> entries, const Params& params, Probes& probes, Stats* stats) {
  for (const Entry& e : entries) {
    probes.add(e.track, e.name, e.kind);
    if (stats) stats->add_entry(e.kind, e.name, e.where, e.bytes ? e.bytes(params) : 0);
  }
}

/// After the run: writes the trace, prints the stats, writes the profile, as the options ask.
/// Returns the exit status (1 when a file cannot be written).
template <class Entry, class Params, std::size_t PeCount>
int write_reports(const Options& options, const Tracer& tracer, const Stats* stats, bool overlap,
                  std::int64_t iterations, const std::array<const char*, PeCount>& pe_names,
                  const std::array<const char*, PeCount>& pe_kinds, std::span<const Entry> entries,
                  const Params& params) {
  if (!options.trace_file.empty()) {
    if (const std::string error = tracer.write_file(options.trace_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
  }
  if (stats && options.stats) stats->print(std::cout, options.stats_per_item);
  if (stats && !options.profile_file.empty()) {
    Profile profile(overlap, iterations, stats->summary());
    for (std::size_t pe = 0; pe < PeCount; ++pe) profile.add_pe(pe_names[pe], pe_kinds[pe]);
    for (const Entry& e : entries)
      profile.add_entry(e.kind, e.profile, e.where, e.bytes ? e.bytes(params) : 0, e.step, e.at);
    if (const std::string error = profile.write(options.profile_file); !error.empty()) {
      std::cerr << error << '\n';
      return 1;
    }
    if (!profile.period_measured())
      std::cerr << "warning: --profile: too few iterations to measure the period; no cycle overhead written\n";
  }
  return 0;
}

}  // namespace dfg
