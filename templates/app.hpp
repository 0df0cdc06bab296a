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

#include "dfg/run.hpp"
#include "dfg/size.hpp"

namespace $ns$ {

$params$

$sizes$

/// The processing elements (PEs) of host $host$, one worker thread each.
enum Pe : int {
  $pes$
};
inline constexpr std::array<const char*, kPeCount> kPeNames = {$pe_names$};
inline constexpr std::array<const char*, kPeCount> kPeKinds = {$pe_kinds$};

/// The trace tracks (--trace): one per CPU, one per GPU stream.
enum Track : int {
  $tracks$
};
inline constexpr std::array<const char*, $track_count$> kTrackNames = {
    $track_names$
};

using EntryInfo = dfg::EntryInfo<Params>;  // a row of kEntries (dfg/run.hpp)

$strategies$

$checkpoint$

/// The storage of every colour of the chosen strategy, per PE, indexed by colour. Each worker's
/// constructor allocates its PE's colours and fills its views in before any worker starts.
struct Memory {
  $memory$
};

/// What the workers share (dfg/run.hpp), built from this host's tables.
struct Run : dfg::RunState<Params, Memory, kPeCount> {
  explicit Run(const dfg::Options& options);
};

using Worker = dfg::PeWorker;  // one processing element: its actors, its storage, its cycle loops
$factories$
}  // namespace $ns$
