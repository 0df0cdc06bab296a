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

#include <optional>

#include "ir/ir.hpp"
#include "sema/params.hpp"
#include "spec/ast.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// The most firings of one node in one cycle, and the most tokens of one block.
inline constexpr std::uint64_t kMaxRepetitions = 1 << 20;

/// False after an error: rates that contradict each other around a loop of edges (the error names
/// its edges with their rates), a repetition vector that overflows or exceeds kMaxRepetitions, a
/// block whose size overflows.
///
/// With `batch K` (Program::batch, from check_batch) one cycle runs K iterations of the graph:
/// every node fires K x q times a cycle, every block holds K iterations' tokens, and a delay of
/// D iterations becomes D / K cycles. The actors cannot tell (dfg::Node numbers each firing's
/// iteration); a `block` implementation gets K iterations' blocks in one call. Its errors: a
/// delay that is not a multiple of K (a loop through it holds fewer than K iterations' tokens),
/// a node that migrates, a dynamic actor, a bounded type, a repetition beyond kMaxRepetitions.
bool solve_rates(ir::Program& program, DiagnosticEngine& diags);

/// The app's `batch K` (a compile-time integer, 1 to kMaxRepetitions): 1 without the statement,
/// nullopt after an error.
std::optional<std::uint32_t> check_batch(const ast::AppDecl& app, const ParamTable& params,
                                         const SourceManager& sources, DiagnosticEngine& diags);

}  // namespace dfgc::sema
