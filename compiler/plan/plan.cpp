// The host plan's stages after its entries (plan.hpp): the steps and the GPUs' stream orders, the
// islands and their mapped rings, the state handoffs, the names; plan_hosts() runs them all.
#include "plan/plan.hpp"

#include <algorithm>

#include "plan/detail.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::string identifier(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool word =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += word ? c : '_';
  }
  return out;
}

std::optional<SlotRef> Entry::read() const {
  if (const Transfer* t = transfer_if()) return t->read;
  if (const Copy* c = std::get_if<Copy>(&what)) return c->read;
  return std::nullopt;
}

std::optional<SlotRef> Entry::write() const {
  if (const Transfer* t = transfer_if()) return t->write;
  if (const Copy* c = std::get_if<Copy>(&what)) return c->write;
  return std::nullopt;
}

const std::string& Entry::type() const {
  static const std::string none;
  if (const Transfer* t = transfer_if()) return t->type;
  if (const Copy* c = std::get_if<Copy>(&what)) return c->type;
  return none;
}

const std::vector<PortRef>& Entry::ports() const {
  static const std::vector<PortRef> none;
  if (const Firing* f = std::get_if<Firing>(&what)) return f->ports;
  return none;
}

std::vector<std::string> HostPlan::handoff_names() const {
  std::vector<std::string> names;
  for (ir::NodeId n : handoffs)
    for (const PlanMigration& a : migrations)
      if (a.node == n) {
        names.push_back(a.node_name);
        break;
      }
  return names;
}

bool HostPlan::has_gpudirect() const {
  for (ir::Strategy s : ir::kStrategies)
    for (const Entry& e : strategies[s].entries)
      if (e.transfer_if() && e.transfer_if()->gpudirect) return true;
  return false;
}

std::vector<const PlanNode*> HostPlan::nodes_on(ir::PeId pe) const {
  std::vector<const PlanNode*> out;
  for (const PlanNode& n : nodes)
    if (n.pe == pe) out.push_back(&n);
  return out;
}

const PlanNode& HostPlan::node(ir::NodeId n, ir::PeId pe) const {
  for (const PlanNode& x : nodes)
    if (x.id == n && x.pe == pe) return x;
  DFGC_UNREACHABLE("node of another host");
}

std::vector<ir::PeId> HostPlan::pes() const {
  std::vector<ir::PeId> out = cpus;
  out.insert(out.end(), gpus.begin(), gpus.end());
  return out;
}

void plan_steps(HostPlans& plans) {
  for (HostPlan& h : plans.hosts) {
    for (ir::Strategy s : ir::kStrategies)
      for (ir::PeId pe : h.pes())
        h.strategies[s].steps[pe] = plan_detail::pe_steps(
            h.strategies[s], pe, h.pe(pe).kind == ir::PeKind::gpu, h.streams[pe]);
    StrategyPlan& overlap = h.strategies[ir::Strategy::overlap];
    overlap.gpu_cycles.resize(h.program->pe_table.size());
    for (ir::PeId gpu : h.gpus) overlap.gpu_cycles[gpu] = gpu_cycles(h, overlap, gpu);
    for (ir::PeId pe : h.pes()) h.sharing[pe].loop = plan_detail::same_loop(h, pe);
  }
}

void plan_islands(const ir::Program& program, HostPlans& plans) {
  for (HostPlan& h : plans.hosts) {
    for (const ir::Island& island : program.islands)
      if (program.arch.pes[island.pe].host == h.host)
        h.islands.push_back(plan_detail::plan_island(program, island));
    plan_detail::plan_mapped_rings(program, h);
  }
}

void plan_handoffs(const ir::Program& program, const ActorSignatures* signatures,
                   HostPlans& plans) {
  if (!signatures) return;
  for (HostPlan& h : plans.hosts) {
    plan_detail::sign_nodes(program, *signatures, h);
    plan_detail::plan_graphs(h);
    plan_detail::plan_checkpoints(program, h);
  }
}

void plan_names(HostPlans& plans) {
  for (HostPlan& h : plans.hosts) {
    h.files = plan_detail::plan_files(h);
    plan_detail::name_members(h);
  }
}

HostPlans plan_hosts(const ir::Program& program, const ir::Ig& ig, const Migrations* migrations,
                     const PlanOptions& options, const ActorSignatures* signatures) {
  HostPlans plans = plan_entries(program, ig, migrations, options);
  plan_steps(plans);
  plan_islands(program, plans);
  plan_handoffs(program, signatures, plans);
  plan_names(plans);
  return plans;
}

}  // namespace dfgc
