/// \file
/// Groups the dynamic nodes into islands and folds each into one static node.
#include "sema/islands.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace dfgc::sema {

namespace {

constexpr std::uint32_t kArrowLength = 2;

bool is_fifo(const ir::Dfg& g, ir::NodeId n, std::uint32_t port) {
  return g.actor_of(n).ports[port].fifo_elem.has_value();
}

std::string edge_name(const ir::Dfg& g, const ir::Edge& e) {
  return fmt::format("{}.{} -> {}.{}", g.nodes[e.src].name, g.actor_of(e.src).ports[e.src_port].name,
                     g.nodes[e.dst].name, g.actor_of(e.dst).ports[e.dst_port].name);
}

/// Where dynamic nodes may run: pinned to a CPU, staying there.
bool check_placement(const ir::Program& p, DiagnosticEngine& diags) {
  bool ok = true;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    const ir::Node& node = p.dfg.nodes[n];
    const ir::Actor& actor = p.dfg.actor_of(n);
    if (!actor.dynamic) continue;
    auto len = static_cast<std::uint32_t>(node.name.size());
    std::string why;
    if (!node.candidates.empty())
      why = "is free; a node of a dynamic actor is pinned to a CPU, where its island runs";
    else if (p.arch.pes[p.mapping.pe_of[n]].kind != ir::PeKind::cpu)
      why = fmt::format("is mapped on {}; dynamic actors run on a CPU, in an island",
                        p.arch.pes[p.mapping.pe_of[n]].name);
    else if (!node.alternatives.empty())
      why = "has `migrates`; a node of a dynamic actor stays in its island";
    if (why.empty()) continue;
    diags.error(node.loc, fmt::format("node '{}' of dynamic actor '{}' {}", node.name, actor.name, why), len);
    ok = false;
  }
  return ok;
}

/// A fifo edge stays on one CPU; a fifo output has one reader, and a reader: its step writes to it.
bool check_fifo_edges(const ir::Program& p, DiagnosticEngine& diags) {
  bool ok = true;
  std::map<std::pair<ir::NodeId, std::uint32_t>, const ir::Edge*> reader;
  for (const ir::Edge& e : p.dfg.edges) reader.try_emplace({e.src, e.src_port}, nullptr);
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    const ir::Actor& a = p.dfg.actor_of(n);
    for (std::uint32_t port = 0; port < a.ports.size(); ++port) {
      if (!a.dynamic || a.ports[port].dir != ir::PortDir::out || reader.count({n, port})) continue;
      diags.error(p.dfg.nodes[n].loc,
                  fmt::format("fifo output '{}' of node '{}' is not connected; its step writes to a ring, "
                              "which needs a reader",
                              a.ports[port].name, p.dfg.nodes[n].name),
                  static_cast<std::uint32_t>(p.dfg.nodes[n].name.size()));
      ok = false;
    }
  }
  reader.clear();
  for (const ir::Edge& e : p.dfg.edges) {
    const bool from_fifo = is_fifo(p.dfg, e.src, e.src_port);
    if (from_fifo) {
      auto [first, fresh] = reader.try_emplace({e.src, e.src_port}, &e);
      if (!fresh) {
        diags
            .error(e.loc,
                   fmt::format("fifo output '{}.{}' already feeds an edge; a ring has one reader: give the "
                               "actor one output per reader",
                               p.dfg.nodes[e.src].name, p.dfg.actor_of(e.src).ports[e.src_port].name),
                   kArrowLength)
            .note(first->second->loc, "first edge from it is here", kArrowLength);
        ok = false;
      }
    }
    if (!from_fifo || !is_fifo(p.dfg, e.dst, e.dst_port)) continue;
    const ir::PeId a = p.mapping.pe_of[e.src];
    const ir::PeId b = p.mapping.pe_of[e.dst];
    if (a == b) continue;
    diags.error(e.loc,
                fmt::format("fifo edge {} joins nodes on {} and {}; the nodes of an island run on one CPU",
                            edge_name(p.dfg, e), p.arch.pes[a].name, p.arch.pes[b].name),
                kArrowLength);
    ok = false;
  }
  return ok;
}

