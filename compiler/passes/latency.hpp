/// \file
/// Latency: for each strategy, the first cycle in which each node fires on valid tokens, when each
/// edge's first valid token arrives, and when and in which step each transfer runs.
///
/// The cycle model (what the generated program does in cycle c = 0, 1, ...):
///  - With overlap, every PE launches its transfers and fires its nodes at once, then waits for the
///    end of the cycle. A transfer runs asynchronously during the whole cycle: it reads the slot of
///    its source that was complete at the end of cycle c-1 and writes a slot of its destination
///    that is read from cycle c+1 on. A node reads, in the same cycle, what an earlier node of its
///    PE wrote (schedule order).
///  - Without overlap, the transfers run first, in steps 0 .. S-1 (S: the largest hop of any
///    transfer), each step ending with a wait; the transfer that fills a buffer `hop` transfers
///    away from its output's own buffer runs in step S - hop, so the hops farthest from the
///    producer go first. Every transfer thus reads what its source held at the end of cycle c-1,
///    and a single buffer is always read by the next hop before the previous hop overwrites it. The
///    firings follow, in schedule order. The papers run CPU-CPU transfers, then CPU-GPU transfers.
///    With single buffers that races where a PE relays between two transfers of one phase (GPU ->
///    CPU -> GPU on a host, CPU -> CPU -> CPU between hosts), and it lets a token cross the network
///    and the next PCIe hop in one cycle, which contradicts the papers' own latency rule. The steps
///    keep the rule and are race free.
///
/// Delay of an edge whose token crosses t transfers (t = 0: consumer on the producer's PE):
///  - with overlap: 0 when t = 0, else t + 1. Every buffer node on such a path is double and delays
///    one cycle (the papers' "each double buffer introduces a delay of one cycle"). A consumer on
///    the producer's PE reads the slot written in the same cycle, even when that buffer is double
///    because it also sends elsewhere: such a buffer delays only the paths that leave the PE.
///  - without overlap: t. Each pair of connected buffer nodes on different PEs delays one cycle
///    (the papers' rule).
///  - a consumer on another cpu of the producer's host reads the producer's buffer (shared
///    memory, t = 0): 1 in both strategies, since the two cpus fire at once. A buffer a transfer
///    fills in host memory is read by every cpu of the host as by its own.
/// Input latency: a node without inputs fires from cycle 0 (or its floor); a node n fires from
///   L(n) = max(floor(n), max over its input edges e of arrival(e)),
///   arrival(e) = L(src(e)) + delay(e),
/// and its firing in cycle c >= L(n) handles iteration c - L(n). The threads fire no node before
/// its latency, so no node consumes a token of an invalid iteration. An input that arrives before
/// L(n) is resynchronised by a delay line (resync_inputs).
/// A transfer at hop h of an output of node m first moves a valid token in cycle L(m) + h.
///
/// Initial tokens and loops. An edge e with d(e) initial tokens (`delay d`) hands its consumer,
/// in iteration i, the token its producer made in iteration i - d(e) (in its first d(e)
/// iterations, the initial tokens). Its token of iteration j is readable from cycle
/// L(src) + cycles(e) + j, with cycles(e) = delay(e) + back(e): back(e) is 1 for an edge within
/// one PE whose consumer fires no later than its producer in the PE's order (the consumer reads
/// it in the next cycle, through a delay line that resync_inputs adds), 0 otherwise. So
///   L(n) = the least L >= 0 with L(dst(e)) >= L(src(e)) + cycles(e) - d(e) for every edge,
/// computed by longest paths (Bellman-Ford). Along a loop (a cycle of the data-flow graph) the
/// constraints add up to cycles(loop) <= d(loop): a loop whose latency in cycles, its transfers'
/// delays and back edges, exceeds its initial tokens has no solution; its tokens cannot cover
/// the time its tokens take to come round. Latency then names that loop (`uncovered`), and the
/// later passes do not run.
///
/// Needs: the Dfg, the Schedule (a topological order) and the BufferPlan. Produces: Latencies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "passes/insert_buffers.hpp"
#include "passes/schedule.hpp"

