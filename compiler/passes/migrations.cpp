#include "passes/migrations.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "passes/buffer_depth.hpp"
#include "passes/build_ig.hpp"
#include "passes/color_buffers.hpp"
#include "passes/insert_buffers.hpp"
#include "passes/latency.hpp"
#include "passes/resync_inputs.hpp"
#include "passes/schedule.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::string_view to_string(ShortPathPolicy p) {
  return p == ShortPathPolicy::pad ? "pad" : "pause";
}

namespace {

/// The implementation graph of `program`, the passes of the pipeline in order, with `floor`; none
/// where a loop's initial tokens do not cover its latency there (the loop in `uncovered`).
std::optional<ir::Ig> build_graph(const ir::Program& p, const LatencyFloor& floor,
                                  std::optional<StrategyLoop>& uncovered) {
  Schedule order = schedule(p.dfg, p.arch, p.mapping);
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  BufferDepths depths = buffer_depth(plan);
  Latencies latencies = compute_latency(p.dfg, order, plan, floor);
  uncovered = uncovered_loop(latencies);
  if (uncovered) return std::nullopt;
  DelayLines delays = resync_inputs(p, plan, latencies);
  BufferColouring colours = color_buffers(p, order, plan, depths, latencies, delays);
  return build_ig(p, order, plan, depths, latencies, delays, colours);
}

/// Describes one graph's accesses and storage by text, so that two graphs can be compared.
class Describer {
 public:
  Describer(const ir::Program& p, const ir::IgStrategy& g) : p_(p), g_(g) {}

  /// What fixes a buffer's storage and when it is written: name, size, slots, colour slots and
  /// lag, the writer with its first cycle and lag.
  std::string core(ir::BufferId id) const {
    const ir::IgBuffer& b = g_.buffers[id];
    const ir::IgColour& c = g_.colours[b.colour];
    return fmt::format("{} {} bytes depth {} colour slots {} lag {} written by {}", b.name,
                       b.bytes_text, b.depth, c.slots, b.colour_lag, access(b.writer, true));
  }

  /// When each reader reads: a transfer reads during its whole cycle, so its destination does
  /// not matter; a firing or a delay copy reads at its node's place in the PE's order.
  std::set<std::string> read_times(ir::BufferId id) const {
    std::set<std::string> result;
    for (const ir::Access& a : g_.buffers[id].readers) result.insert(access(a, false));
    return result;
  }

  /// An entry with its kind, endpoints, first cycle and the storage of every buffer it touches
  /// (`storage(b)` names it).
  template <typename Storage>
  std::string entry(const MigrationEntry& e, Storage storage) const {
    switch (e.kind) {
      case MigrationEntry::Kind::firing: {
        const ir::IgFiring& f = g_.firings[e.id];
        std::string s = fmt::format("fire {}@{} from {}", p_.dfg.nodes[f.node].name,
                                    p_.arch.pes[f.pe].name, f.latency);
        for (const ir::PortBinding& b : f.ports)
          s += fmt::format(" [{} lag {}]", storage(b.buffer), b.lag);
        return s;
      }
      case MigrationEntry::Kind::transfer: {
        const ir::IgTransfer& t = g_.transfers[e.id];
        return fmt::format("transfer [{}] lag {} -> [{}] link {} from {}", storage(t.from),
                           t.from_lag, storage(t.to), t.link, t.first_cycle);
      }
      case MigrationEntry::Kind::copy: {
        const ir::IgCopy& c = g_.copies[e.id];
        return fmt::format("copy [{}] lag {} -> [{}] after {} from {}", storage(c.from), c.from_lag,
                           storage(c.to), p_.dfg.nodes[c.after].name, c.first_cycle);
      }
    }
    return {};
  }

 private:
  std::string access(const ir::Access& a, bool whom) const {
    switch (a.kind) {
      case ir::Access::Kind::firing:
        return fmt::format("fire {}.{} from {} lag {}", p_.dfg.nodes[a.id].name,
                           p_.dfg.actor_of(a.id).ports[a.port].name, g_.firings[a.id].latency,
                           a.lag);
      case ir::Access::Kind::transfer: {
        const ir::IgTransfer& t = g_.transfers[a.id];
        if (!whom) return fmt::format("transfer from {} lag {}", t.first_cycle, a.lag);
        return fmt::format("transfer {} -> {} from {} lag {}", g_.buffers[t.from].name,
                           g_.buffers[t.to].name, t.first_cycle, a.lag);
      }
      case ir::Access::Kind::copy: {
        const ir::IgCopy& c = g_.copies[a.id];
        return fmt::format("copy after {} from {} lag {}", p_.dfg.nodes[c.after].name,
                           c.first_cycle, a.lag);
      }
    }
    return {};
  }

