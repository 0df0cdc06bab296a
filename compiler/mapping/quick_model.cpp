#include "mapping/quick_model.hpp"

#include <algorithm>
#include <queue>

#include "passes/latency.hpp"
#include "passes/schedule.hpp"

namespace dfgc::mapping {

namespace {

std::vector<std::vector<bool>> reachability(const ir::ArchGraph& arch) {
  const std::size_t n = arch.pes.size();
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (ir::PeId from = 0; from < n; ++from) {
    std::vector<ir::PeId> work{from};
    reach[from][from] = true;
    while (!work.empty()) {
      ir::PeId p = work.back();
      work.pop_back();
      for (const ir::Link& l : arch.links)
        for (ir::PeId q : {l.a, l.b})
          if (!reach[from][q] && l.connects(p, q)) {
            reach[from][q] = true;
            work.push_back(q);
          }
    }
  }
  return reach;
}

}  // namespace

QuickModel::QuickModel(const ir::Program& program, const CostTable& costs, const PlanOptions& plan)
    : p_(program),
      costs_(costs),
      plan_(plan),
      router_(program.arch),
      loads_(program.arch, costs),
      core_reads_(program),
      order_(topological_order(program.dfg)),
      walk_(program.dfg),
      reach_(reachability(program.arch)) {
  const ir::Dfg& dfg = p_.dfg;
  const std::size_t pes = p_.arch.pes.size();
  routes_.assign(pes, std::vector<const Route*>(pes, nullptr));
  // As buffer insertion: the cpus of a host share its memory, reached through its first cpu.
  for (ir::PeId a = 0; a < pes; ++a)
    for (ir::PeId b = 0; b < pes; ++b)
      if (reach_[memory_of(a)][memory_of(b)])
        routes_[a][b] = &router_.route(memory_of(a), memory_of(b));
  for (ir::NodeId n = 0; n < dfg.nodes.size(); ++n) {
    const auto& c = dfg.nodes[n].candidates;
    allowed_.push_back(c.empty() ? std::vector<ir::PeId>{p_.mapping.pe_of[n]} : c);
    const ir::Actor& a = dfg.actor_of(n);
    for (std::uint32_t port = 0; port < a.ports.size(); ++port) {
      if (a.ports[port].dir != ir::PortDir::out) continue;
      Output out{n, port, p_.types[dfg.block_type(n, port)].bytes(), {}};
      for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e)
        if (dfg.edges[e].src == n && dfg.edges[e].src_port == port) out.edges.push_back(e);
      outputs_.push_back(std::move(out));
    }
  }
  index_.resize(dfg.nodes.size());
  for (std::uint32_t i = 0; i < order_.size(); ++i) index_[order_[i]] = i;
  in_edges_.resize(dfg.nodes.size());
  for (ir::EdgeId e = 0; e < dfg.edges.size(); ++e) in_edges_[dfg.edges[e].dst].push_back(e);
  edge_hop_.assign(dfg.edges.size(), 0);
  edge_shared_.assign(dfg.edges.size(), false);
}

ir::PeId QuickModel::memory_of(ir::PeId pe) const {
  const ir::Pe& x = p_.arch.pes[pe];
  return x.kind == ir::PeKind::cpu ? p_.arch.hosts[x.host].cpu : pe;
}

bool QuickModel::build_tree(const Output& out, const std::vector<ir::PeId>& pe_of) {
  const ir::PeId home = pe_of[out.node];
  on_pe_.assign(1, {memory_of(home), 0});
  for (ir::EdgeId e : out.edges) {
    const ir::PeId dst = pe_of[p_.dfg.edges[e].dst];
    if (dst == kUnplaced) continue;
    const Route* route = routes_[home][dst];
    if (!route) return false;
    std::size_t prev = 0;
    for (std::size_t i = 1; i < route->pes.size(); ++i) {
      std::size_t at = 0;
      while (at < on_pe_.size() && on_pe_[at].first != route->pes[i]) ++at;
      if (at == on_pe_.size()) {
        std::uint32_t hop = on_pe_[prev].second + 1;
        on_pe_.emplace_back(route->pes[i], hop);
        transfers_.push_back(
            {route->pes[i - 1], route->pes[i], route->links[i - 1], out.bytes, hop, false});
      }
      prev = at;
    }
    edge_hop_[e] = on_pe_[prev].second;
    edge_shared_[e] = edge_hop_[e] == 0 && dst != home;
  }
  return true;
}

