// The names of a host's generated sources and the C++ names they declare from spec names: the
// files and the namespace (PlanFiles), the workers and their members (PlanPe, PlanNode, the
// buffer views and the host-to-host endpoints of each strategy).

#include <set>

#include <fmt/format.h>

#include "plan/detail.hpp"

namespace dfgc::plan_detail {

PlanFiles plan_files(const HostPlan& h) {
  PlanFiles out;
  const std::string host = identifier(h.host_name);
  out.ident = host;
  out.project = identifier(h.program->app_name);
  out.app_header = h.multi_host() ? fmt::format("app_{}.hpp", host) : "app.hpp";
  out.rank = fmt::format("rank_{}.cpp", host);
  out.ns = h.multi_host() ? fmt::format("app::host_{}", host) : "app";
  // Two GPUs whose names join the same way (host A's b_c, host A_b's c) are told apart by a
  // number: the later one in spec order gets rank_A_b_c_2.cu.
  out.gpu.resize(h.program->pe_table.size());
  std::set<std::string> taken;
  for (ir::PeId pe = 0; pe < h.program->pe_table.size(); ++pe) {
    if (h.pe(pe).kind != ir::PeKind::gpu) continue;
    const std::string base =
        fmt::format("rank_{}_{}", identifier(h.program->host_names[h.pe(pe).host]),
                    identifier(h.pe(pe).local_name));
    std::string name = base;
    for (int i = 2; !taken.insert(name).second; ++i) name = fmt::format("{}_{}", base, i);
    out.gpu[pe] = name + ".cu";
  }
  if (!h.mapped_rings.empty())
    out.mapped_rings = fmt::format("dfg_islands/mapped_rings_{}.hpp", host);
  return out;
}

void name_pes(ProgramPlan& program) {
  for (PlanPe& pe : program.pe_table) {
    pe.ident = identifier(pe.name);
    pe.worker = "Worker_" + pe.ident;
    if (pe.kind == ir::PeKind::gpu) pe.gpudirect = pe.ident + "_gpudirect_";
  }
}

void name_members(HostPlan& h) {
  std::set<std::pair<ir::PeId, std::string>> instances;
  for (PlanNode& n : h.nodes) {
    // The copies of a spec node on one PE fire one instance, named from the spec node.
    n.member = identifier(n.spec_name()) + "_node_";
    n.shares_instance = !n.origin.empty() && !instances.emplace(n.pe, n.member).second;
    n.initial_members.assign(n.port_types.size(), std::string());
    for (PlanWindow& w : n.windows)
      w.member = fmt::format("{}_window{}_", identifier(n.name), w.port);
    // With migration alternatives the union holds several firing entries of a node on this PE
    // (old-only, new-only): they all read the one member of its instance here.
    for (const Entry& e : h.strategies[ir::Strategy::overlap].entries)
      if (e.kind() == Entry::Kind::firing && e.id == n.id && e.runner == n.pe)
        for (std::uint32_t port = 0; port < e.ports().size(); ++port)
          if (e.ports()[port].initial)
            n.initial_members[port] = fmt::format("{}_initial{}_", identifier(n.name), port);
  }
  for (ir::Strategy s : ir::kStrategies) {
    StrategyPlan& sp = h.strategies[s];
    // A loop's views are its locals; the prefix keeps them apart from the names of namespace
    // scope the loop uses (bytes_<type>, kPe_<pe>). Views shared by both loops are members: the
    // suffix keeps them apart from the other members, as PlanNode::member's does.
    sp.views.assign(sp.touched.size(), {});
    for (ir::PeId pe : h.pes())
      for (ir::BufferId b : sp.touched[pe])
        sp.views[pe][b] =
            h.sharing[pe].views ? sp.buffers[b].ident + "_view_" : "buf_" + sp.buffers[b].ident;
    for (Entry& e : sp.entries)
      if (e.net()) {
        Entry::Transfer& t = e.transfer();
        t.endpoint = sp.buffers[t.to].ident + (t.net == NetEnd::send ? "_send_" : "_recv_");
      }
  }
}

}  // namespace dfgc::plan_detail
