/// \file
/// Scheduling: the firing order of one iteration. A node is scheduled once all its predecessors
/// are, through the edges without initial tokens (an edge with a delay hands over a token of an
/// earlier iteration, so it orders nothing within one); among the nodes ready at once, the first
/// in spec order goes first (never hash order). The order restricted to each PE is the order in
/// which that PE fires its nodes in every cycle.
/// Needs: the Dfg (its edges without delay acyclic, as sema checks) and the mapping. Produces:
/// Schedule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace dfgc {

struct Schedule {
  std::vector<ir::NodeId> order;                ///< one iteration
  std::vector<std::uint32_t> index;             ///< index[node]: its place in `order`
  std::vector<std::vector<ir::NodeId>> per_pe;  ///< per PE: its nodes in `order`
  std::vector<std::uint32_t> position;          ///< position[node]: its place in its PE's order
};

Schedule schedule(const ir::Dfg& dfg, const ir::ArchGraph& arch, const ir::Mapping& mapping);

/// The nodes in the order above: a topological order of the edges without delay, ties by node id.
std::vector<ir::NodeId> topological_order(const ir::Dfg& dfg);

/// One line per node: "<index> <node> @ <pe>".
std::string dump(const Schedule& schedule, const ir::Program& program);

}  // namespace dfgc