void QuickModel::mark_mapped(std::size_t first, const Output& out,
                             const std::vector<ir::PeId>& pe_of) {
  const ir::ArchGraph& arch = p_.arch;
  const ir::Dfg& dfg = p_.dfg;
  auto touched_once = [&](ir::PeId gpu) {
    if (pe_of[out.node] == gpu && !dfg.actor_of(out.node).ports[out.port].mappable) return false;
    return std::all_of(out.edges.begin(), out.edges.end(), [&](ir::EdgeId e) {
      const ir::Edge& edge = dfg.edges[e];
      return pe_of[edge.dst] != gpu || dfg.actor_of(edge.dst).ports[edge.dst_port].mappable;
    });
  };
  for (std::size_t i = first; i < transfers_.size(); ++i) {
    Transfer& t = transfers_[i];
    if (!between_cpu_and_gpu(arch, t.from, t.to)) continue;
    const ir::PeId gpu = arch.pes[t.to].kind == ir::PeKind::gpu ? t.to : t.from;
    if (!touched_once(gpu)) continue;
    std::uint32_t with_cpu = 0, other = 0;
    for (std::size_t j = first; j < transfers_.size(); ++j) {
      const Transfer& u = transfers_[j];
      if (u.from == gpu || u.to == gpu)
        ++(between_cpu_and_gpu(arch, u.from, u.to) ? with_cpu : other);
    }
    t.mapped = mapped_colour(t.bytes, with_cpu, other, plan_);
  }
}

QuickFigures QuickModel::evaluate(const std::vector<ir::PeId>& pe_of) {
  QuickFigures f;
  transfers_.clear();
  for (const Output& out : outputs_) {
    const std::size_t first = transfers_.size();
    if (!build_tree(out, pe_of)) {
      f.routable = false;
      return f;
    }
    mark_mapped(first, out, pe_of);
  }
  std::uint32_t max_hop = 0;
  for (const Transfer& t : transfers_) max_hop = std::max(max_hop, t.hop);
  loads_.reset(std::max(max_hop, 1u));
  for (ir::NodeId n = 0; n < pe_of.size(); ++n)
    loads_.fire(pe_of[n], costs_.firing[n][pe_of[n]].value_or(0));
  core_reads_.charge(loads_, pe_of);
  for (const Transfer& t : transfers_)
    if (t.mapped)
      loads_.mapped_transfer(t.from, t.to, t.link, t.bytes, max_hop - t.hop);
    else
      loads_.transfer(t.from, t.to, t.link, t.bytes, max_hop - t.hop);
  std::vector<std::uint32_t> cycles(p_.dfg.edges.size(), 0);
  for (ir::Strategy s : ir::kStrategies) {
    f.period[s] = loads_.period(s);
    for (ir::EdgeId e = 0; e < cycles.size(); ++e) {
      const ir::Edge& edge = p_.dfg.edges[e];
      // As latency.hpp: another cpu of the host reads a firing's output in the next cycle; a
      // back edge within a PE is read the cycle after its write.
      const bool back = !edge_shared_[e] && pe_of[edge.src] == pe_of[edge.dst] &&
                        index_[edge.dst] <= index_[edge.src];
      cycles[e] = edge_shared_[e] ? 1 : edge_delay(s, edge_hop_[e]) + (back ? 1 : 0);
    }
    FirstCycles first = first_cycles(p_.dfg, walk_, cycles);
    if (first.uncovered && f.loops_covered) {
      f.loops_covered = false;
      f.uncovered = first.uncovered;
      f.uncovered_in = s;
      for (ir::EdgeId e : f.uncovered->edges) f.uncovered->edge_transfers.push_back(edge_hop_[e]);
    }
    f.latency[s] = first.node.empty() ? 0 : *std::max_element(first.node.begin(), first.node.end());
  }
  for (const Resource& r : loads_.resources()) f.total_load += r.load;
  if (f.uncovered)
    f.loop_bound =
        f.period[f.uncovered_in] * f.uncovered->cycles() / std::max(f.uncovered->tokens, 1u);
  return f;
}

double QuickModel::cheapest(ir::PeId pe, std::int64_t bytes, bool into) const {
  pe = memory_of(pe);
  double best = std::numeric_limits<double>::infinity();
  for (ir::LinkId l = 0; l < p_.arch.links.size(); ++l) {
    const ir::Link& link = p_.arch.links[l];
    for (ir::PeId other : {link.a, link.b}) {
      if (other == pe) continue;
      ir::PeId from = into ? other : pe;
      ir::PeId to = into ? pe : other;
      if (link.connects(from, to))
        best = std::min(best, costs_.transfer_time(p_.arch, l, from, bytes));
    }
  }
  return best;
}

double QuickModel::fire_bound(const std::vector<ir::PeId>& partial) const {
  std::vector<double> load(p_.arch.pes.size(), 0);
  double unplaced = 0;
  for (ir::NodeId n = 0; n < partial.size(); ++n)
    if (partial[n] != kUnplaced) load[partial[n]] += costs_.firing[n][partial[n]].value_or(0);
  double bound = *std::max_element(load.begin(), load.end());
  double total = 0;
  for (double l : load) total += l;
  for (ir::NodeId n = 0; n < partial.size(); ++n) {
    if (partial[n] != kUnplaced) continue;
    double cheapest = std::numeric_limits<double>::infinity();
    double best_end = std::numeric_limits<double>::infinity();
    for (ir::PeId pe : allowed_[n]) {
      double t = costs_.firing[n][pe].value_or(0);
      cheapest = std::min(cheapest, t);
      best_end = std::min(best_end, load[pe] + t);
    }
    unplaced += cheapest;
    bound = std::max(bound, best_end);
  }
  return std::max(bound, (total + unplaced) / static_cast<double>(load.size()));
}