ir::NodeId find(std::vector<ir::NodeId>& parent, ir::NodeId n) {
  while (parent[n] != n) n = parent[n] = parent[parent[n]];
  return n;
}

}  // namespace

bool form_islands(ir::Program& program, DiagnosticEngine& diags) {
  ir::Dfg& g = program.dfg;
  const std::size_t count = g.nodes.size();
  std::vector<bool> dynamic(count);
  bool any = false;
  for (ir::NodeId n = 0; n < count; ++n) {
    dynamic[n] = g.actor_of(n).dynamic;
    any = any || dynamic[n];
  }
  if (!any) return true;
  if (!check_placement(program, diags) || !check_fifo_edges(program, diags)) return false;

  // Connected sets of dynamic nodes, each represented by its first node in spec order.
  std::vector<ir::NodeId> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  for (const ir::Edge& e : g.edges) {
    if (!is_fifo(g, e.src, e.src_port) || !is_fifo(g, e.dst, e.dst_port)) continue;
    ir::NodeId a = find(parent, e.src), b = find(parent, e.dst);
    parent[std::max(a, b)] = std::min(a, b);
  }
  std::map<ir::NodeId, std::uint32_t> island_of_root;  // root -> island index
  std::vector<std::optional<std::pair<std::uint32_t, std::uint32_t>>> member_of(count);  // (island, member)
  for (ir::NodeId n = 0; n < count; ++n) {
    if (!dynamic[n]) continue;
    auto [it, fresh] = island_of_root.try_emplace(find(parent, n), static_cast<std::uint32_t>(program.islands.size()));
    if (fresh) {
      ir::Island island;
      island.name = "island_" + g.nodes[n].name;
      island.pe = program.mapping.pe_of[n];
      program.islands.push_back(std::move(island));
    }
    ir::Island& island = program.islands[it->second];
    member_of[n] = {{it->second, static_cast<std::uint32_t>(island.members.size())}};
    island.members.push_back({g.nodes[n].name, g.nodes[n].actor, g.nodes[n].params, g.nodes[n].loc});
  }
  // The island's node and actor take names of their own: "island_d1", "Island_d1".
  bool named = true;
  for (const ir::Island& island : program.islands) {
    const std::string& first = island.members.front().name;
    for (const ir::Node& node : g.nodes) {
      if (node.name != island.name) continue;
      diags.error(node.loc,
                  fmt::format("node name '{}' is the name of the island of dynamic node '{}'; rename it",
                              node.name, first),
                  static_cast<std::uint32_t>(node.name.size()));
      named = false;
    }
    for (const ir::Actor& actor : g.actors) {
      if (actor.name != "Island_" + first) continue;
      diags.error(actor.loc,
                  fmt::format("actor name '{}' is the name of the actor of the island of dynamic node '{}'; "
                              "rename it",
                              actor.name, first),
                  static_cast<std::uint32_t>(actor.name.size()));
      named = false;
    }
  }
  if (!named) return false;

  // Each island's actor: one port per boundary edge, in spec order.
  std::vector<std::int64_t> largest(program.islands.size(), 1);
  std::vector<std::optional<std::uint32_t>> boundary_port(g.edges.size());
  std::vector<ir::Actor> made(program.islands.size());
  for (ir::EdgeId id = 0; id < g.edges.size(); ++id) {
    const ir::Edge& e = g.edges[id];
    const bool into = member_of[e.dst] && !member_of[e.src];
    const bool out_of = member_of[e.src] && !member_of[e.dst];
    if (!into && !out_of) continue;
    const auto [i, m] = *member_of[into ? e.dst : e.src];
    ir::Island& island = program.islands[i];
    ir::Actor& actor = made[i];
    const ir::NodeId inner = into ? e.dst : e.src;
    const std::uint32_t inner_port = into ? e.dst_port : e.src_port;
    const ir::Port& fifo_port = g.actor_of(inner).ports[inner_port];
    const ir::TokenType& type = program.types[e.type];
    const auto port = static_cast<std::uint32_t>(actor.ports.size());
    // "<node>_<port>", numbered where two would join the same way (a_b.c and a.b_c).
    std::string name = g.nodes[inner].name + "_" + fifo_port.name;
    for (int k = 2; actor.port_index(name); ++k) name = fmt::format("{}_{}_{}", g.nodes[inner].name, fifo_port.name, k);
    actor.ports.push_back({name, into ? ir::PortDir::in : ir::PortDir::out, e.type, fifo_port.loc, 1});
    boundary_port[id] = port;
    largest[i] = std::max(largest[i], type.count.value);
    ir::IslandFifo fifo;
    fifo.name = edge_name(g, e);
    fifo.elem = *fifo_port.fifo_elem;
    fifo.loc = e.loc;
    fifo.capacity = type.count.value;
    if (into) {
      fifo.src_port = port;
      fifo.dst_member = m;
      fifo.dst_port = inner_port;
      if (fifo_port.fifo_capacity) {
        fifo.capacity = *fifo_port.fifo_capacity;
        fifo.stated = true;
      }
    } else {
      fifo.src_member = m;
      fifo.src_port = inner_port;
      fifo.dst_port = port;
    }
    island.fifos.push_back(fifo);
    island.port_fifo.push_back(static_cast<std::uint32_t>(island.fifos.size() - 1));
    island.port_elements.push_back(type.count.value);
  }
  for (const ir::Edge& e : g.edges) {
    if (!member_of[e.src] || !member_of[e.dst]) continue;
    const auto [i, src] = *member_of[e.src];
    const std::uint32_t dst = member_of[e.dst]->second;
    const ir::Port& in = g.actor_of(e.dst).ports[e.dst_port];
    program.islands[i].fifos.push_back({edge_name(g, e), src, e.src_port, dst, e.dst_port, *in.fifo_elem,
                                        in.fifo_capacity.value_or(largest[i]), in.fifo_capacity.has_value(), e.loc});
  }

  // The graph with one node per island in place of its first member.
  ir::Dfg folded;
  folded.actors = g.actors;
  ir::Mapping mapping;
  std::vector<ir::NodeId> renumber(count);
  for (ir::NodeId n = 0; n < count; ++n) {
    if (member_of[n] && member_of[n]->second != 0) {
      renumber[n] = renumber[find(parent, n)];
      continue;
    }
    renumber[n] = static_cast<ir::NodeId>(folded.nodes.size());
    mapping.pe_of.push_back(program.mapping.pe_of[n]);
    if (!member_of[n]) {
      folded.nodes.push_back(g.nodes[n]);
      continue;
    }
    const std::uint32_t i = member_of[n]->first;
    ir::Island& island = program.islands[i];
    ir::Actor& actor = made[i];
    actor.name = "Island_" + g.nodes[n].name;
    actor.loc = g.nodes[n].loc;
    actor.island = i;
    actor.impls.push_back({ir::PeKind::cpu, "dfg_islands/" + island.name + ".hpp",
                           "dfg_islands/" + island.name + ".hpp", actor.name, g.nodes[n].loc, {}, false});
    island.actor = static_cast<ir::ActorId>(folded.actors.size());
    island.node = renumber[n];
    folded.actors.push_back(std::move(actor));
    ir::Node node;
    node.name = island.name;
    node.actor = island.actor;
    node.loc = g.nodes[n].loc;
    node.mapping_loc = g.nodes[n].mapping_loc;
    folded.nodes.push_back(std::move(node));
  }
  for (ir::EdgeId id = 0; id < g.edges.size(); ++id) {
    ir::Edge e = g.edges[id];
    if (member_of[e.src] && member_of[e.dst]) continue;
    if (member_of[e.src]) e.src_port = *boundary_port[id];
    if (member_of[e.dst]) e.dst_port = *boundary_port[id];
    e.src = renumber[e.src];
    e.dst = renumber[e.dst];
    folded.edges.push_back(std::move(e));
  }
  g = std::move(folded);
  program.mapping = std::move(mapping);
  return true;
}

}  // namespace dfgc::sema
