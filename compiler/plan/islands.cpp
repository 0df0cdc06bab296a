// The host plan's islands (PlanIsland) and the mapped rings between a CPU's and a GPU's islands
// (PlanMappedRing).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "plan/detail.hpp"
#include "support/assert.hpp"

namespace dfgc::plan_detail {

namespace {

/// The C++ name of the mapped ring of the edge "d1.y -> m1.x": "ring_d1_y".
std::string mapped_ring_ident(std::string_view edge) {
  return "ring_" + identifier(edge.substr(0, edge.find(" -> ")));
}

/// The first cycle of node n's firing in a strategy's plan.
std::uint32_t first_cycle_of(const StrategyPlan& sp, ir::NodeId n) {
  for (const Entry& e : sp.entries)
    if (e.kind() == Entry::Kind::firing && e.id == n && e.alternative < 0) return e.first_cycle;
  DFGC_INTERNAL_ASSERT(false, "no firing of node ", n, " in the plan");
  return 0;
}

}  // namespace

/// The host's mapped rings (PlanMappedRing), sized from both strategies' first cycles and the
/// GPU's cycles in flight; each island's view of one takes its capacity.
void plan_mapped_rings(const ir::Program& program, HostPlan& h) {
  std::map<std::string, std::size_t> by_edge;
  for (const ir::Island& island : program.islands) {
    if (program.arch.pes[island.pe].host != h.host) continue;
    for (const ir::IslandFifo& f : island.fifos) {
      if (!f.mapped) continue;
      auto [it, fresh] = by_edge.try_emplace(f.name, h.mapped_rings.size());
      if (fresh) {
        PlanMappedRing r;
        r.name = f.name;
        r.ident = mapped_ring_ident(f.name);
        r.elem = std::string(ir::cxx_name(f.elem));
        h.mapped_rings.push_back(std::move(r));
      }
      PlanMappedRing& r = h.mapped_rings[it->second];
      (f.dst_member ? r.to : r.from) = island.name;
      r.stated = r.stated || f.stated;
      r.per_iteration = std::max(r.per_iteration, f.capacity);
      if (f.initial) {
        r.initial = f.initial;
        r.initial_value = f.initial_value;
      }
    }
  }
  auto island_named = [&](const std::string& name) -> const ir::Island& {
    auto it = std::find_if(program.islands.begin(), program.islands.end(),
                           [&](const ir::Island& i) { return i.name == name; });
    DFGC_INTERNAL_ASSERT(it != program.islands.end(), "no island ", name);
    return *it;
  };
  for (PlanMappedRing& r : h.mapped_rings) {
    const ir::Island& from = island_named(r.from);
    const ir::Island& to = island_named(r.to);
    const ir::PeId gpu = program.arch.pes[from.pe].kind == ir::PeKind::gpu ? from.pe : to.pe;
    for (ir::Strategy s : ir::kStrategies) {
      const StrategyPlan& sp = h.strategies[s];
      const std::uint32_t distance = first_cycle_of(sp, to.node) - first_cycle_of(sp, from.node);
      const std::uint32_t in_flight =
          gpu < sp.gpu_cycles.size() && sp.gpu_cycles[gpu] ? sp.gpu_cycles[gpu]->in_flight : 1;
      r.iterations = std::max(r.iterations, distance + 1 + in_flight);
    }
    r.capacity = r.stated ? r.per_iteration : r.per_iteration * r.iterations + r.initial;
    for (PlanIsland& island : h.islands)
      for (PlanIslandFifo& f : island.fifos)
        if (f.mapped == r.ident) f.capacity = r.capacity;
  }
}

/// An island as its generated class needs it.
PlanIsland plan_island(const ir::Program& program, const ir::Island& island) {
  const ir::Actor& actor = program.dfg.actors[island.actor];
  const ir::Impl& impl = actor.impls.front();
  PlanIsland x{island.name, impl.class_name, impl.header_path, island.pe, impl.kind, {}, {}, {}};
  for (std::size_t f = 0; f < island.fifos.size(); ++f) {
    const ir::IslandFifo& fifo = island.fifos[f];
    x.fifos.push_back({fifo.name, fmt::format("fifo{}", f), std::string(ir::cxx_name(fifo.elem)),
                       fifo.capacity, fifo.stated,
                       fifo.mapped ? mapped_ring_ident(fifo.name) : std::string(),
                       fifo.mapped ? 0 : fifo.initial, fifo.initial_value});
  }
  for (std::size_t p = 0; p < actor.ports.size(); ++p)
    x.ports.push_back({actor.ports[p].name, actor.ports[p].dir == ir::PortDir::in,
                       island.port_fifo[p], island.port_elements[p], island.port_bounded[p],
                       island.port_between[p], island.port_mapped[p], island.port_counted[p]});
  for (std::uint32_t m = 0; m < island.members.size(); ++m) {
    const ir::IslandMember& member = island.members[m];
    const ir::Actor& a = program.dfg.actors[member.actor];
    const ir::Impl& i = *a.impl_for(impl.kind);
    PlanIslandMember y{
        member.name, a.name,        member.actor,  i.class_name,
        i.header,    i.header_path, member.params, std::vector<std::uint32_t>(a.ports.size()),
        {}};
    for (const ir::Port& port : a.ports) {
      y.port_input.push_back(port.dir == ir::PortDir::in);
      y.port_names.push_back(port.name);
    }
    for (std::uint32_t f = 0; f < island.fifos.size(); ++f) {
      const ir::IslandFifo& fifo = island.fifos[f];
      if (fifo.src_member == m) y.port_fifo[fifo.src_port] = f;
      if (fifo.dst_member == m) y.port_fifo[fifo.dst_port] = f;
    }
    if (!i.parallel.empty()) {
      y.parallel = i.parallel;
      std::uint64_t batch = std::numeric_limits<std::uint32_t>::max();
      for (std::size_t p = 0; p < a.ports.size(); ++p) {
        const auto ring =
            std::bit_ceil(static_cast<std::uint64_t>(x.fifos[y.port_fifo[p]].capacity));
        batch = std::min<std::uint64_t>(batch, ring / i.parallel[p]);
      }
      DFGC_INTERNAL_ASSERT(batch >= 1, "parallel member ", member.name, " never fits its rings");
      y.batch = static_cast<std::uint32_t>(batch);
      if (impl.kind == ir::PeKind::gpu) {  // a CPU fires a batch on its one thread
        const std::uint32_t warps = (std::min(y.batch, kIslandThreads) + 31) / 32;
        x.threads = std::max(x.threads, warps * 32);
      }
    }
    x.members.push_back(std::move(y));
  }
  return x;
}

}  // namespace dfgc::plan_detail
