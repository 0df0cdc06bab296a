/// \file
/// Rates that depend on an actor's params (`actor Dec { param int D = 4; in float x rate D; }`):
/// each node's values give its ports' rates and windows. A node whose rates differ from the
/// actor's defaults runs a copy of the actor with its own (same name, class and implementations),
/// shared by every node of the same rates, so that the rest of dfgc reads rates from actors as
/// always.
#pragma once

#include "ir/ir.hpp"
#include "sema/actors.hpp"
#include "sema/params.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// Gives each node of an actor with param-dependent rates the actor (or copy) of its rates.
/// Returns false after reporting a rate or window out of range for a node's values, with a note
/// at the port.
bool specialize_rates(ir::Program& program, const std::vector<ActorInfo>& info,
                      const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags);

}  // namespace dfgc::sema
