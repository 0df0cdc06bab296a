/// \file
/// The parts of plan_host() (plan_hosts.cpp) that live in files of their own, internal to
/// compiler/passes/ and no part of the plan's API: the union of a migration alternative with the
/// base (plan_migration.cpp), a PE's steps (plan_steps.cpp), the islands and mapped rings
/// (plan_islands.cpp), the nodes' signatures and state handoffs (plan_signatures.cpp), and the
/// names of the generated files (plan_names.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "ir/ig.hpp"
#include "passes/migrations.hpp"
#include "passes/plan_hosts.hpp"

namespace dfgc::plan_detail {

/// Every MPI tag of the program, the same on every host (plan_transfers.cpp): the base's
/// host-to-host transfers (net_tags()), then each alternative's after them, then on several hosts
/// with alternatives the control tag and each alternative's state tag between hosts.
struct ProgramTags {
  ir::PerStrategy<std::vector<int>> base;  ///< per TransferId of the base graph, -1 within a host
  std::vector<ir::PerStrategy<std::vector<int>>> alternatives;  ///< the same of each alternative
  int control = -1;                                             ///< HostPlan::control_tag
  std::vector<int> state;  ///< per alternative: PlanMigration::state_tag
  /// The transfers with a tag that the union runs, by tag (HostPlan::net_transfers): the base's,
  /// and each alternative's new-only ones, or all of its graph's when its delta is not 0
  /// (merge_alternative).
  std::vector<NetTransfer> net_transfers;
};
ProgramTags program_tags(const ir::Program& program, const ir::Ig& ig,
                         const std::vector<Migration>& alts);

/// The neighbours of every PE from the entries of a (union) plan (plan_migration.cpp).
void union_neighbours(StrategyPlan& sp);
/// Adds migration alternative `a` to the union `u` (plan_migration.cpp).
void merge_alternative(const ir::Program& p, StrategyPlan& u, std::size_t base_count,
                       const StrategyPlan& alt, const ir::IgStrategy& g1, const MigrationSide& side,
                       int a, ir::HostId host, std::vector<std::uint32_t>& next_colour,
                       std::vector<std::uint32_t>& own_steps, PlanSwitch& sw);

/// The steps of `pe`'s cycle (plan_steps.cpp).
std::vector<Step> pe_steps(const StrategyPlan& sp, ir::PeId pe, bool gpu,
                           const std::set<StreamKind>& streams);

/// The host's mapped rings, sized from both strategies' plans (plan_islands.cpp).
void plan_mapped_rings(const ir::Program& program, HostPlan& h);
/// An island as its generated class needs it (plan_islands.cpp).
PlanIsland plan_island(const ir::Program& program, const ir::Island& island);

/// The names of the host's generated files and its namespace (plan_names.cpp).
PlanFiles plan_files(const HostPlan& h);
/// The C++ names of the program's PEs (PlanPe::ident, worker, gpudirect).
void name_pes(ProgramPlan& program);
/// The C++ names of h's node instances' members (PlanNode::member, initial_members), once its
/// entries are made.
void name_members(HostPlan& h);

/// Copies into the plan how each node and island member is called, and plans the moves this host
/// hands over (HostPlan::handoffs; plan_signatures.cpp).
void sign_nodes(const ir::Program& program, const ActorSignatures& signatures, HostPlan& h);

}  // namespace dfgc::plan_detail
