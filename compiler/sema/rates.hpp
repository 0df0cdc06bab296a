/// \file
/// Rates (synchronous data flow). A port moves `rate` tokens per firing; every edge then asks
///   q(src) x rate(src port) = q(dst) x rate(dst port)
/// of the repetition vector q: how many times each node fires in one iteration of the graph (one
/// cycle). solve_rates() finds the least positive integer solution of each connected part, and
/// makes each port's block, q(n) x rate(p) tokens, a token type of its own ("Sample_x2" for two
/// Sample tokens) that the passes, the buffers, the transfers and the cost model see: one block a
/// cycle per edge, moved once. A node is called once per firing on its part of each block, or once
/// a cycle with the whole blocks when its implementation is declared `block`.
///
/// Needs: the checked program (actors with their rates, nodes, edges). Produces: each node's
/// repetitions and block types, the edges' block types, the new types.
#pragma once

#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// The most firings of one node in one iteration, and the most tokens of one block.
inline constexpr std::uint64_t kMaxRepetitions = 1 << 20;

/// False after an error: rates that contradict each other around a loop of edges (the error names
/// its edges with their rates), a repetition vector that overflows or exceeds kMaxRepetitions, a
/// block whose size overflows.
bool solve_rates(ir::Program& program, DiagnosticEngine& diags);

}  // namespace dfgc::sema