namespace dfgc {

/// A loop whose latency in cycles exceeds its initial tokens.
struct UncoveredLoop {
  std::vector<ir::EdgeId> edges;                ///< in loop order
  std::vector<std::uint32_t> edge_cycles;       ///< per edge of `edges`: the cycles it takes
  std::vector<std::uint32_t> edge_transfers{};  ///< per edge of `edges`: the transfers it crosses
  std::uint32_t tokens = 0;                     ///< the sum of its edges' initial tokens

  /// The cycles its tokens take round: the sum of edge_cycles.
  std::uint32_t cycles() const;
  /// The transfers its tokens cross: the sum of edge_transfers.
  std::uint32_t transfers() const;
};

/// The least first cycles of the nodes, none below its `floor` (empty: 0), given each edge's
/// cycles (see above), or a loop that has none.
struct FirstCycles {
  std::vector<std::uint32_t> node;
  std::optional<UncoveredLoop> uncovered;
};
FirstCycles first_cycles(const ir::Dfg& dfg, const std::vector<std::uint32_t>& edge_cycles,
                         const std::vector<std::uint32_t>& floor = {});

/// What first_cycles() walks of a graph, computed once for the many calls of a mapping search.
struct CycleWalk {
  explicit CycleWalk(const ir::Dfg& dfg);
  std::vector<ir::NodeId> order;                  ///< topological_order(dfg)
  std::vector<std::vector<ir::EdgeId>> in_edges;  ///< per node, its input edges
  bool delays = false;                            ///< some edge carries initial tokens
};
FirstCycles first_cycles(const ir::Dfg& dfg, const CycleWalk& walk,
                         const std::vector<std::uint32_t>& edge_cycles,
                         const std::vector<std::uint32_t>& floor = {});

struct Latency {
  std::vector<std::uint32_t> node;          ///< per node: the first cycle it fires
  std::vector<std::uint32_t> edge_arrival;  ///< per edge: when its first valid token is readable
  std::vector<std::uint8_t> edge_back;      ///< per edge: back(e), read the cycle after its write
  std::optional<UncoveredLoop> uncovered;   ///< a loop its initial tokens do not cover
  std::vector<std::uint32_t>
      transfer_first;  ///< per transfer: the first cycle it moves a valid token
  std::vector<std::uint32_t> transfer_step;  ///< per transfer: its step in the transfer part
  std::uint32_t steps = 1;                   ///< steps in a cycle's transfer part
};

using Latencies = ir::PerStrategy<Latency>;

/// The delay of a token that crosses `transfers` transfers.
std::uint32_t edge_delay(ir::Strategy s, std::uint32_t transfers);

/// Per strategy, per node, a first cycle a node may not fire before (empty: none). The migration
/// pass pads a moved node's path with it; its inputs then arrive early and get delay lines.
using LatencyFloor = ir::PerStrategy<std::vector<std::uint32_t>>;

/// The strategy whose latency has an uncovered loop, the overlap strategy first, if any.
std::optional<ir::Strategy> uncovered_strategy(const Latencies& latencies);
/// A loop its initial tokens do not cover, with the strategy it fails under.
struct StrategyLoop {
  ir::Strategy strategy = ir::Strategy::overlap;
  UncoveredLoop loop;
};
/// The loop of the first strategy that has one (uncovered_strategy()), if any.
std::optional<StrategyLoop> uncovered_loop(const Latencies& latencies);
/// "loop f -> g -> f takes 4 cycles with overlap (2 transfers) but carries 1 initial token; it
/// lacks 3": the error `check` and `compile` print, and `dfgc map` explains.
std::string describe(const UncoveredLoop& loop, ir::Strategy s, const ir::Dfg& dfg);

Latencies compute_latency(const ir::Dfg& dfg, const Schedule& schedule, const BufferPlan& plan,
                          const LatencyFloor& floor = {});

/// Per strategy, one line per node ("<node> latency <L>") and per transfer (step, first cycle).
std::string dump(const Latencies& latencies, const ir::Program& program, const BufferPlan& plan);

}  // namespace dfgc
