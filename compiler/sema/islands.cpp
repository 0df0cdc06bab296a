/// \file
/// Groups the dynamic nodes into islands and folds each into one static node.
#include "sema/islands.hpp"

#include <algorithm>
#include <bit>
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
  return fmt::format("{}.{} -> {}.{}", g.nodes[e.src].name,
                     g.actor_of(e.src).ports[e.src_port].name, g.nodes[e.dst].name,
                     g.actor_of(e.dst).ports[e.dst_port].name);
}

bool on_gpu(const ir::Program& p, ir::NodeId n) {
  return p.arch.pes[p.mapping.pe_of[n]].kind == ir::PeKind::gpu;
}

/// Where dynamic nodes may run: pinned to a CPU or a GPU, staying there.
bool check_placement(const ir::Program& p, DiagnosticEngine& diags) {
  bool ok = true;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    const ir::Node& node = p.dfg.nodes[n];
    const ir::Actor& actor = p.dfg.actor_of(n);
    if (!actor.dynamic) continue;
    auto len = static_cast<std::uint32_t>(node.name.size());
    std::string why;
    if (!node.candidates.empty())
      why = "is free; a node of a dynamic actor is pinned to a CPU or a GPU, where its island runs";
    else if (!node.alternatives.empty())
      why = "has `migrates`; a node of a dynamic actor stays in its island";
    if (why.empty()) continue;
    diags.error(node.loc,
                fmt::format("node '{}' of dynamic actor '{}' {}", node.name, actor.name, why), len);
    ok = false;
  }
  return ok;
}

/// A fifo output has one reader, and a reader: its step writes to it.
bool check_fifo_edges(const ir::Program& p, DiagnosticEngine& diags) {
  bool ok = true;
  std::map<std::pair<ir::NodeId, std::uint32_t>, const ir::Edge*> reader;
  for (const ir::Edge& e : p.dfg.edges) reader.try_emplace({e.src, e.src_port}, nullptr);
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    const ir::Actor& a = p.dfg.actor_of(n);
    for (std::uint32_t port = 0; port < a.ports.size(); ++port) {
      if (!a.dynamic || a.ports[port].dir != ir::PortDir::out || reader.count({n, port})) continue;
      diags.error(
          p.dfg.nodes[n].loc,
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
                   fmt::format(
                       "fifo output '{}.{}' already feeds an edge; a ring has one reader: give the "
                       "actor one output per reader",
                       p.dfg.nodes[e.src].name, p.dfg.actor_of(e.src).ports[e.src_port].name),
                   kArrowLength)
            .note(first->second->loc, "first edge from it is here", kArrowLength);
        ok = false;
      }
    }
  }
  return ok;
}

/// A GPU island shares rings only with the CPUs of its host (mapped memory): no fifo edge between
/// it and another GPU or another host. Its
/// adapters move tokens of a fixed size: a static edge of a bounded type into or out of it is
/// refused (on a CPU, the adapter moves the token's length).
bool check_gpu_boundary(const ir::Program& p, DiagnosticEngine& diags) {
  bool ok = true;
  for (const ir::Edge& e : p.dfg.edges) {
    const bool src_fifo = is_fifo(p.dfg, e.src, e.src_port);
    const bool dst_fifo = is_fifo(p.dfg, e.dst, e.dst_port);
    if (src_fifo != dst_fifo && on_gpu(p, src_fifo ? e.src : e.dst)) {
      const ir::NodeId fixed = src_fifo ? e.dst : e.src;
      const ir::TypeId type = p.dfg.actor_of(fixed).ports[src_fifo ? e.dst_port : e.src_port].type;
      if (p.types[type].bounded) {
        diags.error(e.loc,
                    fmt::format("edge {} carries tokens of the bounded type '{}' into or out of "
                                "an island on {}; an island on a GPU takes and gives tokens of a "
                                "fixed size: use a fixed-size type, or map the island to a CPU",
                                edge_name(p.dfg, e), p.types[type].name,
                                p.arch.pes[p.mapping.pe_of[src_fifo ? e.src : e.dst]].name),
                    kArrowLength);
        ok = false;
      }
      continue;
    }
    if (!src_fifo || !dst_fifo) continue;
    if (p.mapping.pe_of[e.src] == p.mapping.pe_of[e.dst]) continue;
    if (!on_gpu(p, e.src) && !on_gpu(p, e.dst)) continue;
    const ir::Pe& from = p.arch.pes[p.mapping.pe_of[e.src]];
    const ir::Pe& to = p.arch.pes[p.mapping.pe_of[e.dst]];
    if (from.host == to.host && (from.kind != ir::PeKind::gpu || to.kind != ir::PeKind::gpu))
      continue;  // a ring in mapped pinned memory between a CPU and a GPU of one host
    diags.error(e.loc,
                fmt::format("fifo edge {} joins dynamic nodes on {} and {}; an island on a GPU "
                            "shares rings only with the CPUs of its host, in mapped memory: map "
                            "both nodes to one PE or to a GPU and a CPU of one host, or put a "
                            "static actor between them",
                            edge_name(p.dfg, e), from.name, to.name),
                kArrowLength);
    ok = false;
  }
  return ok;
}

