$header$
// app $app$ on $arch$: what the sources of host $host$ share.
// README.md describes the cycle model and the flags.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "dfg/cycle_barrier.hpp"
#include "dfg/flags.hpp"
#include "dfg/neighbour_sync.hpp"
#include "dfg/probe.hpp"
#include "dfg/profile.hpp"
#include "dfg/size.hpp"
#include "dfg/slots.hpp"
#include "dfg/stats.hpp"
#include "dfg/trace.hpp"
#include "dfg/window.hpp"
#include "dfg/worker.hpp"

namespace $ns$ {

$params$

$sizes$

/// The processing elements (PEs) of host $host$, one worker thread each.
enum Pe : int {
  $pes$
  kPeCount
};
inline constexpr std::array<const char*, kPeCount> kPeNames = {$pe_names$};
inline constexpr std::array<const char*, kPeCount> kPeKinds = {$pe_kinds$};

/// The trace tracks (--trace): one per CPU, one per GPU stream.
enum Track : int {
  $tracks$
};
inline constexpr std::array<const char*, $track_count$> kTrackNames = {
    $track_names$,
};

/// A firing, transfer or delay copy: what --stats and --trace call it, the trace track of its
/// slices, and the first cycle it runs (where it handles iteration 0). It runs in the cycles
/// [first_cycle, first_cycle + iterations): its window, the migration hook.
struct EntryInfo {
  const char* kind;
  const char* name;
  const char* where;
  int track;
  std::int64_t first_cycle;
  std::size_t (*bytes)(const Params&);  ///< a transfer's bytes per iteration; null otherwise
  const char* profile;  ///< --profile's name: a firing's node, a transfer's link "A.cpu -> A.g0"
  const char* at;       ///< a firing's node params, as --profile's "at" gives them: "first=1 last=28"
  int step;             ///< a transfer's step without overlap; 0 otherwise
};

$strategies$

/// The storage of every colour of the chosen strategy, per PE, indexed by colour. Each worker's
/// constructor allocates its PE's colours and fills its views in before any worker starts.
struct Memory {
  $memory$
};

/// What the workers share. main builds it, then the workers; after that only the
/// synchronisation objects, the probes and the stats change, each built for it.
struct Run {
  explicit Run(const dfg::Options& options);

  /// With --sync=neighbours (and overlap): waits until the neighbours of `pe` have finished
  /// cycle c - 1.
  void begin_cycle(int pe, std::int64_t c) {
    if (overlap && !barrier_sync) neighbours.wait_to_begin(pe, c);
  }
  /// Ends cycle c of `pe`: publishes it to the neighbours, or (--sync=barrier, or without
  /// overlap) waits at the barrier of all PEs.
  void end_cycle(int pe, std::int64_t c) {
    if (stats) stats->end_cycle(pe, c);
    if (overlap && !barrier_sync) {
      neighbours.finish(pe, c);
    } else {
      barrier.arrive_and_wait();
    }
  }
  /// Ends a transfer step without overlap: the barrier of all PEs.
  void end_phase() { barrier.arrive_and_wait(); }

  /// After the workers: writes the trace, prints the stats, writes the profile. Returns the
  /// exit status.
  int report(const dfg::Options& options);
  /// The entries of the strategy that runs.
  std::span<const EntryInfo> entries() const;

  const Params params;
  const std::int64_t iterations;
  const bool overlap;
  const bool barrier_sync;
  const std::int64_t cycles;  ///< iterations plus the pipeline's latency
  dfg::CycleBarrier barrier{kPeCount};
  dfg::NeighbourSync neighbours;
  dfg::WindowTable windows;
  dfg::Tracer tracer;
  std::unique_ptr<dfg::Stats> stats;  ///< with --stats or --profile only
  dfg::Probes probes;
  Memory memory;
};

/// One processing element: its actors, its storage, its cycle loops.
class Worker {
 public:
  virtual ~Worker() = default;
  virtual void run(dfg::Where& where) = 0;
};
$factories$
}  // namespace $ns$