double QuickModel::period_bound(ir::Strategy s, const std::vector<ir::PeId>& partial) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const ir::Edge& e : p_.dfg.edges)
    if (partial[e.src] != kUnplaced && partial[e.dst] != kUnplaced &&
        !reach_[memory_of(partial[e.src])][memory_of(partial[e.dst])])
      return inf;
  const std::size_t pes = p_.arch.pes.size();
  // Slots as in Loads: link directions, then H2D and D2H engines.
  std::vector<double> link(2 * p_.arch.links.size(), 0), h2d(pes, 0), d2h(pes, 0);
  double longest = 0;  // no overlap: a transfer part lasts at least its longest path
  transfers_.clear();
  for (const Output& out : outputs_) {
    const ir::PeId home = partial[out.node];
    if (home == kUnplaced) continue;
    bool complete = true;
    for (ir::EdgeId e : out.edges) complete &= partial[p_.dfg.edges[e].dst] != kUnplaced;
    if (complete) {
      std::size_t first = transfers_.size();
      build_tree(out, partial);
      mark_mapped(first, out, partial);
      for (std::size_t i = first; i < transfers_.size(); ++i) {
        const Transfer& t = transfers_[i];
        const std::size_t dir = 2 * t.link + (p_.arch.links[t.link].a == t.from ? 0 : 1);
        if (t.mapped) {  // the kernel's access; the host copy is part of a step or the CPU's load
          link[dir] += costs_.mapped_read_time(p_.arch, t.link, t.from, t.bytes);
          longest = std::max(longest, costs_.host_copy_time(p_.arch, t.link, t.from, t.bytes));
          continue;
        }
        double time = costs_.transfer_time(p_.arch, t.link, t.from, t.bytes);
        link[dir] += time;
        if (p_.arch.pes[t.to].kind == ir::PeKind::gpu) h2d[t.to] += time;
        if (p_.arch.pes[t.from].kind == ir::PeKind::gpu) d2h[t.from] += time;
        longest = std::max(longest, time);
      }
      continue;
    }
    // A token small enough to be mapped may cost no copy engine: nothing bounds it.
    if (mapped_colour(out.bytes, 1, 0, plan_)) continue;
    std::vector<ir::PeId> remote;
    for (ir::EdgeId e : out.edges) {
      ir::PeId dst = partial[p_.dfg.edges[e].dst];
      if (dst != kUnplaced && memory_of(dst) != memory_of(home) &&
          std::find(remote.begin(), remote.end(), dst) == remote.end())
        remote.push_back(dst);
    }
    for (ir::PeId dst : remote) {
      double in = cheapest(dst, out.bytes, true);
      if (p_.arch.pes[dst].kind == ir::PeKind::gpu) h2d[dst] += in;
      longest = std::max(longest, in);
    }
    if (!remote.empty() && p_.arch.pes[home].kind == ir::PeKind::gpu)
      d2h[home] += cheapest(home, out.bytes, false);
  }
  double fire = fire_bound(partial);
  if (s == ir::Strategy::no_overlap) return fire + longest + costs_.overhead[s];
  double bound = fire;
  for (const auto* v : {&link, &h2d, &d2h})
    for (double x : *v) bound = std::max(bound, x);
  return bound + costs_.overhead[s];
}

std::uint32_t QuickModel::latency_bound(ir::Strategy s,
                                        const std::vector<ir::PeId>& partial) const {
  std::vector<std::uint32_t> latency(partial.size(), 0);
  std::uint32_t bound = 0;
  for (ir::NodeId n : order_) {
    for (ir::EdgeId e : in_edges_[n]) {
      const ir::Edge& edge = p_.dfg.edges[e];
      if (edge.delay > 0) continue;  // may only lower the first cycles
      ir::PeId a = partial[edge.src], b = partial[edge.dst];
      std::uint32_t hops = 0;
      if (a != kUnplaced && b != kUnplaced && a != b && routes_[a][b])
        hops = static_cast<std::uint32_t>(routes_[a][b]->links.size());
      // Two cpus of one host: read in place, a cycle later.
      const bool shared = a != kUnplaced && b != kUnplaced && a != b && hops == 0;
      latency[n] = std::max(latency[n], latency[edge.src] + (shared ? 1 : edge_delay(s, hops)));
    }
    bound = std::max(bound, latency[n]);
  }
  return bound;
}

}  // namespace dfgc::mapping
