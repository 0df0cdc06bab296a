/// \file
/// Mappings of a graph (`app rx_cores : rx on cores { src @ A.c0; f @ A.c1 { taps = 64; } }`):
/// the graph's nodes and edges, each node placed and its params refined by the mapping, as one
/// whole app that the rest of sema checks as if it had been written so. Diagnostics still point
/// at what the user wrote: a node's actor, its params and its edges at the graph; its placement,
/// alternatives, replicas and refined params at the mapping.
#pragma once

#include <optional>

#include "sema/composites.hpp"
#include "spec/ast.hpp"
#include "spec/parser.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// The graph `mapping` names; null after reporting an unknown graph or an app named as a graph
/// that has an architecture.
const ast::AppDecl* graph_of(const Spec& spec, const ast::AppDecl& mapping,
                             DiagnosticEngine& diags);

/// `mapping` expanded over its graph, flattened (sema/composites.hpp), with the mapping's
/// `placements` flattened too: the graph's nodes in its order, each with the mapping's placement
/// (PE, free placement or replica set, alternatives) and the graph's params with the mapping's
/// appended in place of those of the same name; a node the mapping does not place by name takes
/// the placement of the innermost instance that holds it and that the mapping places (whose
/// params are the composite's, refined by flatten). The graph's edges; the mapping's `batch`,
/// else the graph's. nullopt after reporting a placement of a node (or instance) the graph lacks
/// or of one node twice, and each node left unplaced.
std::optional<ast::AppDecl> expand_mapping(FlatApp&& graph, const ast::AppDecl& mapping,
                                           const std::vector<ast::NodeDecl>& placements,
                                           DiagnosticEngine& diags);

}  // namespace dfgc::sema