  const ir::Program& p_;
  const ir::IgStrategy& g_;
};

std::vector<MigrationEntry> entries_of(const ir::IgStrategy& g) {
  std::vector<MigrationEntry> result;
  for (const ir::IgFiring& f : g.firings)
    result.push_back({MigrationEntry::Kind::firing, f.node, f.latency});
  for (ir::TransferId t = 0; t < g.transfers.size(); ++t)
    result.push_back({MigrationEntry::Kind::transfer, t, g.transfers[t].first_cycle});
  for (ir::CopyId c = 0; c < g.copies.size(); ++c)
    result.push_back({MigrationEntry::Kind::copy, c, g.copies[c].first_cycle});
  return result;
}

std::uint32_t largest_lead(const ir::IgStrategy& g0, const ir::IgStrategy& g1) {
  std::int64_t k = 0;
  for (ir::NodeId n = 0; n < g0.firings.size(); ++n)
    k = std::max<std::int64_t>(k, std::int64_t{g0.firings[n].latency} - g1.firings[n].latency);
  return static_cast<std::uint32_t>(k);
}

MigrationSide classify(const ir::Program& p0, const ir::IgStrategy& g0, const ir::Program& p1,
                       const ir::IgStrategy& g1) {
  MigrationSide side;
  Describer d0(p0, g0), d1(p1, g1);
  // A buffer of G1 keeps a G0 buffer's storage when both are the same storage written at the same
  // times and G1 reads it only at times G0 reads it too: its slots are then live in G1 only when
  // they are in G0, and G0's colouring holds.
  std::map<std::string, ir::BufferId> base_buffers;
  for (ir::BufferId b = 0; b < g0.buffers.size(); ++b) base_buffers.emplace(d0.core(b), b);
  for (ir::BufferId b = 0; b < g1.buffers.size(); ++b) {
    auto it = base_buffers.find(d1.core(b));
    bool kept = it != base_buffers.end() &&
                std::ranges::includes(d0.read_times(it->second), d1.read_times(b));
    side.base_buffer.push_back(kept ? std::int64_t{it->second} : -1);
  }
  auto old_storage = [&](ir::BufferId b) { return "base " + g0.buffers[b].name; };
  auto new_storage = [&](ir::BufferId b) {
    return side.base_buffer[b] >= 0
               ? "base " + g0.buffers[static_cast<ir::BufferId>(side.base_buffer[b])].name
               : "own " + g1.buffers[b].name;
  };
  std::map<std::string, std::size_t> old_entries;
  std::vector<MigrationEntry> base = entries_of(g0);
  for (std::size_t i = 0; i < base.size(); ++i)
    old_entries.emplace(d0.entry(base[i], old_storage), i);
  std::vector<bool> kept(base.size(), false);
  for (const MigrationEntry& e : entries_of(g1)) {
    auto it = old_entries.find(d1.entry(e, new_storage));
    if (it == old_entries.end()) {
      side.new_only.push_back(e);
      continue;
    }
    side.common.push_back(e);
    kept[it->second] = true;
  }
  for (std::size_t i = 0; i < base.size(); ++i)
    if (!kept[i]) side.old_only.push_back(base[i]);

  side.extra_bytes.assign(p1.arch.pes.size(), 0);
  std::vector<std::int64_t> colour_bytes(g1.colours.size(), 0);
  for (ir::BufferId b = 0; b < g1.buffers.size(); ++b)
    if (side.base_buffer[b] < 0)
      colour_bytes[g1.buffers[b].colour] =
          std::max(colour_bytes[g1.buffers[b].colour], g1.buffers[b].bytes);
  for (ir::ColourId c = 0; c < g1.colours.size(); ++c)
    side.extra_bytes[g1.colours[c].pe] += colour_bytes[c] * g1.colours[c].slots;
  side.steps = std::max(g0.transfer_steps, g1.transfer_steps);
  return side;
}

void predict(const ir::Program& p, const ir::IgStrategy& g0, const ir::IgStrategy& g1,
             MigrationSide& side) {
  side.delta = largest_lead(g0, g1);
  std::vector<bool> sink(p.dfg.nodes.size(), true);
  for (const ir::Edge& e : p.dfg.edges) sink[e.src] = false;
  side.idle.clear();
  side.gap = 0;
  for (ir::NodeId n = 0; n < g0.firings.size(); ++n) {
    std::uint32_t idle = g1.firings[n].latency + side.delta - g0.firings[n].latency;
    side.idle.push_back(idle);
    if (sink[n]) side.gap = std::max(side.gap, idle);
  }
}

/// G1 with each (node, PE) of `moves` moved, classified against G0 (`base`).
Migration plan_moves(const ir::Program& program, const ir::Ig& base,
                     const std::vector<std::pair<ir::NodeId, ir::PeId>>& moves,
                     ShortPathPolicy policy) {
  Migration m;
  m.node = moves.front().first;
  m.from = program.mapping.pe_of[m.node];
  m.to = moves.front().second;
  m.policy = policy;
  m.program = program;
  for (const auto& [node, to] : moves) m.program.mapping.pe_of[node] = to;
  LatencyFloor floor;
  ir::PerStrategy<std::uint32_t> k{};
  std::optional<ir::Ig> g1 = build_graph(m.program, floor, m.uncovered);
  if (!g1) return m;
  m.ig = std::move(*g1);
  for (ir::Strategy s : ir::kStrategies) k[s] = largest_lead(base[s], m.ig[s]);
  if (policy == ShortPathPolicy::pad) {
    // No node of G1 may start before its G0 self: its early inputs then wait in delay lines.
    bool again = false;
    for (ir::Strategy s : ir::kStrategies) {
      if (k[s] == 0) continue;
      for (const ir::IgFiring& f : base[s].firings) floor[s].push_back(f.latency);
      again = true;
    }
    if (again) {
      g1 = build_graph(m.program, floor, m.uncovered);
      if (!g1) return m;
      m.ig = std::move(*g1);
    }
  }
  for (ir::Strategy s : ir::kStrategies) {
    MigrationSide& side = m.sides[s];
    side = classify(program, base[s], m.program, m.ig[s]);
    side.k = k[s];
    side.padding = floor[s].empty() ? 0 : k[s];
    predict(program, base[s], m.ig[s], side);
    DFGC_INTERNAL_ASSERT(policy == ShortPathPolicy::pause || side.delta == 0,
                         "padding left a node of the alternative graph early");
  }
  return m;
}

/// Whether two alternatives stop a common entry of G0 in some strategy.
bool conflict(const Migration& a, const Migration& b) {
  for (ir::Strategy s : ir::kStrategies) {
    if (a.sides[s].delta != 0 || b.sides[s].delta != 0) return true;  // every entry stops
    std::set<std::pair<MigrationEntry::Kind, std::uint32_t>> stops;
    for (const MigrationEntry& e : a.sides[s].old_only) stops.insert({e.kind, e.id});
    for (const MigrationEntry& e : b.sides[s].old_only)
      if (stops.count({e.kind, e.id})) return true;
  }
  return false;
}

/// "g:A.c2 + a:A.c1"
std::string moves_text(const ir::Program& p, const Migrations& all,
                       const std::vector<std::size_t>& parts) {
  std::string out;
  for (std::size_t x : parts) {
    const Migration& m = all.alternatives[x];
    out += fmt::format("{}{}:{}", out.empty() ? "" : " + ", p.dfg.nodes[m.node].name,
                       p.arch.pes[m.to].name);
  }
  return out;
}

/// The joint alternatives of `all`'s single ones (the file comment's "Moves that compose").
void plan_joints(const ir::Program& program, const ir::Ig& base, ShortPathPolicy policy,
                 std::size_t most, Migrations& all) {
  const std::size_t singles = all.alternatives.size();
  std::vector<std::vector<bool>> conflicts(singles, std::vector<bool>(singles, false));
  for (std::size_t a = 0; a < singles; ++a)
    for (std::size_t b = a + 1; b < singles; ++b)
      if (all.alternatives[a].node != all.alternatives[b].node && !all.alternatives[a].uncovered &&
          !all.alternatives[b].uncovered)
        conflicts[a][b] = conflicts[b][a] = conflict(all.alternatives[a], all.alternatives[b]);
  // The connected sets of distinct nodes, by size: each level grows the last by one neighbour.
  std::set<std::vector<std::size_t>> level;
  for (std::size_t a = 0; a < singles; ++a)
    for (std::size_t b = a + 1; b < singles; ++b)
      if (conflicts[a][b]) level.insert({a, b});
  std::size_t planned = 0;
  while (!level.empty()) {
    std::set<std::vector<std::size_t>> next;
    for (const std::vector<std::size_t>& parts : level) {
      if (planned == most) {
        all.unplanned.push_back(fmt::format("{}: more than {} joint alternatives (--joints)",
                                            moves_text(program, all, parts), most));
        continue;
      }
      std::vector<std::pair<ir::NodeId, ir::PeId>> moves;
      for (std::size_t x : parts)
        moves.emplace_back(all.alternatives[x].node, all.alternatives[x].to);
      Migration m = plan_moves(program, base, moves, policy);
      m.parts = parts;
      std::string why;
      if (m.uncovered) {
        why = fmt::format("a loop's initial tokens do not cover its latency there ({})",
                          describe(m.uncovered->loop, m.uncovered->strategy, m.program.dfg));
      } else {
        for (ir::Strategy s : ir::kStrategies)
          if (why.empty() && !lost_initial_tokens(program, m, s).empty())
            why = "the tokens in flight on a delayed edge would be lost";
      }
      if (!why.empty()) {
        all.unplanned.push_back(fmt::format("{}: {}", moves_text(program, all, parts), why));
        continue;
      }
      all.alternatives.push_back(std::move(m));
      ++planned;
      for (std::size_t x : parts)
        for (std::size_t y = 0; y < singles; ++y) {
          if (!conflicts[x][y] || std::find(parts.begin(), parts.end(), y) != parts.end()) continue;
          const bool node_taken = std::any_of(parts.begin(), parts.end(), [&](std::size_t z) {
            return all.alternatives[z].node == all.alternatives[y].node;
          });
          if (node_taken) continue;
          std::vector<std::size_t> grown = parts;
          grown.insert(std::upper_bound(grown.begin(), grown.end(), y), y);
          next.insert(std::move(grown));
        }
    }
    level = std::move(next);
  }
}

}  // namespace

