/// \file
/// Buffer sharing. Buffer nodes of one PE that are never live at the same time share storage: for
/// each strategy and PE the pass builds the incompatibility graph of the PE's buffer nodes, colours
/// it with DSatur, and allocates each colour once, with as many slots as its deepest member and
/// slots as large as its largest member. It reports, per PE, the bytes before and after sharing.
///
/// Liveness, in the cycle model of latency.hpp. A PE's cycle is a sequence of points: without
/// overlap the transfer steps 0 .. S-1, then the PE's firings in schedule order; with overlap its
/// firings only (transfers run during the whole cycle). Points lie on a circle: a cycle's end meets
/// the next cycle's start. A buffer node is live over a set of points:
///  - A single buffer, from the point it is written (its producer's firing, or the step of the
///    transfer that fills it) to its last read: a consumer's firing (a delay copy runs right after
///    its consumer, at the same point) in the same cycle, or, without overlap, the step of a
///    transfer that reads it, which is in the next cycle. When that wraps past the write point, it
///    is live everywhere.
///  - A double buffer (overlap only) has one slot in transfer during the whole cycle, never
///    shared: the slot being sent (written last cycle) or being received (read next cycle). Its
///    other slot is the shareable one, live: when the buffer sends, from its producer's firing to
///    the end of the cycle (that slot goes out next cycle); when it receives and only local firings
///    read it, from the start of the cycle to the last of them; when it receives and forwards,
///    everywhere (that slot is being sent on).
///  - A delay line holds tokens for later cycles in every slot: live everywhere. So does the
///    buffer an aliased line reads in place (resync_inputs.hpp), with the slots the line needs.
///  - A buffer that a firing on another cpu of the host reads (shared memory) is live everywhere:
///    the other cpu's points are not ordered with this PE's.
/// Two buffer nodes of a PE are incompatible when their live points intersect, or when both have
/// more than one slot (a colour has room for one slot in transfer). Two buffer nodes touching the
/// same node are live together at that node's point, so they are incompatible: the papers' rule (a
/// node may read and write at once) follows from the liveness rule. A single buffer in a colour
/// with a double one lives in the double one's shareable slot: the slot the double one is written
/// in this cycle when it sends (colour lag 0), the slot it received last cycle when it receives
/// (colour lag 1), so its slot alternates from cycle to cycle.
/// Sharing is decided on liveness alone, so it holds at any size: a colour whose members' sizes
/// depend on runtime params is sized by its largest member when the generated program starts.
///
/// DSatur colours the uncoloured vertex with the most distinct colours among its neighbours next;
/// ties by degree, then by size descending, then by name. The vertex takes the free colour whose
/// allocation grows least (the lowest such), or a new colour when none is free. Colours are then
/// numbered in the order of their smallest member name, so that a colour's number depends on its
/// members only. exact_colouring, a branch and bound for at most 20 vertices, measures the gap.
///
/// Cost: a buffer node's live points are at most two ranges, so the conflicts come from a sweep
/// over the ranges sorted by first point, O(n log n + conflicts) for n buffer nodes of a PE, and
/// DSatur keeps the uncoloured vertices ordered, O((n + conflicts) log n + n x colours): near
/// linear on chains and other sparse graphs. The buffers of more than one slot, which conflict
/// pairwise, are the graph's clique (InterferenceGraph::add_clique): their pairs are neither
/// listed nor swept, and DSatur counts the clique's colours once for all its members.
///
/// Needs: the Program (types), the Schedule, the BufferPlan, the BufferDepths, the Latencies
/// (transfer steps) and the DelayLines. Produces: BufferColouring.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "passes/buffer_depth.hpp"
#include "passes/resync_inputs.hpp"

namespace dfgc {

/// Vertices are buffer nodes of one PE; conflicts are symmetric, kept as sorted adjacency lists.
class InterferenceGraph {
 public:
  std::vector<std::string> names;
  std::vector<std::int64_t> bytes;  ///< per slot
  std::vector<std::uint32_t> slots;

  std::size_t size() const { return names.size(); }
  std::uint32_t add(std::string name, std::int64_t bytes, std::uint32_t slots);
  /// Records that a and b (distinct vertices) conflict; a pair given twice is recorded once, a
  /// pair of the clique not at all (it is implied). Cheapest when the pairs come in increasing
  /// order.
  void add_conflict(std::uint32_t a, std::uint32_t b);
  /// Declares that `members` (distinct vertices) conflict pairwise, without storing the pairs:
  /// the buffers of more than one slot of a PE, thousands on a long CPU/GPU chain, whose pairs
  /// would take memory and time quadratic in their number. Once per graph, before add_conflict.
  void add_clique(const std::vector<std::uint32_t>& members);
  bool conflicts(std::uint32_t a, std::uint32_t b) const;
  bool in_clique(std::uint32_t v) const { return v < in_clique_.size() && in_clique_[v]; }
  std::uint32_t clique_size() const { return clique_size_; }
  /// The vertices that conflict with `v` other than through the clique, in increasing order.
  const std::vector<std::uint32_t>& neighbours(std::uint32_t v) const;
  /// How many vertices conflict with `v`, the clique's included.
  std::size_t degree(std::uint32_t v) const {
    return neighbours(v).size() + (in_clique(v) ? clique_size_ - 1 : 0);
  }

 private:
  std::vector<std::vector<std::uint32_t>> adjacent_;
  std::vector<bool> in_clique_;
  std::uint32_t clique_size_ = 0;
};

/// An inclusive range of points of a PE's cycle (see the file comment).
struct PointRange {
  std::size_t first = 0;
  std::size_t last = 0;
};

/// The pairs (i, j), i < j, of items some range of which intersect, each once and in increasing
/// order, but for pairs of two items marked in `skip` (when given: a clique already conflicts): a
/// sweep over the ranges in order of their first point, in O(r log r + pairs) for r ranges.
std::vector<std::pair<std::uint32_t, std::uint32_t>> intersecting_pairs(
    const std::vector<std::vector<PointRange>>& ranges, const std::vector<bool>* skip = nullptr);

struct Colouring {
  std::vector<std::uint32_t> colour;  ///< per vertex
  std::uint32_t count = 0;
  std::int64_t bytes = 0;  ///< allocated: per colour, deepest member x largest member
};

/// The bytes allocated for a colouring: per colour, its deepest member's slots x its largest size.
std::int64_t allocated_bytes(const InterferenceGraph& g, const std::vector<std::uint32_t>& colour);

Colouring dsatur(const InterferenceGraph& g);

enum class ColouringGoal { fewest_colours, fewest_bytes };
/// An optimal colouring for `goal`; for at most 20 vertices.
Colouring exact_colouring(const InterferenceGraph& g, ColouringGoal goal);

struct PeColouring {
  ir::PeId pe = 0;
  std::vector<ir::BufferId> buffers;  ///< the IG buffers of the vertices (see build_ig.hpp)
  InterferenceGraph graph;
  Colouring colouring;
  std::int64_t bytes_before = 0;
};

using BufferColouring = ir::PerStrategy<std::vector<PeColouring>>;  ///< per strategy, per PE

BufferColouring color_buffers(const ir::Program& program, const Schedule& schedule,
                              const BufferPlan& plan, const BufferDepths& depths,
                              const Latencies& latencies, const DelayLines& delays);

/// Per strategy and PE, one line per buffer ("<buffer> colour <c>") and the memory line.
std::string dump(const BufferColouring& colouring, const ir::Program& program);

}  // namespace dfgc
