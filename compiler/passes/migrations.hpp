/// \file
/// Migration alternatives: for every node the spec lets migrate (`migrates B.g1`), the
/// implementation graph with the node on that PE, set against the base graph, and what switching
/// from one to the other at an iteration j* costs.
///
/// The rule (the task-migration paper's three cases are instances of it). Let G0 be the base
/// graph and G1 the alternative, both of one strategy; F(e) is an entry's first cycle (a firing's
/// latency, a transfer's or delay copy's first cycle); an entry handles iteration c - F(e) in
/// cycle c. A buffer of G1 *keeps* the storage of its G0 namesake when both have the same size,
/// slots, colour slots and lag and the same writer with its first cycle, and G1 reads it only at
/// times G0 reads it too (a transfer in the same cycle, or the same node or delay copy): its slots
/// are then live in G1 only while they are in G0, and G0's colouring holds for it. Every other
/// buffer of G1 gets storage of its own (G1's colours, restricted to those buffers), never shared
/// with storage that is live during the transition: that is the extra memory of the
/// alternative. An entry of G1 is *common* when an entry of G0 has the same kind, endpoints, first
/// cycle and storage; the others are *old-only* (G0) and *new-only* (G1).
/// Switching at j*: G0's entries (old-only and common) handle the iterations
/// [0, j*) in cycles F0(e) + i, G1's entries (new-only and common) the iterations [j*, N) in
/// cycles F1(e) + delta + i, where
///   delta = max(0, max over nodes n of F0(n) - F1(n)),
/// the smallest shift for which no node fires twice in one cycle and every node fires iteration
/// j* after j* - 1 (F1(n) + delta + j* > F0(n) + j* - 1). Storage is never used twice: G0's storage
/// sees in each cycle a subset of G0's own accesses (a common access shifted by delta is G0's
/// access for iteration i + delta), the new storage a subset of G1's. A node n then idles
///   idle(n) = F1(n) + delta - F0(n)
/// cycles between iterations j* - 1 and j*: the sources idle delta (the *pause*), the sinks at most
/// the *gap*. With k = max F0(n) - F1(n) the paper's cases are: equal paths (k = 0: no pause, no
/// gap), a longer new path (k = 0, gap = the difference), a shorter one (k > 0).
///
/// The shorter case has two policies. `pause`: delta = k, the sources pause k iterations and the
/// output does not stop (the paper). `pad` (the default): G1 is rebuilt with every node's first
/// cycle floored at its first cycle in G0 (latency.hpp's floor), so k = 0 and delta = 0: a token
/// that the new path brings early waits in a delay line (resync_inputs) on the PE of the node that
/// reads it, k slots in all along the path. No pause and no gap, for the memory of those slots;
/// the pipeline's latency stays the old one after the move.
///
/// Moves that compose. Two single alternatives of different nodes *conflict* when both stop a
/// common entry of G0 (the nodes are neighbours: the transfer between them, say). Independent
/// alternatives are in effect together as they are; for conflicting ones the mapping with both
/// moves in effect is a graph of its own, G{a,b}: a *joint* alternative, planned like a single
/// one against G0 (its nodes' instances are the single alternatives', one per node and PE). The
/// joints are the sets of single alternatives of distinct nodes that the conflicts connect (two
/// parts or more), smallest first, at most kDefaultJoints or --joints; on one host only (a program
/// on several hosts moves one node a change). At run time a placement (the moves in effect) is a
/// set of alternatives that do not conflict, each connected set of moves its joint
/// (dfg/placement.hpp).
///
/// Needs: a checked Program and its implementation graph. Produces: Migrations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ig.hpp"
#include "passes/latency.hpp"

