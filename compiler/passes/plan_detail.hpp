/// \file
/// The parts of plan_host() (plan_hosts.cpp) that live in files of their own, internal to
/// compiler/passes/ and no part of the plan's API: the union of a migration alternative with the
/// base (plan_migration.cpp), a PE's steps (plan_steps.cpp), and the islands and mapped rings
/// (plan_islands.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "ir/ig.hpp"
#include "passes/migrations.hpp"
#include "passes/plan_hosts.hpp"

namespace dfgc::plan_detail {

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

}  // namespace dfgc::plan_detail
