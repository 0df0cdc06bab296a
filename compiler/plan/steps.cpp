// The host plan's cycles: each PE's steps (plan.hpp's file comment) and, with overlap, a
// GPU's cycles run ahead of its thread with the orders of its streams (GpuCycles).
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "plan/detail.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::string_view to_string(Step::Kind k) {
  switch (k) {
    case Step::Kind::fire: return "fire";
    case Step::Kind::copy: return "copy";
    case Step::Kind::mapped_copy: return "mapped copy";
    case Step::Kind::net_post: return "net post";
    case Step::Kind::net_complete: return "net complete";
    case Step::Kind::delay_copy: return "delay copy";
    case Step::Kind::wait: return "wait";
    case Step::Kind::end_phase: return "end phase";
    case Step::Kind::end_cycle: return "end cycle";
  }
  DFGC_UNREACHABLE("bad step kind");
}

namespace {

Step entry_step(const Entry& e, std::size_t index) {
  Step s;
  s.entry = index;
  switch (e.kind()) {
    case Entry::Kind::firing: s.kind = Step::Kind::fire; break;
    case Entry::Kind::transfer:
      s.kind = e.net()               ? Step::Kind::net_post
               : e.transfer().mapped ? Step::Kind::mapped_copy
                                     : Step::Kind::copy;
      break;
    case Entry::Kind::copy: s.kind = Step::Kind::delay_copy; break;
  }
  return s;
}

Step wait_step(const std::set<StreamKind>& streams) {
  Step s;
  s.kind = Step::Kind::wait;
  s.streams.assign(streams.begin(), streams.end());
  return s;
}

Step plain_step(Step::Kind kind, std::uint32_t phase = 0) {
  Step s;
  s.kind = kind;
  s.phase = phase;
  return s;
}

/// One slot access of a GPU's entry, on the stream the entry runs on.
struct Access {
  StreamKind stream;
  SlotRef slot;
  bool write;
};

}  // namespace

GpuCycles gpu_cycles(const HostPlan& h, const StrategyPlan& sp, ir::PeId gpu) {
  GpuCycles out;
  out.streams.assign(h.streams[gpu].begin(), h.streams[gpu].end());
  std::vector<Access> accesses;
  for (std::size_t i : sp.by_pe[gpu]) {
    const Entry& e = sp.entries[i];
    DFGC_INTERNAL_ASSERT(e.stream.has_value(), "entry ", e.ident, " of GPU ", h.pe(gpu).name,
                         " has no stream");
    for (const PortRef& port : e.ports()) accesses.push_back({*e.stream, port.slot, !port.input});
    if (std::optional<SlotRef> read = e.read()) accesses.push_back({*e.stream, *read, false});
    if (std::optional<SlotRef> write = e.write()) accesses.push_back({*e.stream, *write, true});
  }
  std::map<std::pair<StreamKind, StreamKind>, StreamOrder> orders;
  for (const Access& x : accesses)
    for (const Access& y : accesses) {
      if (x.stream == y.stream || !(x.write || y.write) || x.slot.pe != y.slot.pe ||
          x.slot.colour != y.slot.colour)
        continue;
      const std::int64_t slots = x.slot.slots;
      DFGC_INTERNAL_ASSERT(slots == y.slot.slots, "colour ", x.slot.colour, " of ",
                           h.pe(x.slot.pe).name, " seen with two slot counts");
      const std::int64_t apart =
          ((static_cast<std::int64_t>(x.slot.lag) - y.slot.lag) % slots + slots) % slots;
      DFGC_INTERNAL_ASSERT(apart != 0, "streams ", to_string(x.stream), " and ",
                           to_string(y.stream), " of ", h.pe(gpu).name, " use slot (c - ",
                           x.slot.lag, ") mod ", slots, " of ", h.pe(x.slot.pe).name, " colour ",
                           x.slot.colour, " in the same cycle");
      const auto distance = static_cast<std::uint32_t>(apart);
      auto [at, fresh] = orders.try_emplace({x.stream, y.stream});
      if (fresh || distance < at->second.cycles)
        at->second = {x.stream, y.stream, distance,
                      fmt::format("{} colour {}", h.pe(x.slot.pe).name, x.slot.colour)};
    }
  for (auto& [streams, order] : orders) {
    out.in_flight = std::max(out.in_flight, order.cycles);
    out.orders.push_back(std::move(order));
  }
  if (gpu < sp.storage.size())
    out.mapped = std::any_of(sp.storage[gpu].begin(), sp.storage[gpu].end(),
                             [](const PlanColour& c) { return c.mapped; });
  return out;
}

namespace plan_detail {

/// The steps of `pe`'s cycle (the file comment of plan.hpp).
std::vector<Step> pe_steps(const StrategyPlan& sp, ir::PeId pe, bool gpu,
                           const std::set<StreamKind>& streams) {
  std::vector<Step> out;
  const std::vector<std::size_t>& mine = sp.by_pe[pe];
  bool net = false;
  for (std::size_t i : mine) net = net || sp.entries[i].net();
  if (sp.strategy == ir::Strategy::overlap) {
    for (std::size_t i : mine) out.push_back(entry_step(sp.entries[i], i));
    // A GPU's cycle ends on the GPU (GpuCycles): no wait for its streams.
    if (net) out.push_back(plain_step(Step::Kind::net_complete));
    out.push_back(plain_step(Step::Kind::end_cycle));
    return out;
  }
  if (sp.has_transfers) {
    std::set<StreamKind> used;
    std::set<std::uint32_t> net_steps;
    for (std::size_t i : mine) {
      const Entry& e = sp.entries[i];
      if (e.kind() != Entry::Kind::transfer) continue;
      if (e.net())
        net_steps.insert(e.transfer().step);
      else if (e.stream)  // a mapped copy is done when its step is
        used.insert(*e.stream);
    }
    for (std::uint32_t phase = 0; phase < sp.transfer_steps; ++phase) {
      for (std::size_t i : mine)
        if (sp.entries[i].kind() == Entry::Kind::transfer && sp.entries[i].transfer().step == phase)
          out.push_back(entry_step(sp.entries[i], i));
      if (net_steps.count(phase)) out.push_back(plain_step(Step::Kind::net_complete));
      if (!used.empty()) out.push_back(wait_step(used));
      out.push_back(plain_step(Step::Kind::end_phase, phase));
    }
  }
  for (std::size_t i : mine)
    if (sp.entries[i].kind() != Entry::Kind::transfer) out.push_back(entry_step(sp.entries[i], i));
  if (gpu) out.push_back(wait_step(streams));
  out.push_back(plain_step(Step::Kind::end_cycle));
  return out;
}

bool same_loop(const HostPlan& h, ir::PeId pe) {
  const StrategyPlan& a = h.strategies[ir::Strategy::overlap];
  const StrategyPlan& b = h.strategies[ir::Strategy::no_overlap];
  // A GPU's overlapped cycles run ahead of its thread, and a rank's overlapped cycle ends with
  // its MPI: those loops are the strategy's own.
  if (h.pe(pe).kind == ir::PeKind::gpu || h.multi_host()) return false;
  if (!h.same_entries || !h.sharing[pe].views || a.steps[pe] != b.steps[pe]) return false;
  for (const Step& step : a.steps[pe])
    if (step.has_entry() && a.entries[step.entry] != b.entries[step.entry]) return false;
  return true;
}

}  // namespace plan_detail

}  // namespace dfgc
