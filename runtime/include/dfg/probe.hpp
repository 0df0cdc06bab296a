/// \file
/// dfg::Probe: times one CPU firing (or delay copy) for --trace and --stats, from construction
/// to destruction:
///
///     dfg::Probe probe(run.probes, overlap::fire_p, j);   // entry fire_p, iteration j
///     p.fire(...);
///
/// dfg::Probes names where the times go: a Tracer (a slice on the entry's track) and optional
/// Stats (the entry's mean/min/max). Entries are the indices the program gives its firings,
/// transfers and copies; Stats entries must be added in the same order.
///
/// Guarantees: Probes is set up before the workers start (add() allocates) and read-only after.
/// A Probe belongs to the thread that runs the entry; with tracing and stats both off it reads
/// no clock (one branch); it never locks, and allocates only when a trace track grows beyond
/// its reserve (dfg::Tracer::record).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "dfg/stats.hpp"
#include "dfg/trace.hpp"

namespace dfg {

class Probes {
 public:
  struct Entry {
    int track = 0;  ///< the trace track its slices go on
    std::string_view name;
    std::string_view cat;  ///< "firing", "transfer", "copy"
  };

  /// `stats` may be null (no --stats).
  Probes(Tracer& tracer, Stats* stats) : tracer_(tracer), stats_(stats) {}

  /// Adds the next entry (index = number of earlier add() calls). Set-up only.
  void add(int track, std::string_view name, std::string_view cat) {
    entries_.push_back({track, name, cat});
  }

  /// Whether anything is recorded at all.
  bool on() const noexcept { return tracer_.enabled() || stats_ != nullptr; }

  /// Records that `entry` ran from `begin_us` for `dur_us` (microseconds on the tracer's axis).
  void record(std::size_t entry, std::int64_t iteration, double begin_us, double dur_us) {
    const Entry& e = entries_[entry];
    tracer_.record_us(e.track, e.name, e.cat, begin_us, dur_us, iteration);
    if (stats_ != nullptr) stats_->add_time(static_cast<int>(entry), dur_us * 1e-6);
  }

  Tracer& tracer() const noexcept { return tracer_; }

 private:
  Tracer& tracer_;
  Stats* stats_;
  std::vector<Entry> entries_;
};

/// Times the rest of the enclosing scope as one run of a Probes entry.
class Probe {
 public:
  Probe(Probes& probes, std::size_t entry, std::int64_t iteration)
      : probes_(probes),
        entry_(entry),
        iteration_(iteration),
        begin_(probes.on() ? Tracer::Clock::now() : Tracer::Clock::time_point()) {}
  ~Probe() {
    if (!probes_.on()) return;
    const Tracer::Clock::time_point end = Tracer::Clock::now();
    probes_.record(entry_, iteration_, probes_.tracer().to_us(begin_),
                   std::chrono::duration<double, std::micro>(end - begin_).count());
  }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

 private:
  Probes& probes_;
  std::size_t entry_;
  std::int64_t iteration_;
  Tracer::Clock::time_point begin_;
};

}  // namespace dfg