/// After folding: a cycle without initial tokens goes through a fifo edge between two islands
/// (the others were refused before), which the static cycle cannot order.
bool check_island_cycles(const ir::Program& p, DiagnosticEngine& diags) {
  const ir::Dfg& g = p.dfg;
  std::vector<std::vector<ir::EdgeId>> out(g.nodes.size());
  for (ir::EdgeId e = 0; e < g.edges.size(); ++e)
    if (g.edges[e].delay == 0) out[g.edges[e].src].push_back(e);
  std::vector<int> state(g.nodes.size(), 0);  // 0 unseen, 1 on the path, 2 done
  std::optional<ir::EdgeId> closing;
  auto visit = [&](auto& self, ir::NodeId n) -> void {
    state[n] = 1;
    for (ir::EdgeId e : out[n]) {
      if (closing) return;
      if (state[g.edges[e].dst] == 1)
        closing = e;
      else if (state[g.edges[e].dst] == 0)
        self(self, g.edges[e].dst);
    }
    state[n] = 2;
  };
  for (ir::NodeId n = 0; n < g.nodes.size() && !closing; ++n)
    if (state[n] == 0) visit(visit, n);
  if (!closing) return true;
  const ir::Edge& e = g.edges[*closing];
  diags.error(
      e.loc,
      fmt::format(
          "the islands {} and {} feed each other through fifo edges between two PEs; islands "
          "on several PEs must form a pipeline, or keep the cycle on one PE",
          g.nodes[e.src].name, g.nodes[e.dst].name),
      kArrowLength);
  return false;
}

ir::NodeId find(std::vector<ir::NodeId>& parent, ir::NodeId n) {
  while (parent[n] != n) n = parent[n] = parent[parent[n]];
  return n;
}

/// Every ring of a member with a parallel action (on a GPU) holds at least the elements one
/// firing takes or gives there; else the action could never fire.
bool check_parallel_rings(const ir::Dfg& g, const ir::Program& p, const ir::Island& island,
                          DiagnosticEngine& diags) {
  if (p.arch.pes[island.pe].kind != ir::PeKind::gpu) return true;
  bool ok = true;
  for (std::uint32_t m = 0; m < island.members.size(); ++m) {
    const ir::Actor& actor = g.actors[island.members[m].actor];
    const ir::Impl* impl = actor.impl_for(ir::PeKind::gpu);
    if (!impl || impl->parallel.empty()) continue;
    for (const ir::IslandFifo& fifo : island.fifos) {
      std::optional<std::uint32_t> port;
      if (fifo.src_member == m) port = fifo.src_port;
      if (fifo.dst_member == m) port = fifo.dst_port;
      if (!port) continue;
      const std::uint64_t ring = std::bit_ceil(static_cast<std::uint64_t>(fifo.capacity));
      const std::uint32_t count = impl->parallel[*port];
      if (ring >= count) continue;
      diags
          .error(
              fifo.loc,
              fmt::format("ring {} holds {} elements, fewer than the {} that one firing of the "
                          "parallel action of node '{}' {} on port '{}', so it could never "
                          "fire; state a capacity of at least {} on the input of the ring",
                          fifo.name, ring, count, island.members[m].name,
                          fifo.src_member == m ? "gives" : "takes", actor.ports[*port].name, count),
              2)
          .note(impl->parallel_loc, "declared 'parallel' here", 8);
      ok = false;
    }
  }
  return ok;
}

}  // namespace

