/// \file
/// dfg::Alternative: one migration alternative of a node (`migrates` in the spec) as a host's
/// generated tables give it, for the Migrator (dfg/migration.hpp) and --rebalance
/// (dfg/rebalance.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

namespace dfg {

/// One migration alternative as this host's tables give it.
struct Alternative {
  const char* node;                    ///< "i"
  const char* from;                    ///< its base PE: "A.c0"
  const char* to;                      ///< "A.c1"
  bool reversible;                     ///< a move back needs no shift
  std::span<const std::size_t> stop;   ///< old-only entries of this host
  std::span<const std::size_t> start;  ///< new-only entries of this host
  /// A joint alternative (the moves of several neighbouring nodes at once, dfg/placement.hpp):
  /// the indices of the single alternatives it joins, ascending; its node, from and to name them
  /// all ("g + a"). Empty for a single alternative.
  std::span<const std::size_t> parts = {};
  /// The node's state handoff on this host (RunState::handoffs) when its state moves with it
  /// and one end is on this host, else -1; the hosts of the two ends, and the MPI tag of the
  /// state when they differ (else -1).
  int handoff = -1;
  int from_host = 0, to_host = 0;
  int state_tag = -1;
};

namespace detail {

/// Whether two alternatives change a common entry (neighbouring nodes: one cannot move while
/// the other's move is in effect).
inline bool shares_entry(const Alternative& a, const Alternative& b) {
  for (std::size_t x : a.stop)
    if (std::find(b.stop.begin(), b.stop.end(), x) != b.stop.end()) return true;
  return false;
}

}  // namespace detail

}  // namespace dfg
