/// \file
/// Mappings of a graph (`app rx_cores : rx on cores { src @ A.c0; f @ A.c1 { taps = 64; } }`):
/// the graph's nodes and edges, each node placed and its params refined by the mapping, as one
/// whole app that the rest of sema checks as if it had been written so. Diagnostics still point
/// at what the user wrote: a node's actor, its params and its edges at the graph; its placement,
/// alternatives, replicas and refined params at the mapping.
#pragma once

#include <optional>

#include "spec/ast.hpp"
#include "spec/parser.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// `mapping` expanded over its graph: the graph's nodes in its order, each with the mapping's
/// placement (PE, free placement or replica set, alternatives) and the graph's params with the
/// mapping's appended in place of those of the same name; the graph's edges; the mapping's
/// `batch`, else the graph's. nullopt after reporting an unknown graph, an app named as a graph
/// that has an architecture, a placement of a node the graph lacks or of one node twice, and each
/// node left unplaced.
std::optional<ast::AppDecl> expand_mapping(const Spec& spec, const ast::AppDecl& mapping,
                                           DiagnosticEngine& diags);

}  // namespace dfgc::sema
