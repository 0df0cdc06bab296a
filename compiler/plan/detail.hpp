/// \file
/// The parts of the plan's stages (plan.hpp) that live in files of their own, internal to
/// compiler/plan/ and no part of its API: the MPI tags (transfers.cpp), one strategy's entries
/// (strategy.cpp), the union of a migration alternative with the base (alternatives.cpp), a PE's
/// steps (steps.cpp), the islands and mapped rings (islands.cpp), the nodes' signatures and state
/// handoffs (handoffs.cpp), and the names (names.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "ir/ig.hpp"
#include "passes/migrations.hpp"
#include "plan/plan.hpp"

namespace dfgc::plan_detail {

/// Every MPI tag of the program, the same on every host (transfers.cpp): the base's
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

/// One strategy's entries, storage, views and neighbours on `host` (strategy.cpp).
StrategyPlan build_strategy(const ir::Program& program, const ir::IgStrategy& s, ir::HostId host,
                            const std::vector<int>& tags, const PlanOptions& options);

/// The buffers the thread of `pe` touches in `sp`, sorted by name (and C++ name: in a union, an
/// alternative's buffer may have its base namesake's name).
std::vector<ir::BufferId> touched_buffers(const StrategyPlan& sp, ir::PeId pe);

/// The neighbours of every PE from the entries of a (union) plan (alternatives.cpp).
void union_neighbours(StrategyPlan& sp);
/// Adds migration alternative `a` to the union `u` (alternatives.cpp).
void merge_alternative(const ir::Program& p, StrategyPlan& u, std::size_t base_count,
                       const StrategyPlan& alt, const ir::IgStrategy& g1, const MigrationSide& side,
                       int a, ir::HostId host, std::vector<std::uint32_t>& next_colour,
                       std::vector<std::uint32_t>& own_steps, PlanSwitch& sw);

/// The steps of `pe`'s cycle (steps.cpp).
std::vector<Step> pe_steps(const StrategyPlan& sp, ir::PeId pe, bool gpu,
                           const std::set<StreamKind>& streams);

/// Whether `pe` runs the same cycle loop in both strategies (PlanSharing::loop): once both
/// strategies' steps are planned (steps.cpp).
bool same_loop(const HostPlan& h, ir::PeId pe);

/// The host's mapped rings, sized from both strategies' plans (islands.cpp).
void plan_mapped_rings(const ir::Program& program, HostPlan& h);
/// An island as its generated class needs it (islands.cpp).
PlanIsland plan_island(const ir::Program& program, const ir::Island& island);

/// The names of the host's generated files and its namespace (names.cpp).
PlanFiles plan_files(const HostPlan& h);
/// The C++ names of the program's PEs (PlanPe::ident, worker, gpudirect).
void name_pes(ProgramPlan& program);
/// The C++ names of h's node instances' members (PlanNode::member, initial_members), once its
/// entries are made.
void name_members(HostPlan& h);

/// Copies into the plan how each node and island member is called, and plans the moves this host
/// hands over (HostPlan::handoffs; handoffs.cpp).
void sign_nodes(const ir::Program& program, const ActorSignatures& signatures, HostPlan& h);

/// Whether each GPU of the host relaunches its cycles as CUDA graphs, once its nodes are signed
/// (GpuCycles::graph_phases, graph_why; graphs.cpp).
void plan_graphs(HostPlan& h);

/// What a checkpoint of the host holds, once its nodes are signed (HostPlan::checkpoint,
/// PlanNode::checkpoint and checkpoint_inputs; checkpoints.cpp).
void plan_checkpoints(const ir::Program& program, HostPlan& h);

}  // namespace dfgc::plan_detail
