// How the host's nodes are called and which of their moves this host hands over: the actor
// front end's signatures copied into the plan, so that code generation reads the plan alone.

#include <algorithm>
#include <set>
#include <vector>

#include "plan/detail.hpp"
#include "support/assert.hpp"

namespace dfgc::plan_detail {

namespace {

const ActorSignature& signature_of(const ActorSignatures& signatures, ir::ActorId actor,
                                   ir::PeKind kind, const std::string& name) {
  auto it = signatures.find({actor, kind});
  DFGC_INTERNAL_ASSERT(it != signatures.end(), "no ", ir::to_string(kind), " signature for actor ",
                       name);
  return it->second;
}

/// Whether alternative `a`'s move hands the node over through host `h`: on one host always (the
/// new instance's first firing follows the old one's last); between two hosts only where both
/// implementations carry their state (save/restore) or the node's inputs peek (their windows'
/// histories move), through the plan's state tag.
bool hands_over(const ir::Program& program, const ActorSignatures& signatures, const HostPlan& h,
                const PlanMigration& a) {
  const bool from_here = h.pe(a.from).host == h.host, to_here = h.pe(a.to).host == h.host;
  if (!from_here && !to_here) return false;
  if (from_here && to_here) return true;
  if (a.state_tag < 0) return false;
  for (std::uint32_t port = 0; port < program.dfg.actor_of(a.node).ports.size(); ++port)
    if (program.dfg.window_history(a.node, port) > 0) return true;
  auto has_state = [&](ir::PeId pe) {
    auto it = signatures.find({program.dfg.nodes[a.node].actor, h.pe(pe).kind});
    return it != signatures.end() && it->second.has_state;
  };
  return has_state(a.from) && has_state(a.to);
}

}  // namespace

void sign_nodes(const ir::Program& program, const ActorSignatures& signatures, HostPlan& h) {
  for (PlanNode& n : h.nodes)
    n.signature = signature_of(signatures, n.actor_id, h.pe(n.pe).kind, n.actor);
  for (PlanIsland& island : h.islands)
    for (PlanIslandMember& m : island.members)
      m.signature = signature_of(signatures, m.actor_id, island.kind, m.actor);
  std::vector<bool> handed(h.migrations.size());
  std::set<ir::NodeId> nodes;
  for (std::size_t i = 0; i < h.migrations.size(); ++i) {
    // A joint's nodes are handed over through their single alternatives' handoffs.
    handed[i] =
        h.migrations[i].parts.empty() && hands_over(program, signatures, h, h.migrations[i]);
    if (handed[i]) nodes.insert(h.migrations[i].node);
  }
  h.handoffs.assign(nodes.begin(), nodes.end());
  for (std::size_t i = 0; i < h.migrations.size(); ++i) {
    PlanMigration& a = h.migrations[i];
    if (handed[i])
      a.handoff = static_cast<int>(std::find(h.handoffs.begin(), h.handoffs.end(), a.node) -
                                   h.handoffs.begin());
  }
  for (PlanNode& n : h.nodes)
    for (const PlanMigration& a : h.migrations)
      if (a.handoff >= 0 && a.node == n.id && (a.from == n.pe || a.to == n.pe))
        n.handoff = a.handoff;
  h.signed_nodes = true;
}

}  // namespace dfgc::plan_detail
