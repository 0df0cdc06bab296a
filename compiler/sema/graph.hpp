/// \file
/// The data-flow graph of the app: its edges (ports, directions, types, one producer per input),
/// ports left unconnected, cycles, and whether the architecture can carry every edge.
#pragma once

#include <vector>

#include "ir/ir.hpp"
#include "sema/actors.hpp"
#include "sema/app.hpp"
#include "sema/arch.hpp"
#include "sema/types.hpp"

namespace dfgc::sema {

/// The app's edges whose ports resolve and point the right way, in spec order, with their
/// initial tokens (`delay N [= value]`).
std::vector<ir::Edge> check_edges(const ast::AppDecl& app, const NodeTable& nodes,
                                  const ActorTable& actors, const TypeTable& types,
                                  const ParamTable& params, const SourceManager& sources,
                                  DiagnosticEngine& diags);

/// One error per cycle without initial tokens (its edges have no `delay`) found by a
/// depth-first search in spec order, at the edge closing it.
void check_cycles(const std::vector<ir::Edge>& edges, const NodeTable& nodes,
                  const ActorTable& actors, DiagnosticEngine& diags);

/// Every edge between two PEs needs a directed path of links from the source's PE to the
/// destination's; so does every edge of a node with alternatives, from or to each alternative (the
/// other end on its own PE).
void check_reachability(const std::vector<ir::Edge>& edges, const NodeTable& nodes,
                        const ActorTable& actors, const ArchInfo& arch, DiagnosticEngine& diags);

/// A node whose actor says `ends stream;` ends the run's stream: every sink (a node without
/// outgoing edges) must be downstream of it, or the sink could fire past the end, and the app
/// must run on one host (`arch` null: its mapping is not checked).
void check_stream_ends(const std::vector<ir::Edge>& edges, const NodeTable& nodes,
                       const ActorTable& actors, const ArchInfo* arch, DiagnosticEngine& diags);

}  // namespace dfgc::sema