Migration plan_migration(const ir::Program& program, const ir::Ig& base, ir::NodeId node,
                         ir::PeId to, ShortPathPolicy policy) {
  return plan_moves(program, base, {{node, to}}, policy);
}

std::vector<ir::EdgeId> lost_initial_tokens(const ir::Program& program, const Migration& m,
                                            ir::Strategy s) {
  std::vector<ir::EdgeId> lost;
  const ir::IgStrategy& g1 = m.ig[s];
  const MigrationSide& side = m.sides[s];
  for (ir::EdgeId e = 0; e < program.dfg.edges.size(); ++e) {
    const ir::Edge& edge = program.dfg.edges[e];
    if (edge.delay == 0) continue;
    const ir::PortBinding& port = g1.firings[edge.dst].ports[edge.dst_port];
    if (side.base_buffer[port.buffer] < 0) lost.push_back(e);
  }
  return lost;
}

Migrations plan_migrations(const ir::Program& program, const ir::Ig& base, ShortPathPolicy policy,
                           std::size_t joints) {
  Migrations result;
  for (ir::NodeId n = 0; n < program.dfg.nodes.size(); ++n)
    for (const ir::Alternative& alt : program.dfg.nodes[n].alternatives)
      result.alternatives.push_back(plan_migration(program, base, n, alt.pe, policy));
  if (program.arch.hosts.size() == 1) plan_joints(program, base, policy, joints, result);
  return result;
}

