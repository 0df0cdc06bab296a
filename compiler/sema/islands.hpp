/// \file
/// Islands: the nodes of dynamic actors, joined by their fifo edges, grouped into connected sets
/// that each run on one CPU or one GPU. Each island becomes one static node of the graph, of an
/// actor made for it (ir::Actor::island) whose ports are the edges at the island's boundary: an
/// edge from a static output into a fifo input is an input of the island (its Unpack adapter turns
/// the token into elements), an edge from a fifo output into a static input an output (its Pack
/// adapter fills the token). The passes after sema see only static nodes; codegen/island.hpp writes
/// the class of each island's actor: a CPU island's (dfg/island.hpp), or a GPU island's, whose
/// firing is one kernel on the GPU (dfg/cuda/gpu_island_cycle.hpp).
///
/// A fifo edge between dynamic nodes on two CPUs joins two islands: it becomes a static edge of a
/// bounded type made for it (`Fifo_<node>_<port>`, the ring's element type, its capacity), an
/// output of the producing island (its PackSome adapter packs what the ring holds) and an input
/// of the consuming one. A fifo edge between an island on a CPU and one on a GPU of the same host
/// is one ring in mapped pinned memory that both use (IslandFifo::mapped, zero-copy): the static
/// edge between the two island nodes has a token of one element that nothing writes
/// (TokenType::order_only), which only orders the consumer's firing of an iteration after the
/// producer's. With `copied` (`--fifos=copied`), such an edge is instead a static edge of a counted
/// token (`Fifo_<node>_<port>`, dfg/counted.hpp: a count cell, then the capacity's elements) that
/// the producing island packs (what its ring holds, up to the capacity) and the consuming one
/// unpacks, copied H2D or D2H by the static cycle each iteration. A GPU island has no fifo edge to
/// another GPU or another host. A cycle of fifo
/// edges between islands has no order in the static cycle: refused.
///
/// Ring capacities: an input's `fifo N`, else the largest token (in elements) at the island's
/// boundary, so that a ring holds a whole token of any adapter (at least 1 element); islands
/// joined by fifo edges take the largest of them all (an island whose boundary is only such edges
/// has no token of its own). A mapped ring's is what crosses it an iteration: the plan multiplies
/// it by the iterations its producer runs ahead (PlanMappedRing).
///
/// Needs: the Program of the checked spec, rates not yet solved. Produces: Program::islands, the
/// Dfg without dynamic nodes and fifo edges, with one node per island (in place of its first
/// member, spec order otherwise kept), the mapping renumbered.
#pragma once

#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// False after an error: a dynamic node free or with `migrates`; a cycle of fifo edges across
/// PEs; a fifo output with two readers or none; an island's node or actor name taken by one of
/// the spec; a fifo edge between a GPU island and another GPU or another host.
/// `copied`: fifo edges between a CPU island and a GPU island are counted tokens (the
/// comparison of the zero-copy FIFO paper), not mapped rings.
bool form_islands(ir::Program& program, DiagnosticEngine& diags, bool copied = false);

}  // namespace dfgc::sema
