/// \file
/// Resynchronisation of multi-input nodes. A node n fires from L(n), the latest arrival of its
/// inputs (latency.hpp); an input edge e that arrives earlier, at arrival(e) < L(n), would hand n
/// a token of a later iteration than its other inputs. It gets a delay line of
///   d = L(n) - arrival(e)
/// cycles on n's PE: a buffer node of d slots, fed by a delay copy. In cycle c, n reads slot c mod
/// d (written in cycle c - d), then the copy writes into that slot the token n would have read
/// directly. So n reads in cycle c what arrived in cycle c - d, and every firing of n sees one
/// iteration, c - L(n), on all its inputs. The copy runs from cycle arrival(e) on, whether or not n
/// fires, right after n's place in its PE's order.
///
/// With initial tokens the same line keeps the tokens that come round early: an edge e with d(e)
/// initial tokens hands n in iteration i its producer's token of iteration i - d(e), readable
/// since arrival(e) + i - d(e), so its line is d = L(n) + d(e) - arrival(e) cycles (none when 0;
/// n reads the initial tokens themselves in its first d(e) iterations, see build_ig). A back edge
/// within a PE (its consumer fires no later than its producer in the PE's order, latency.hpp)
/// always has a line, one cycle longer, whose copy runs right after the producer: it takes the
/// token of the cycle, which the consumer reads d cycles later.
/// Needs: the Dfg, the Mapping, the BufferPlan and the Latencies. Produces: DelayLines per
/// strategy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "passes/latency.hpp"

namespace dfgc {

struct DelayLine {
  std::string name;  ///< "<consumer>.<port>.delay@<pe>"
  ir::EdgeId edge = 0;
  ir::BufferId from = 0;  ///< the planned buffer the consumer would read without it
  ir::PeId pe = 0;
  std::uint32_t cycles = 0;
  ir::NodeId after = 0;           ///< the copy runs right after this node's firing
  std::uint32_t first_cycle = 0;  ///< the copy's first cycle
};

using DelayLines = ir::PerStrategy<std::vector<DelayLine>>;

DelayLines resync_inputs(const ir::Dfg& dfg, const ir::ArchGraph& arch, const ir::Mapping& mapping,
                         const BufferPlan& plan, const Latencies& latencies);

/// One line per strategy and delay line: "<strategy> <name> <- <from> cycles <d>".
std::string dump(const DelayLines& lines, const BufferPlan& plan);

}  // namespace dfgc
