#include "passes/insert_buffers.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "passes/routes.hpp"
#include "support/assert.hpp"

namespace dfgc {

namespace {

class Inserter {
 public:
  Inserter(const ir::Dfg& dfg, const ir::ArchGraph& arch, const ir::Mapping& mapping)
      : dfg_(dfg), arch_(arch), mapping_(mapping), router_(arch) {}

  BufferPlan run() {
    plan_.edge_buffer.assign(dfg_.edges.size(), 0);
    plan_.edge_shared.assign(dfg_.edges.size(), false);
    plan_.port_buffer.resize(dfg_.nodes.size());
    std::vector<std::vector<ir::EdgeId>> out_edges(dfg_.nodes.size());
    for (ir::EdgeId e = 0; e < dfg_.edges.size(); ++e) out_edges[dfg_.edges[e].src].push_back(e);
    for (ir::NodeId n = 0; n < dfg_.nodes.size(); ++n) {
      const ir::Actor& actor = dfg_.actor_of(n);
      plan_.port_buffer[n].assign(actor.ports.size(), 0);
      for (std::uint32_t port = 0; port < actor.ports.size(); ++port)
        if (actor.ports[port].dir == ir::PortDir::out) insert_output(n, port, out_edges[n]);
    }
    bind_inputs();
    return std::move(plan_);
  }

 private:
  /// The PE that stands for `pe`'s memory: a host's first cpu for each of its cpus.
  ir::PeId memory_of(ir::PeId pe) const {
    return arch_.pes[pe].kind == ir::PeKind::cpu ? arch_.hosts[arch_.pes[pe].host].cpu : pe;
  }

  /// The output's own buffer, then the route of each of its edges. Buffers are looked up by the
  /// memory they are in, so that the cpus of a host share them.
  void insert_output(ir::NodeId n, std::uint32_t port, const std::vector<ir::EdgeId>& edges) {
    std::map<ir::PeId, ir::BufferId> in_memory;
    const ir::PeId home = mapping_.pe_of[n];
    const ir::TypeId type = dfg_.block_type(n, port);
    ir::BufferId root = add_buffer(n, port, type, home, 0);
    plan_.port_buffer[n][port] = root;
    in_memory[memory_of(home)] = root;
    for (ir::EdgeId e : edges) {
      if (dfg_.edges[e].src_port != port) continue;
      const ir::PeId dst = mapping_.pe_of[dfg_.edges[e].dst];
      const Route& route = router_.route(memory_of(home), memory_of(dst));
      ir::BufferId prev = root;
      for (std::size_t i = 1; i < route.pes.size(); ++i) {
        auto [it, fresh] = in_memory.try_emplace(route.pes[i], 0);
        const ir::PeId pe = i + 1 == route.pes.size() ? dst : route.pes[i];
        if (fresh) it->second = add_hop(prev, pe, route.links[i - 1]);
        prev = it->second;
      }
      plan_.edge_buffer[e] = prev;
      plan_.buffers[prev].consumers.push_back(e);
      if (plan_.buffers[prev].pe != dst) {
        plan_.edge_shared[e] = true;
        plan_.buffers[prev].shared = true;
      }
    }
  }

  ir::BufferId add_buffer(ir::NodeId n, std::uint32_t port, ir::TypeId type, ir::PeId pe,
                          std::uint32_t hop) {
    PlannedBuffer b;
    b.name = fmt::format("{}.{}@{}", dfg_.nodes[n].name, dfg_.actor_of(n).ports[port].name,
                         arch_.pes[pe].name);
    b.pe = pe;
    b.node = n;
    b.port = port;
    b.type = type;
    b.hop = hop;
    plan_.buffers.push_back(std::move(b));
    return static_cast<ir::BufferId>(plan_.buffers.size() - 1);
  }

  ir::BufferId add_hop(ir::BufferId from, ir::PeId pe, ir::LinkId link) {
    const PlannedBuffer& src = plan_.buffers[from];
    ir::BufferId to = add_buffer(src.node, src.port, src.type, pe, src.hop + 1);
    auto t = static_cast<ir::TransferId>(plan_.transfers.size());
    plan_.transfers.push_back({from, to, link});
    plan_.buffers[from].out.push_back(t);
    plan_.buffers[to].in = t;
    return to;
  }

  /// Every input port reads the buffer its (single) edge ends in.
  void bind_inputs() {
    std::vector<std::vector<std::uint32_t>> feeds(dfg_.nodes.size());
    for (ir::NodeId n = 0; n < dfg_.nodes.size(); ++n)
      feeds[n].assign(dfg_.actor_of(n).ports.size(), 0);
    for (ir::EdgeId e = 0; e < dfg_.edges.size(); ++e) {
      const ir::Edge& edge = dfg_.edges[e];
      ++feeds[edge.dst][edge.dst_port];
      plan_.port_buffer[edge.dst][edge.dst_port] = plan_.edge_buffer[e];
    }
    for (ir::NodeId n = 0; n < dfg_.nodes.size(); ++n)
      for (std::uint32_t port = 0; port < feeds[n].size(); ++port)
        if (dfg_.actor_of(n).ports[port].dir == ir::PortDir::in)
          DFGC_INTERNAL_ASSERT(feeds[n][port] == 1, "input ", dfg_.nodes[n].name, ".",
                               dfg_.actor_of(n).ports[port].name, " is fed by ", feeds[n][port],
                               " edges");
  }

  const ir::Dfg& dfg_;
  const ir::ArchGraph& arch_;
  const ir::Mapping& mapping_;
  Router router_;
  BufferPlan plan_;
};

}  // namespace

std::vector<ir::TransferId> BufferPlan::path_to(ir::BufferId b) const {
  std::vector<ir::TransferId> path;
  for (auto t = buffers[b].in; t; t = buffers[transfers[*t].from].in) path.push_back(*t);
  std::reverse(path.begin(), path.end());
  return path;
}

BufferPlan insert_buffers(const ir::Dfg& dfg, const ir::ArchGraph& arch,
                          const ir::Mapping& mapping) {
  return Inserter(dfg, arch, mapping).run();
}

std::string dump(const BufferPlan& plan, const ir::Program& p) {
  std::string out;
  for (const PlannedBuffer& b : plan.buffers)
    out += fmt::format("buffer {} hop {}{}\n", b.name, b.hop, b.shared ? " shared" : "");
  for (const PlannedTransfer& t : plan.transfers) {
    const ir::Link& l = p.arch.links[t.link];
    out += fmt::format("transfer {} -> {} {} {}{}{}\n", plan.buffers[t.from].name,
                       plan.buffers[t.to].name, ir::to_string(l.kind), p.arch.pes[l.a].name,
                       l.bidirectional ? "<->" : "->", p.arch.pes[l.b].name);
  }
  return out;
}

}  // namespace dfgc