namespace dfgc {

enum class ShortPathPolicy : std::uint8_t { pad, pause };
std::string_view to_string(ShortPathPolicy p);

/// A firing, transfer or delay copy of one of the two graphs.
struct MigrationEntry {
  enum class Kind : std::uint8_t { firing, transfer, copy };
  Kind kind = Kind::firing;
  std::uint32_t id = 0;           ///< NodeId, TransferId or CopyId in its graph
  std::uint32_t first_cycle = 0;  ///< in its graph, before any shift
};

/// One strategy of one alternative.
struct MigrationSide {
  std::vector<MigrationEntry> common;    ///< entries of G1 that G0 has too
  std::vector<MigrationEntry> old_only;  ///< entries of G0 only: they stop at j*
  std::vector<MigrationEntry> new_only;  ///< entries of G1 only: they start at j*
  /// Per G1 buffer: the G0 buffer whose storage it keeps, or -1 when it has storage of its own.
  std::vector<std::int64_t> base_buffer;
  std::uint32_t k = 0;              ///< max over nodes of F0(n) - F1(n), before padding; >= 0
  std::uint32_t padding = 0;        ///< policy pad: the k cycles of delay slots the new path got
  std::uint32_t delta = 0;          ///< the shift of G1's entries; the pause of the sources
  std::uint32_t gap = 0;            ///< the largest idle of a node without outputs
  std::vector<std::uint32_t> idle;  ///< per node: cycles between iterations j* - 1 and j*
  std::vector<std::int64_t> extra_bytes;  ///< per PE: storage of the new-only buffers
  std::uint32_t steps = 1;  ///< no overlap: transfer steps of the union (step = steps - hop)
};

struct Migration {
  ir::NodeId node = 0;
  ir::PeId from = 0;
  ir::PeId to = 0;
  ShortPathPolicy policy = ShortPathPolicy::pad;
  /// A joint alternative's parts: the indices in Migrations::alternatives of the single
  /// alternatives whose moves it makes together, ascending; empty for a single alternative. A
  /// joint's node, from and to are its first part's, and `program` has every part's node moved.
  std::vector<std::size_t> parts{};
  ir::Program program;  ///< the program with the node on `to` (a joint: every part's node)
  /// A loop of `program` its initial tokens do not cover: the node may not move there, and
  /// nothing below is set (driver/pipeline.hpp reports it).
  std::optional<StrategyLoop> uncovered{};
  ir::Ig ig;  ///< G1
  ir::PerStrategy<MigrationSide> sides;
};

/// At most this many joint alternatives a program by default (--joints): beyond, the rest are
/// listed as not planned.
inline constexpr std::size_t kDefaultJoints = 16;

struct Migrations {
  /// The single alternatives, by node in spec order, then alternative in spec order; then the
  /// joint ones (Migration::parts), by number of parts, then parts.
  std::vector<Migration> alternatives;
  /// The sets of moves that would have needed a joint alternative and have none, each with the
  /// reason ("g:A.c2 + a:A.c1: a loop ...").
  std::vector<std::string> unplanned;
};

/// G1 for every alternative of every node, classified against `base` (G0); then, on one host,
/// at most `joints` joint alternatives (Moves that compose, above).
Migrations plan_migrations(const ir::Program& program, const ir::Ig& base,
                           ShortPathPolicy policy = ShortPathPolicy::pad,
                           std::size_t joints = kDefaultJoints);

/// One alternative against G0; `to` need not be listed in the spec (tests use this).
Migration plan_migration(const ir::Program& program, const ir::Ig& base, ir::NodeId node,
                         ir::PeId to, ShortPathPolicy policy);

/// The edges with initial tokens (`delay`) whose tokens would not survive a switch to `m` in
/// strategy `s`: the consumer's port reads, in G1, storage of its own (not G0's), so the tokens
/// that G0's iterations before j* left for G1's first iterations after it are not there (the
/// consumer reads the new line's slots, never written). A move of the loop's own node, or of the
/// consumer of a delayed edge to another PE, is such a switch where the line moves with it.
std::vector<ir::EdgeId> lost_initial_tokens(const ir::Program& program, const Migration& m,
                                            ir::Strategy s);

/// An entry's text, with names only: "fire i@A.g0", "transfer i.b@A.g0 -> i.b@A.cpu",
/// "copy k.i.delay@A.cpu <- i.b@A.cpu".
std::string entry_text(const ir::Program& program, const ir::IgStrategy& graph,
                       const MigrationEntry& entry);

/// schedule.txt's section per alternative: per strategy, k, padding, delta (pause), gap, the
/// extra bytes per PE, then the old-only and new-only entries with their first cycles.
std::string dump(const Migrations& migrations, const ir::Program& program, const ir::Ig& base);

}  // namespace dfgc
