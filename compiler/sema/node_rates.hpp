/// \file
/// Rates that depend on an actor's params (`actor Dec { param int D = 4; in float x rate D; }`):
/// each node's values give its ports' rates and windows. A node whose rates differ from the
/// actor's defaults runs a copy of the actor with its own (same name, class and implementations),
/// shared by every node of the same rates, so that the rest of dfgc reads rates from actors as
/// always. Port groups whose size depends on params (`in T x[N];`) are given each node's size the
/// same way, earlier: edges name their ports.
#pragma once

#include "ir/ir.hpp"
#include "sema/actors.hpp"
#include "sema/app.hpp"
#include "sema/params.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// Gives each node of an actor whose port groups' sizes depend on its params (`in T x[N];`) a copy
/// of the actor with its own number of ports (x0 .. x{N-1}), before edges name them. Returns
/// false after reporting a size out of range for a node's values, with a note at the node.
bool specialize_groups(ActorTable& actors, NodeTable& nodes, const ParamTable& params,
                       const SourceManager& sources, DiagnosticEngine& diags);

/// Gives each node of an actor with param-dependent rates the actor (or copy) of its rates.
/// Returns false after reporting a rate or window out of range for a node's values, with a note
/// at the port.
bool specialize_rates(ir::Program& program, const std::vector<ActorInfo>& info,
                      const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags);

/// Drops the copies (actors from `declared` on) that no node runs any more: a node whose group
/// sizes and rates both differ from its actor's gets a copy for each, and runs the second.
void drop_unused_copies(ir::Program& program, std::size_t declared);

}  // namespace dfgc::sema
