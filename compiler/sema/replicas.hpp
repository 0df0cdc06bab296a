/// \file
/// Replicas over iterations. A node placed on a set of PEs, `node f : F @ {A.g0, A.g1};` (with
/// weights, `@ {A.g0: 2, A.g1}`), fires each iteration on one PE of the set, so that the PEs share
/// its work; the consumer cannot tell.
///
/// dfgc unfolds the graph. With C the least common multiple of the replicated nodes' weight sums
/// (each over its weights' gcd), every node becomes C copies, `f#0` .. `f#C-1`, and one cycle
/// runs C blocks of iterations: the app's `batch K` (K a multiple of C; C without a batch), copy
/// j handling iterations j K/C .. (j+1) K/C - 1 of each cycle. A replicated node's copy j runs on
/// the PE whose share of its weights holds j mod its weight sum; every other node's copies run on
/// its own PE and share one instance of the actor there, fired in copy order. An edge with D
/// blocks of initial tokens joins copy j of its producer to copy (j + D) mod C of its consumer,
/// with (j + D) / C cycles of initial tokens: the classic unfolding of a synchronous data-flow
/// graph, so that every pass after sema sees a plain graph of single-writer buffers. The latency
/// pass fires the copies of a node on one PE from the same cycle (in order, so a stateful sink
/// sees its iterations in order).
///
/// A free node that `dfgc map` deals over k shares (ir::Node::shares) counts as a set of k PEs of
/// weight 1; its copies, and those of every free node, keep their candidates, and Node::share says
/// which copies the search places together.
///
/// Needs: the checked program, before its rates (prepare_replicas) and after them
/// (unfold_replicas). Produces: Program::copies and the unfolded nodes, edges and mapping.
#pragma once

#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// The copies (Program::copies) and the cycle's iterations (Program::batch) of a program with
/// replicas; nothing without. False after an error: a batch that is not a multiple of the
/// copies, too many copies, a program with dynamic actors or nodes that migrate.
bool prepare_replicas(ir::Program& program, DiagnosticEngine& diags);

/// Replaces the nodes, edges and mapping of a program with copies by their unfolding (above).
void unfold_replicas(ir::Program& program);

}  // namespace dfgc::sema
