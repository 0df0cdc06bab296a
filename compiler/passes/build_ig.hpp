/// \file
/// Assembles the implementation graph from the passes' results, for both strategies: firings with
/// their port bindings, buffer nodes with every access and its lag, transfers, delay copies,
/// colours and the memory report. Buffer ids: the planned buffers keep their BufferPlan ids; a
/// strategy's delay lines follow, in DelayLines order.
///
/// Lags (an access in cycle c uses slot (c - lag) mod depth), from the cycle model of latency.hpp:
/// a firing or a transfer writes with lag 0; with overlap, a transfer reads its source with lag 1
/// (the slot completed last cycle) and a firing reads a received buffer with lag 1 (the slot the
/// transfer completed last cycle) and its own PE's output buffer with lag 0; without overlap every
/// buffer node is single and every lag is 0. A delay line of d cycles is written with lag 0 by its
/// copy, which reads the source with the lag the consumer would have used, and is read with lag d.
/// Needs: every pass result. Produces: ir::Ig.
#pragma once

#include "ir/ig.hpp"
#include "passes/color_buffers.hpp"

namespace dfgc {

ir::Ig build_ig(const ir::Program& program, const Schedule& schedule, const BufferPlan& plan,
                const BufferDepths& depths, const Latencies& latencies, const DelayLines& delays,
                const BufferColouring& colouring);

}  // namespace dfgc
