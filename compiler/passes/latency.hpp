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
/// Needs: the Dfg, the Schedule (a topological order) and the BufferPlan. Produces: Latencies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "passes/insert_buffers.hpp"
#include "passes/schedule.hpp"

namespace dfgc {

struct Latency {
  std::vector<std::uint32_t> node;          ///< per node: the first cycle it fires
  std::vector<std::uint32_t> edge_arrival;  ///< per edge: when its first valid token is readable
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

Latencies compute_latency(const ir::Dfg& dfg, const Schedule& schedule, const BufferPlan& plan,
                          const LatencyFloor& floor = {});

/// Per strategy, one line per node ("<node> latency <L>") and per transfer (step, first cycle).
std::string dump(const Latencies& latencies, const ir::Program& program, const BufferPlan& plan);

}  // namespace dfgc
