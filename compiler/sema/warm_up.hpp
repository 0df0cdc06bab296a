/// \file
/// The warm-up: how many of each node's first firings see a value from before the stream.
///
/// A peek window starts with its declared history (`in Sample x peek 64 = 0`: 63 values before
/// the stream's first token), and an edge with initial tokens outside a loop (`delay 1 tokens`,
/// `delay 2`) shifts the stream its consumer sees by as many. A firing whose window holds one of
/// those values, or a token made by such a firing upstream, is a warm-up firing. StreamIt's
/// filters wait for a full window before they first fire: past the warm-up, dfgc's outputs are
/// StreamIt's from its first on where each window's values from before the stream are a whole
/// number of its firings' rate (the dumps say where they are not).
///
/// Per input of node v fed by edge e from u: before = the window's history + e's initial tokens
/// (neither on a loop: a loop's initial tokens and windows are its state, not a shift of the
/// stream) + u's warm-up firings x e's source rate. v's firing i reads window positions [i R, i R +
/// R + history), so its first firing free of them is ceil(before / R); v's warm-up is the largest
/// over its inputs. Around a loop the count is iterated to its fixed point.
///
/// Needs: the program with its rates solved, before replicas unfold it (a copy keeps its spec
/// node's count, in the spec node's firings). Produces: ir::Node::warm_up and ::warm_up_inputs.
#pragma once

#include "ir/ir.hpp"

namespace dfgc::sema {

void compute_warm_up(ir::Program& program);

}  // namespace dfgc::sema
