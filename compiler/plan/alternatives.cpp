// The host plan's migration union: each alternative's entries, buffers and storage merged into
// the base plan, and the union's neighbours (plan.hpp's file comment, "Migration
// alternatives").
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "plan/detail.hpp"

namespace dfgc::plan_detail {

/// The neighbours of every PE from the entries of a (union) plan, as add_neighbours() computes
/// them from an Ig: the owner of a colour and every runner of a transfer touching it share
/// memory, and so does every runner of a firing or delay copy reading it in place with each.
void union_neighbours(StrategyPlan& sp) {
  std::map<std::pair<ir::PeId, std::uint32_t>, std::set<ir::PeId>> users, readers;
  for (const PlanBuffer& b : sp.buffers) users[{b.pe, b.colour}].insert(b.pe);
  for (const Entry& e : sp.entries) {
    auto touch = [&](const SlotRef& r, bool read) {
      auto& set = e.kind() == Entry::Kind::transfer || !read ? users : readers;
      set[{r.pe, r.colour}].insert(e.runner);
    };
    if (std::optional<SlotRef> read = e.read()) touch(*read, true);
    if (std::optional<SlotRef> write = e.write())
      touch(*write, e.kind() != Entry::Kind::transfer && sp.buffers[write->buffer].pe == e.runner);
    for (const PortRef& port : e.ports()) touch(port.slot, true);
  }
  for (auto& n : sp.neighbours) n.clear();
  for (const auto& [colour, us] : users) {
    for (ir::PeId a : us)
      for (ir::PeId b : us)
        if (a != b) sp.neighbours[a].insert(b);
    auto r = readers.find(colour);
    if (r == readers.end()) continue;
    for (ir::PeId x : r->second)
      for (ir::PeId u : us)
        if (x != u) {
          sp.neighbours[x].insert(u);
          sp.neighbours[u].insert(x);
        }
  }
}

namespace {

/// An entry's kind and id: the same in G0 and G1 for the same firing, transfer or copy.
std::pair<int, std::uint32_t> entry_key(Entry::Kind k, std::uint32_t id) {
  return std::pair{static_cast<int>(k), id};
}

/// Adds G1's buffers to the union `u`: kept ones are G0's, the others get colours of their own,
/// allocated on this host's PEs (`next_colour` per PE the next free colour index). Returns, per
/// G1 buffer, its buffer in the union.
std::vector<ir::BufferId> merge_buffers(const ir::Program& p, StrategyPlan& u,
                                        const StrategyPlan& alt, const ir::IgStrategy& g1,
                                        const MigrationSide& side, int a, ir::HostId host,
                                        std::vector<std::uint32_t>& next_colour) {
  std::vector<ir::BufferId> map(alt.buffers.size());
  std::set<std::string> idents;
  for (const PlanBuffer& x : u.buffers) idents.insert(x.ident);
  std::map<std::pair<ir::PeId, std::uint32_t>, std::uint32_t> colours;  // (pe, G1 colour) -> union
  for (ir::BufferId b = 0; b < alt.buffers.size(); ++b) {
    if (side.base_buffer[b] >= 0) {
      map[b] = static_cast<ir::BufferId>(side.base_buffer[b]);
      continue;
    }
    PlanBuffer x = alt.buffers[b];
    auto [it, fresh] = colours.emplace(std::pair{x.pe, x.colour}, 0);
    if (fresh) it->second = next_colour[x.pe]++;
    x.colour = it->second;
    std::string ident = identifier(x.name) + fmt::format("_m{}", a);
    for (int i = 2; !idents.insert(ident).second; ++i)
      ident = identifier(x.name) + fmt::format("_m{}_{}", a, i);
    x.ident = ident;
    map[b] = static_cast<ir::BufferId>(u.buffers.size());
    u.buffers.push_back(std::move(x));
  }
  // Their storage on this host's PEs.
  for (const auto& [key, index] : colours) {
    const auto [pe, g1_colour] = key;
    if (p.arch.pes[pe].host != host) continue;
    PlanColour c;
    c.index = index;
    std::set<std::string> types, texts;
    for (ir::BufferId b = 0; b < alt.buffers.size(); ++b) {
      if (side.base_buffer[b] >= 0 || alt.buffers[b].pe != pe || alt.buffers[b].colour != g1_colour)
        continue;
      c.members.push_back(alt.buffers[b].name);
      types.insert(alt.buffers[b].type);
      texts.insert(g1.buffers[b].bytes_text);
      c.bytes = std::max(c.bytes, g1.buffers[b].bytes);
      c.slots = alt.buffers[b].slots;
      // A bounded member's length cells, as add_storage() keeps them for G0's colours: without
      // them the views of this colour have no length cell.
      c.lengths |= alt.buffers[b].bounded;
    }
    for (const PlanColour& x : alt.storage[pe])
      if (x.index == g1_colour) c.mapped = x.mapped;
    std::sort(c.members.begin(), c.members.end());
    c.types.assign(types.begin(), types.end());
    c.bytes_text =
        texts.size() == 1 ? *texts.begin() : fmt::format("max({})", fmt::join(texts, ", "));
    u.storage[pe].push_back(std::move(c));
  }
  return map;
}

/// Adds G1's entries to the union `u`, their slots through `map` (merge_buffers()): with delta
/// 0, the new-only ones stop G0's old-only ones; with a delta, every entry's iteration moves, so
/// all of G1's replace all of G0's (the first `base_count`). Returns, per added G1 entry, its
/// entry in the union.
std::map<std::size_t, std::size_t> merge_entries(StrategyPlan& u, std::size_t base_count,
                                                 const StrategyPlan& alt, const MigrationSide& side,
                                                 int a, const std::vector<ir::BufferId>& map,
                                                 std::vector<std::uint32_t>& own_steps,
                                                 PlanSwitch& sw) {
  auto remap = [&](SlotRef r) {
    const PlanBuffer& x = u.buffers[map[r.buffer]];
    return SlotRef{map[r.buffer], x.pe, x.colour, r.lag, x.slots};
  };
  std::set<std::pair<int, std::uint32_t>> new_only, old_only;
  for (const MigrationEntry& e : side.new_only)
    new_only.insert(entry_key(static_cast<Entry::Kind>(e.kind), e.id));
  for (const MigrationEntry& e : side.old_only)
    old_only.insert(entry_key(static_cast<Entry::Kind>(e.kind), e.id));
  const bool all = side.delta != 0;
  for (std::size_t i = 0; i < base_count; ++i)
    if (all || old_only.count(entry_key(u.entries[i].kind(), u.entries[i].id)))
      sw.stop.push_back(i);
  std::set<std::string> taken;
  for (const Entry& e : u.entries) taken.insert(e.ident);
  std::map<std::size_t, std::size_t> added;  // alt entry -> union entry
  for (std::size_t i = 0; i < alt.entries.size(); ++i) {
    const Entry& src = alt.entries[i];
    if (!all && !new_only.count(entry_key(src.kind(), src.id))) continue;
    Entry e = src;
    e.alternative = a;
    e.ident = fmt::format("m{}_{}", a, src.ident);
    for (int n = 2; !taken.insert(e.ident).second; ++n)
      e.ident = fmt::format("m{}_{}_{}", a, src.ident, n);
    e.first_cycle += side.delta;
    if (Entry::Transfer* t = e.transfer_if()) {
      if (t->read) t->read = remap(*t->read);
      if (t->write) t->write = remap(*t->write);
      t->to = map[t->to];
    } else if (Entry::Copy* c = std::get_if<Entry::Copy>(&e.what)) {
      c->read = remap(c->read);
      c->write = remap(c->write);
    } else {
      for (PortRef& port : e.firing().ports) port.slot = remap(port.slot);
    }
    added[i] = u.entries.size();
    sw.start.push_back(u.entries.size());
    own_steps.push_back(alt.transfer_steps);
    u.entries.push_back(std::move(e));
  }
  u.transfer_steps = std::max(u.transfer_steps, alt.transfer_steps);
  u.has_transfers = u.has_transfers || alt.has_transfers;
  u.latency = std::max(u.latency, alt.latency + side.delta);
  return added;
}

/// Each PE's order in the union: G1's for its entries (`added`, merge_entries()), G0's old-only
/// ones before the common entry that follows them in G0.
void merge_orders(const ir::Program& p, StrategyPlan& u, std::size_t base_count,
                  const StrategyPlan& alt, ir::HostId host,
                  const std::map<std::size_t, std::size_t>& added, const PlanSwitch& sw) {
  for (ir::PeId pe = 0; pe < p.arch.pes.size(); ++pe) {
    if (p.arch.pes[pe].host != host) continue;
    const std::vector<std::size_t> before = u.by_pe[pe];
    std::set<std::size_t> stopped(sw.stop.begin(), sw.stop.end());
    std::map<std::pair<int, std::uint32_t>, std::size_t> common;  // G0 entry of a common G1 entry
    for (std::size_t i : before)
      if (i < base_count && !stopped.count(i))
        common[entry_key(u.entries[i].kind(), u.entries[i].id)] = i;
    std::vector<std::size_t> order;
    std::set<std::size_t> placed;
    auto place_until = [&](std::size_t anchor) {
      for (std::size_t i : before) {
        if (placed.count(i)) continue;
        if (i == anchor) break;
        order.push_back(i);
        placed.insert(i);
      }
    };
    for (std::size_t i : alt.by_pe[pe]) {
      if (auto it = added.find(i); it != added.end()) {
        order.push_back(it->second);
        continue;
      }
      auto c = common.find(entry_key(alt.entries[i].kind(), alt.entries[i].id));
      if (c == common.end() || placed.count(c->second)) continue;
      place_until(c->second);
      order.push_back(c->second);
      placed.insert(c->second);
    }
    for (std::size_t i : before)
      if (!placed.count(i)) order.push_back(i);
    u.by_pe[pe] = std::move(order);
  }
}

}  // namespace

/// Adds alternative `a` (G1 as planned for this host, `alt`) to the union `u`; `base_count` is the
/// number of G0's entries; `next_colour` per PE the next free colour index.
void merge_alternative(const ir::Program& p, StrategyPlan& u, std::size_t base_count,
                       const StrategyPlan& alt, const ir::IgStrategy& g1, const MigrationSide& side,
                       int a, ir::HostId host, std::vector<std::uint32_t>& next_colour,
                       std::vector<std::uint32_t>& own_steps, PlanSwitch& sw) {
  sw.delta = side.delta;
  sw.reversible =
      std::all_of(side.idle.begin(), side.idle.end(), [](std::uint32_t i) { return i == 0; });
  const std::vector<ir::BufferId> map = merge_buffers(p, u, alt, g1, side, a, host, next_colour);
  const std::map<std::size_t, std::size_t> added =
      merge_entries(u, base_count, alt, side, a, map, own_steps, sw);
  merge_orders(p, u, base_count, alt, host, added, sw);
}

}  // namespace dfgc::plan_detail
