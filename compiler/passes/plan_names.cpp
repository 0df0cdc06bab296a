// The names of the files and the namespace of a host's generated sources (PlanFiles).

#include <set>

#include <fmt/format.h>

#include "passes/plan_detail.hpp"

namespace dfgc::plan_detail {

PlanFiles plan_files(const HostPlan& h) {
  PlanFiles out;
  const std::string host = identifier(h.host_name);
  out.app_header = h.multi_host() ? fmt::format("app_{}.hpp", host) : "app.hpp";
  out.rank = fmt::format("rank_{}.cpp", host);
  out.ns = h.multi_host() ? fmt::format("app::host_{}", host) : "app";
  // Two GPUs whose names join the same way (host A's b_c, host A_b's c) are told apart by a
  // number: the later one in spec order gets rank_A_b_c_2.cu.
  out.gpu.resize(h.pe_table.size());
  std::set<std::string> taken;
  for (ir::PeId pe = 0; pe < h.pe_table.size(); ++pe) {
    if (h.pe(pe).kind != ir::PeKind::gpu) continue;
    const std::string base = fmt::format("rank_{}_{}", identifier(h.host_names[h.pe(pe).host]),
                                         identifier(h.pe(pe).local_name));
    std::string name = base;
    for (int i = 2; !taken.insert(name).second; ++i) name = fmt::format("{}_{}", base, i);
    out.gpu[pe] = name + ".cu";
  }
  if (!h.mapped_rings.empty())
    out.mapped_rings = fmt::format("dfg_islands/mapped_rings_{}.hpp", host);
  return out;
}

}  // namespace dfgc::plan_detail