std::string entry_text(const ir::Program& p, const ir::IgStrategy& g, const MigrationEntry& e) {
  switch (e.kind) {
    case MigrationEntry::Kind::firing:
      return fmt::format("fire {}@{}", p.dfg.nodes[e.id].name, p.arch.pes[g.firings[e.id].pe].name);
    case MigrationEntry::Kind::transfer:
      return fmt::format("transfer {} -> {}", g.buffers[g.transfers[e.id].from].name,
                         g.buffers[g.transfers[e.id].to].name);
    case MigrationEntry::Kind::copy:
      return fmt::format("copy {} <- {}", g.buffers[g.copies[e.id].to].name,
                         g.buffers[g.copies[e.id].from].name);
  }
  return {};
}

std::string dump(const Migrations& migrations, const ir::Program& p, const ir::Ig& base) {
  std::string out;
  for (const Migration& m : migrations.alternatives) {
    if (m.parts.empty())
      out += fmt::format("migration {} : {} -> {} (shorter path: {})\n", p.dfg.nodes[m.node].name,
                         p.arch.pes[m.from].name, p.arch.pes[m.to].name, to_string(m.policy));
    else
      out += fmt::format("joint migration {} (shorter path: {})\n",
                         moves_text(p, migrations, m.parts), to_string(m.policy));
    if (m.uncovered) {
      out += fmt::format("  {} {}\n", ir::to_string(m.uncovered->strategy),
                         describe(m.uncovered->loop, m.uncovered->strategy, p.dfg));
      continue;
    }
    for (ir::Strategy s : ir::kStrategies) {
      const MigrationSide& side = m.sides[s];
      out += fmt::format(
          "  {}: k {} padding {} delta {} pause {} gap {} (iterations); entries {} common, {} "
          "old-only, {} new-only\n",
          ir::to_string(s), side.k, side.padding, side.delta, side.delta, side.gap,
          side.common.size(), side.old_only.size(), side.new_only.size());
      for (ir::PeId pe = 0; pe < side.extra_bytes.size(); ++pe)
        if (side.extra_bytes[pe] > 0)
          out +=
              fmt::format("    extra {} bytes on {}\n", side.extra_bytes[pe], p.arch.pes[pe].name);
      std::vector<std::string> lines;
      for (const MigrationEntry& e : side.old_only)
        lines.push_back(fmt::format("    old-only {} from cycle {}, stops at iteration j*",
                                    entry_text(p, base[s], e), e.first_cycle));
      for (const MigrationEntry& e : side.new_only)
        lines.push_back(
            fmt::format("    new-only {} from cycle {} + {} (delta), starts at "
                        "iteration j*",
                        entry_text(m.program, m.ig[s], e), e.first_cycle, side.delta));
      std::sort(lines.begin(), lines.end());
      for (const std::string& l : lines) out += l + "\n";
    }
  }
  for (const std::string& u : migrations.unplanned)
    out += fmt::format("no joint migration {}: refused at run time\n", u);
  // What the alternatives cost together: their storage lives from start-up.
  const auto joints = static_cast<std::size_t>(
      std::count_if(migrations.alternatives.begin(), migrations.alternatives.end(),
                    [](const Migration& m) { return !m.parts.empty(); }));
  if (migrations.alternatives.empty()) return out;
  out += fmt::format("alternatives: {} single, {} joint\n", migrations.alternatives.size() - joints,
                     joints);
  for (ir::Strategy s : ir::kStrategies) {
    std::vector<std::int64_t> all(p.arch.pes.size(), 0), joint(p.arch.pes.size(), 0);
    for (const Migration& m : migrations.alternatives)
      for (ir::PeId pe = 0; pe < m.sides[s].extra_bytes.size(); ++pe) {
        all[pe] += m.sides[s].extra_bytes[pe];
        if (!m.parts.empty()) joint[pe] += m.sides[s].extra_bytes[pe];
      }
    std::vector<std::string> items;
    for (ir::PeId pe = 0; pe < all.size(); ++pe)
      if (all[pe] > 0)
        items.push_back(joint[pe] > 0 ? fmt::format("{} {} (joints {})", p.arch.pes[pe].name,
                                                    all[pe], joint[pe])
                                      : fmt::format("{} {}", p.arch.pes[pe].name, all[pe]));
    out += fmt::format(
        "  {}: extra bytes {}\n", ir::to_string(s),
        items.empty() ? std::string("none") : fmt::format("{}", fmt::join(items, ", ")));
  }
  return out;
}

}  // namespace dfgc
