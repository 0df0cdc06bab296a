#include "passes/schedule.hpp"

#include <functional>
#include <queue>

#include <fmt/format.h>

#include "support/assert.hpp"

namespace dfgc {

/// Kahn's algorithm with the ready nodes in a min-heap of node ids (spec order).
std::vector<ir::NodeId> topological_order(const ir::Dfg& dfg) {
  std::vector<std::uint32_t> missing(dfg.nodes.size(), 0);
  std::vector<std::vector<ir::NodeId>> successors(dfg.nodes.size());
  for (const ir::Edge& e : dfg.edges) {
    if (e.delay > 0) continue;
    ++missing[e.dst];
    successors[e.src].push_back(e.dst);
  }
  std::priority_queue<ir::NodeId, std::vector<ir::NodeId>, std::greater<>> ready;
  for (ir::NodeId n = 0; n < dfg.nodes.size(); ++n)
    if (missing[n] == 0) ready.push(n);
  std::vector<ir::NodeId> order;
  order.reserve(dfg.nodes.size());
  while (!ready.empty()) {
    ir::NodeId n = ready.top();
    ready.pop();
    order.push_back(n);
    for (ir::NodeId s : successors[n])
      if (--missing[s] == 0) ready.push(s);
  }
  DFGC_INTERNAL_ASSERT(order.size() == dfg.nodes.size(),
                       "the data-flow graph has a cycle without initial tokens");
  return order;
}

Schedule schedule(const ir::Dfg& dfg, const ir::ArchGraph& arch, const ir::Mapping& mapping) {
  DFGC_INTERNAL_ASSERT(mapping.pe_of.size() == dfg.nodes.size(), "mapping of the wrong size");
  Schedule s;
  s.order = topological_order(dfg);
  s.index.resize(dfg.nodes.size());
  s.position.resize(dfg.nodes.size());
  s.per_pe.resize(arch.pes.size());
  for (std::uint32_t i = 0; i < s.order.size(); ++i) {
    ir::NodeId n = s.order[i];
    std::vector<ir::NodeId>& on_pe = s.per_pe[mapping.pe_of[n]];
    s.index[n] = i;
    s.position[n] = static_cast<std::uint32_t>(on_pe.size());
    on_pe.push_back(n);
  }
  return s;
}

std::string dump(const Schedule& s, const ir::Program& p) {
  std::string out;
  for (std::uint32_t i = 0; i < s.order.size(); ++i)
    out += fmt::format("{} {} @ {}\n", i, p.dfg.nodes[s.order[i]].name,
                       p.arch.pes[p.mapping.pe_of[s.order[i]]].name);
  return out;
}

}  // namespace dfgc