bool form_islands(ir::Program& program, DiagnosticEngine& diags, bool copied) {
  ir::Dfg& g = program.dfg;
  const std::size_t count = g.nodes.size();
  std::vector<bool> dynamic(count);
  bool any = false;
  for (ir::NodeId n = 0; n < count; ++n) {
    dynamic[n] = g.actor_of(n).dynamic;
    any = any || dynamic[n];
  }
  if (!any) return true;
  if (!check_placement(program, diags) || !check_fifo_edges(program, diags) ||
      !check_gpu_boundary(program, diags))
    return false;

  // Connected sets of dynamic nodes on one CPU, each represented by its first node in spec order.
  std::vector<ir::NodeId> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  for (const ir::Edge& e : g.edges) {
    if (!is_fifo(g, e.src, e.src_port) || !is_fifo(g, e.dst, e.dst_port)) continue;
    if (program.mapping.pe_of[e.src] != program.mapping.pe_of[e.dst]) continue;  // two islands
    ir::NodeId a = find(parent, e.src), b = find(parent, e.dst);
    parent[std::max(a, b)] = std::min(a, b);
  }
  std::map<ir::NodeId, std::uint32_t> island_of_root;  // root -> island index
  std::vector<std::optional<std::pair<std::uint32_t, std::uint32_t>>> member_of(
      count);  // (island, member)
  for (ir::NodeId n = 0; n < count; ++n) {
    if (!dynamic[n]) continue;
    auto [it, fresh] = island_of_root.try_emplace(
        find(parent, n), static_cast<std::uint32_t>(program.islands.size()));
    if (fresh) {
      ir::Island island;
      island.name = "island_" + g.nodes[n].name;
      island.pe = program.mapping.pe_of[n];
      program.islands.push_back(std::move(island));
    }
    ir::Island& island = program.islands[it->second];
    member_of[n] = {{it->second, static_cast<std::uint32_t>(island.members.size())}};
    island.members.push_back(
        {g.nodes[n].name, g.nodes[n].actor, g.nodes[n].params, g.nodes[n].loc});
  }
  // The island's node and actor take names of their own: "island_d1", "Island_d1".
  bool named = true;
  for (const ir::Island& island : program.islands) {
    const std::string& first = island.members.front().name;
    for (const ir::Node& node : g.nodes) {
      if (node.name != island.name) continue;
      diags.error(
          node.loc,
          fmt::format("node name '{}' is the name of the island of dynamic node '{}'; rename it",
                      node.name, first),
          static_cast<std::uint32_t>(node.name.size()));
      named = false;
    }
    for (const ir::Actor& actor : g.actors) {
      if (actor.name != "Island_" + first) continue;
      diags.error(
          actor.loc,
          fmt::format(
              "actor name '{}' is the name of the actor of the island of dynamic node '{}'; "
              "rename it",
              actor.name, first),
          static_cast<std::uint32_t>(actor.name.size()));
      named = false;
    }
  }
  if (!named) return false;

  // Each island's actor: one port per edge at its boundary, in spec order. A fifo edge between
  // two islands (on two CPUs) is an output of one and an input of the other, joined by a static
  // edge of a bounded type: each firing, what the first island's ring holds goes to the second.
  auto island_of = [&](ir::NodeId n) {
    return member_of[n] ? std::optional<std::uint32_t>(member_of[n]->first) : std::nullopt;
  };
  std::vector<std::int64_t> largest(program.islands.size(), 1);
  for (const ir::Edge& e : g.edges) {
    if (island_of(e.src) && !member_of[e.dst])
      largest[*island_of(e.src)] =
          std::max(largest[*island_of(e.src)], program.types[e.type].count.value);
    if (island_of(e.dst) && !member_of[e.src])
      largest[*island_of(e.dst)] =
          std::max(largest[*island_of(e.dst)], program.types[e.type].count.value);
  }
  // Islands joined by fifo edges share their largest: an island whose boundary is only such edges
  // (a GPU island between CPU islands) sizes its rings for what crosses them.
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Edge& e : g.edges) {
      const auto from = island_of(e.src), to = island_of(e.dst);
      if (!from || !to || from == to) continue;
      const std::int64_t both = std::max(largest[*from], largest[*to]);
      changed = changed || largest[*from] != both || largest[*to] != both;
      largest[*from] = largest[*to] = both;
    }
  }
  std::vector<std::optional<std::uint32_t>> src_port_of(g.edges.size()),
      dst_port_of(g.edges.size());
  std::vector<std::optional<ir::TypeId>> cross_type(g.edges.size());
  std::vector<ir::Actor> made(program.islands.size());
  // Adds island i's port for (inner, inner_port) with its ring; returns the port's index.
  auto add_port = [&](std::uint32_t i, std::uint32_t m, const ir::Edge& e, bool into,
                      ir::TypeId type, std::int64_t capacity, bool stated, bool between,
                      bool mapped, bool counted) {
    ir::Island& island = program.islands[i];
    ir::Actor& actor = made[i];
    const ir::NodeId inner = into ? e.dst : e.src;
    const std::uint32_t inner_port = into ? e.dst_port : e.src_port;
    const ir::Port& fifo_port = g.actor_of(inner).ports[inner_port];
    const auto port = static_cast<std::uint32_t>(actor.ports.size());
    // "<node>_<port>", numbered where two would join the same way (a_b.c and a.b_c).
    std::string name = g.nodes[inner].name + "_" + fifo_port.name;
    for (int k = 2; actor.port_index(name); ++k)
      name = fmt::format("{}_{}_{}", g.nodes[inner].name, fifo_port.name, k);
    actor.ports.push_back(
        {name, into ? ir::PortDir::in : ir::PortDir::out, type, fifo_port.loc, 1});
    ir::IslandFifo fifo;
    fifo.name = edge_name(g, e);
    fifo.elem = *fifo_port.fifo_elem;
    fifo.loc = e.loc;
    fifo.capacity = capacity;
    fifo.stated = stated;
    if (into) {
      fifo.src_port = port;
      fifo.dst_member = m;
      fifo.dst_port = inner_port;
    } else {
      fifo.src_member = m;
      fifo.src_port = inner_port;
      fifo.dst_port = port;
    }
    island.fifos.push_back(fifo);
    island.port_fifo.push_back(static_cast<std::uint32_t>(island.fifos.size() - 1));
    island.port_elements.push_back(counted ? capacity : program.types[type].count.value);
    island.port_bounded.push_back(program.types[type].bounded);
    island.port_between.push_back(between && !mapped);
    island.port_mapped.push_back(mapped);
    island.port_counted.push_back(counted);
    island.fifos.back().mapped = mapped;
    return port;
  };
  // A fifo edge's `delay D`: the consumer's ring starts with D elements, on top of a computed
  // capacity; a stated one must hold them.
  bool primed = true;
  auto prime = [&](ir::IslandFifo& fifo, const ir::Edge& e) {
    if (e.initial_elements == 0) return;
    fifo.initial = e.initial_elements;
    fifo.initial_value = e.initial;
    if (!fifo.stated) {  // a mapped ring's plan adds them to its iterations' elements
      if (!fifo.mapped) fifo.capacity += e.initial_elements;
      return;
    }
    if (fifo.capacity >= e.initial_elements) return;
    diags.error(e.loc,
                fmt::format("ring {} holds {} elements (its `fifo {}`), fewer than its {} initial "
                            "elements; state a capacity of at least {}",
                            fifo.name, fifo.capacity, fifo.capacity, e.initial_elements,
                            e.initial_elements),
                kArrowLength);
    primed = false;
  };
  for (ir::EdgeId id = 0; id < g.edges.size(); ++id) {
    const ir::Edge& e = g.edges[id];
    const auto from = island_of(e.src), to = island_of(e.dst);
    if (from == to) continue;  // static, or inside one island
    const ir::Port& in = g.actor_of(e.dst).ports[e.dst_port];
    if (from && to) {
      const std::int64_t capacity =
          in.fifo_capacity.value_or(std::max(largest[*from], largest[*to]));
      // Between a CPU and a GPU (one host, check_gpu_boundary): one ring in mapped memory, and a
      // token of one element that orders the firings; `copied`, a counted token. Between two
      // CPUs: a bounded token.
      const bool gpu_end = on_gpu(program, e.src) || on_gpu(program, e.dst);
      const bool mapped = gpu_end && !copied, counted = gpu_end && copied;
      const std::string prefix = mapped ? "Mapped_" : "Fifo_";
      const auto elem = static_cast<std::int64_t>(ir::elem_size(*in.fifo_elem));
      const std::int64_t header = (8 + elem - 1) / elem;  // dfg::kCountedHeader
      const std::int64_t count = mapped ? 1 : counted ? header + capacity : capacity;
      ir::TokenType t;
      t.name = prefix + g.nodes[e.src].name + "_" + g.actor_of(e.src).ports[e.src_port].name;
      for (int k = 2; std::any_of(program.types.begin(), program.types.end(),
                                  [&](const ir::TokenType& x) { return x.name == t.name; });
           ++k)
        t.name = fmt::format("{}{}_{}_{}", prefix, g.nodes[e.src].name,
                             g.actor_of(e.src).ports[e.src_port].name, k);
      t.elem = *in.fifo_elem;
      t.count = {
          count, std::to_string(count), false, {ir::SizeTerm::Kind::integer, count, {}, false, {}}};
      t.loc = e.loc;
      t.bounded = !mapped && !counted;
      t.order_only = mapped;
      cross_type[id] = static_cast<ir::TypeId>(program.types.size());
      program.types.push_back(std::move(t));
      src_port_of[id] =
          add_port(*from, member_of[e.src]->second, e, false, *cross_type[id], capacity,
                   in.fifo_capacity.has_value() && mapped, true, mapped, counted);
      dst_port_of[id] = add_port(*to, member_of[e.dst]->second, e, true, *cross_type[id], capacity,
                                 in.fifo_capacity.has_value(), true, mapped, counted);
      prime(program.islands[*to].fifos.back(), e);
      continue;
    }
    const std::int64_t elements = program.types[e.type].count.value;
    if (to)
      dst_port_of[id] = add_port(*to, member_of[e.dst]->second, e, true, e.type,
                                 in.fifo_capacity.value_or(elements), in.fifo_capacity.has_value(),
                                 false, false, false);
    else
      src_port_of[id] = add_port(*from, member_of[e.src]->second, e, false, e.type, elements, false,
                                 false, false, false);
  }
  for (const ir::Edge& e : g.edges) {
    if (!member_of[e.src] || !member_of[e.dst] || island_of(e.src) != island_of(e.dst)) continue;
    const auto [i, src] = *member_of[e.src];
    const std::uint32_t dst = member_of[e.dst]->second;
    const ir::Port& in = g.actor_of(e.dst).ports[e.dst_port];
    program.islands[i].fifos.push_back({edge_name(g, e), src, e.src_port, dst, e.dst_port,
                                        *in.fifo_elem, in.fifo_capacity.value_or(largest[i]),
                                        in.fifo_capacity.has_value(), e.loc, false});
    prime(program.islands[i].fifos.back(), e);
  }

  if (!primed) return false;
  bool rings_fit = true;
  for (const ir::Island& island : program.islands)
    rings_fit = check_parallel_rings(g, program, island, diags) && rings_fit;
  if (!rings_fit) return false;

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
    const ir::PeKind kind = program.arch.pes[island.pe].kind;
    const std::string header =
        "dfg_islands/" + island.name + (kind == ir::PeKind::gpu ? ".cuh" : ".hpp");
    actor.impls.push_back({kind, header, header, actor.name, g.nodes[n].loc, {}, false});
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
    if (member_of[e.src] && island_of(e.src) == island_of(e.dst)) continue;
    if (src_port_of[id]) e.src_port = *src_port_of[id];
    if (dst_port_of[id]) e.dst_port = *dst_port_of[id];
    if (cross_type[id]) e.type = *cross_type[id];
    e.src = renumber[e.src];
    e.dst = renumber[e.dst];
    folded.edges.push_back(std::move(e));
  }
  g = std::move(folded);
  program.mapping = std::move(mapping);
  return check_island_cycles(program, diags);
}

}  // namespace dfgc::sema
