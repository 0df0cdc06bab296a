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
///
/// Aliased lines. Where the line would copy its producer's own output on the same PE (one memory,
/// one thread or stream), the copy is not needed: the consumer reads the producer's buffer itself
/// d cycles late (lag d), the slot its producer wrote in cycle c - d, and that buffer gets the
/// slots the read needs, d + 1 (the producer writes slot c mod slots before its consumer reads in
/// cycle c, or is the consumer), d where the consumer fires before its producer in the PE's order
/// (a back edge: it reads slot (c - d) mod d before the producer writes it again). The buffer then
/// holds tokens for later cycles in every slot, like a line. The copy stays (`copied`) where the
/// line's source is a token received from another PE (its slots follow its transfer), of a
/// bounded type (its length travels beside it), read or written by an island (its rings and
/// adapters keep their own timing), or when any node of the program may migrate (the alternatives'
/// graphs keep a line's state in the line's own storage). A delay counts whole tokens per cycle
/// (whole blocks under rates), so every line is whole cycles.
/// Needs: the Program, the BufferPlan and the Latencies. Produces: DelayLines per strategy.
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
  /// No copy and no storage: the consumer reads `from` with lag `cycles` (file comment).
  bool aliased = false;
  std::uint32_t slots = 0;  ///< aliased: the slots `from` needs
};

using DelayLines = ir::PerStrategy<std::vector<DelayLine>>;

DelayLines resync_inputs(const ir::Program& program, const BufferPlan& plan,
                         const Latencies& latencies);

/// The lines with a copy and storage of their own, in order: the delay line buffers and copies of
/// the implementation graph.
std::vector<DelayLine> copied_lines(const std::vector<DelayLine>& lines);

/// `depth` (per planned buffer) with the slots the aliased lines among `lines` need.
std::vector<std::uint32_t> depth_with_lines(std::vector<std::uint32_t> depth,
                                            const std::vector<DelayLine>& lines);

/// One line per strategy and delay line: "<strategy> <name> <- <from> cycles <d> copied", or
/// "... aliased, slots <n>" (the slots `from` needs).
std::string dump(const DelayLines& lines, const BufferPlan& plan);

}  // namespace dfgc
