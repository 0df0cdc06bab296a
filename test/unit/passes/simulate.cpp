#include "passes/simulate.hpp"

#include "passes/migrations.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace dfgc::test {

namespace {

struct Tag {
  std::int64_t node = -1;  // -1: never written
  std::uint32_t port = 0;
  std::int64_t iteration = 0;
  friend bool operator==(const Tag&, const Tag&) = default;
};

using Slot = std::pair<ir::ColourId, std::uint32_t>;

class Simulator {
 public:
  Simulator(const ir::Program& p, const ir::IgStrategy& ig) : p_(p), ig_(ig) {
    for (const ir::IgColour& c : ig.colours) storage_.emplace_back(c.slots);
    report_.firings.assign(p.dfg.nodes.size(), 0);
    report_.last_iteration.assign(p.dfg.nodes.size(), -1);
    feeder_.resize(p.dfg.nodes.size());
    for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
      feeder_[n].resize(p.dfg.actor_of(n).ports.size());
    for (const ir::Edge& e : p.dfg.edges) feeder_[e.dst][e.dst_port] = {e.src, e.src_port};
  }

  SimReport run(std::uint32_t cycles) {
    for (std::int64_t c = 0; c < cycles; ++c) {
      reading_.clear();
      writing_.clear();
      pending_.clear();
      if (ig_.strategy == ir::Strategy::overlap) {
        launch_transfers(c, [](const ir::IgTransfer&) { return true; });
        fire_all(c);
        commit();
      } else {
        for (std::uint32_t step = 0; step < ig_.transfer_steps; ++step) {
          launch_transfers(c, [&](const ir::IgTransfer& t) { return t.step == step; });
          commit();
          reading_.clear();
          writing_.clear();
        }
        fire_all(c);
      }
    }
    return std::move(report_);
  }

 private:
  void error(std::string message) {
    if (report_.errors.size() < 8) report_.errors.push_back(std::move(message));
  }

  Slot slot(ir::BufferId b, const ir::Access& a, std::int64_t c) const {
    return {ig_.buffers[b].colour, ig_.slot_of(b, a, c)};
  }
  Tag& at(Slot s) { return storage_[s.first][s.second]; }

  void expect(const Tag& got, const Tag& want, std::int64_t c, const std::string& what) {
    if (got == want) return;
    error(fmt::format("cycle {}: {} read ({}, {}, iteration {}) instead of ({}, {}, iteration {})",
                      c, what, got.node, got.port, got.iteration, want.node, want.port,
                      want.iteration));
  }

  template <typename Filter>
  void launch_transfers(std::int64_t c, Filter selected) {
    for (ir::TransferId t = 0; t < ig_.transfers.size(); ++t) {
      const ir::IgTransfer& x = ig_.transfers[t];
      if (x.first_cycle > c || !selected(x)) continue;
      Slot from = slot(x.from, {ir::Access::Kind::transfer, t, 0, x.from_lag}, c);
      Slot to = slot(x.to, ig_.buffers[x.to].writer, c);
      std::string what =
          fmt::format("transfer {} -> {}", ig_.buffers[x.from].name, ig_.buffers[x.to].name);
      if (writing_.count(from) || writing_.count(to) || reading_.count(to))
        error(fmt::format("cycle {}: {} races with another transfer", c, what));
      reading_.insert(from);
      writing_.insert(to);
      const ir::IgBuffer& src = ig_.buffers[x.from];
      expect(at(from), {src.node, src.port, c - x.first_cycle}, c, what);
      pending_.push_back({to, at(from)});
    }
  }

  void commit() {
    for (const auto& [s, tag] : pending_) at(s) = tag;
    pending_.clear();
  }

  /// A firing's or copy's access to a slot that a transfer of this cycle uses is a race.
  void check_idle(Slot s, bool write, std::int64_t c, const std::string& what) {
    if (writing_.count(s) || (write && reading_.count(s)))
      error(fmt::format("cycle {}: {} touches a slot in transfer", c, what));
  }

  /// The PEs fire at once: a slot that one PE's firing or copy writes in the cycle is touched by
  /// no other PE in that cycle (the cpus of a host share its memory).
  void check_pes(Slot s, ir::PeId pe, bool write, std::int64_t c, const std::string& what) {
    auto& users = fired_[s];
    for (const auto& [other, wrote] : users)
      if (other != pe && (wrote || write))
        error(fmt::format("cycle {}: {} on {} races with {} in the same cycle", c, what,
                          p_.arch.pes[pe].name, p_.arch.pes[other].name));
    users.insert({pe, write});
  }

  void fire_all(std::int64_t c) {
    fired_.clear();
    for (const std::vector<ir::NodeId>& order : ig_.order)
      for (ir::NodeId n : order) {
        if (c >= ig_.firings[n].latency) fire(n, c);
        for (ir::CopyId k : ig_.copies_after(n)) copy(k, c);
      }
  }

  void fire(ir::NodeId n, std::int64_t c) {
    const ir::IgFiring& f = ig_.firings[n];
    const std::int64_t iteration = c - f.latency;
    const ir::Actor& actor = p_.dfg.actor_of(n);
    for (std::uint32_t port = 0; port < actor.ports.size(); ++port) {
      if (actor.ports[port].dir != ir::PortDir::in) continue;
      Slot s =
          slot(f.ports[port].buffer, {ir::Access::Kind::firing, n, port, f.ports[port].lag}, c);
      std::string what = fmt::format("{}.{}", p_.dfg.nodes[n].name, actor.ports[port].name);
      check_idle(s, false, c, what);
      check_pes(s, f.pe, false, c, what);
      // An edge with initial tokens hands over its producer's token of iteration - delay; the
      // firing reads the initial tokens themselves before that.
      const std::uint32_t delay = f.ports[port].initial;
      if (iteration < delay) continue;
      auto [src, src_port] = feeder_[n][port];
      expect(at(s), {src, src_port, iteration - delay}, c, what);
    }
    for (std::uint32_t port = 0; port < actor.ports.size(); ++port) {
      if (actor.ports[port].dir != ir::PortDir::out) continue;
      Slot s = slot(f.ports[port].buffer, {ir::Access::Kind::firing, n, port, 0}, c);
      check_idle(s, true, c, fmt::format("{}.{}", p_.dfg.nodes[n].name, actor.ports[port].name));
      check_pes(s, f.pe, true, c,
                fmt::format("{}.{}", p_.dfg.nodes[n].name, actor.ports[port].name));
      at(s) = {n, port, iteration};
    }
    ++report_.firings[n];
    report_.last_iteration[n] = iteration;
  }

  void copy(ir::CopyId k, std::int64_t c) {
    const ir::IgCopy& x = ig_.copies[k];
    if (c < x.first_cycle) return;
    Slot from = slot(x.from, {ir::Access::Kind::copy, k, 0, x.from_lag}, c);
    Slot to = slot(x.to, ig_.buffers[x.to].writer, c);
    std::string what = "delay copy into " + ig_.buffers[x.to].name;
    check_idle(from, false, c, what);
    check_idle(to, true, c, what);
    check_pes(from, ig_.buffers[x.to].pe, false, c, what);
    check_pes(to, ig_.buffers[x.to].pe, true, c, what);
    const ir::IgBuffer& src = ig_.buffers[x.from];
    expect(at(from), {src.node, src.port, c - x.first_cycle}, c, what);
    at(to) = at(from);
  }

  const ir::Program& p_;
  const ir::IgStrategy& ig_;
  std::vector<std::vector<Tag>> storage_;  // per colour, per slot
  std::vector<std::vector<std::pair<ir::NodeId, std::uint32_t>>> feeder_;
  std::set<Slot> reading_, writing_;
  std::map<Slot, std::set<std::pair<ir::PeId, bool>>> fired_;  // this cycle's firings and copies
  std::vector<std::pair<Slot, Tag>> pending_;
  SimReport report_;
};

}  // namespace

SimReport simulate(const ir::Program& program, const ir::IgStrategy& ig, std::uint32_t cycles) {
  return Simulator(program, ig).run(cycles);
}

}  // namespace dfgc::test

namespace dfgc::test {

namespace {

class MigrationSimulator {
 public:
  MigrationSimulator(const ir::Program& p, const ir::IgStrategy& g0, const Migration& m,
                     ir::Strategy s, std::int64_t switch_at, std::int64_t iterations)
      : p_(p), side_(m.sides[s]), iterations_(iterations) {
    const std::int64_t j = std::clamp<std::int64_t>(switch_at, 0, iterations);
    lanes_.push_back({&g0, 0, 0, j, {}});
    lanes_.push_back({&m.ig[s], 1, side_.delta, iterations, {}});
    lanes_[1].start = j;
    for (int l = 0; l < 2; ++l) {
      storage_[l].clear();
      for (const ir::IgColour& c : lanes_[static_cast<std::size_t>(l)].g->colours)
        storage_[l].emplace_back(c.slots);
    }
    // The schedule is a topological order that does not depend on the mapping: both graphs'
    // per-PE orders are subsequences of it, and so is their merge.
    std::vector<std::uint32_t> position(p.dfg.nodes.size());
    for (std::uint32_t i = 0; i < m.ig.schedule.size(); ++i) position[m.ig.schedule[i]] = i;
    for (Lane& lane : lanes_) {
      lane.order.resize(p.arch.pes.size());
      for (ir::NodeId n = 0; n < lane.g->firings.size(); ++n)
        lane.order[lane.g->firings[n].pe].push_back(n);
      for (auto& o : lane.order)
        std::sort(o.begin(), o.end(),
                  [&](ir::NodeId a, ir::NodeId b) { return position[a] < position[b]; });
    }
    position_ = std::move(position);
    feeder_.resize(p.dfg.nodes.size());
    for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
      feeder_[n].resize(p.dfg.actor_of(n).ports.size());
    for (const ir::Edge& e : p.dfg.edges) feeder_[e.dst][e.dst_port] = {e.src, e.src_port};
    run_.iterations.resize(p.dfg.nodes.size());
    run_.cycles.resize(p.dfg.nodes.size());
  }

  MigrationRun run() {
    std::int64_t longest = 0;
    for (const Lane& lane : lanes_)
      for (const ir::IgFiring& f : lane.g->firings)
        longest = std::max<std::int64_t>(longest, f.latency + lane.shift);
    for (std::int64_t c = 0; c < iterations_ + longest + 1; ++c) {
      clear();
      if (lanes_[0].g->strategy == ir::Strategy::overlap) {
        for (const Lane& lane : lanes_) launch(lane, c, [](const ir::IgTransfer&) { return true; });
        fire_all(c);
        commit();
      } else {
        for (std::uint32_t step = 0; step < side_.steps; ++step) {
          for (const Lane& lane : lanes_)
            launch(lane, c, [&](const ir::IgTransfer& t) {
              return side_.steps - (lane.g->transfer_steps - t.step) == step;
            });
          commit();
          clear();
        }
        fire_all(c);
      }
    }
    return std::move(run_);
  }

 private:
  struct Lane {
    const ir::IgStrategy* g = nullptr;
    int index = 0;
    std::int64_t shift = 0;
    std::int64_t stop = 0;
    std::vector<std::vector<ir::NodeId>> order;  // per PE
    std::int64_t start = 0;
  };
  // (storage: 0 base, 1 the alternative's own), colour, slot
  using Where = std::tuple<int, ir::ColourId, std::uint32_t>;

  void error(std::string message) {
    if (run_.errors.size() < 8) run_.errors.push_back(std::move(message));
  }
  void clear() {
    reading_.clear();
    writing_.clear();
  }

  /// The iteration `lane` handles in cycle c with an entry of first cycle `first`, if any.
  std::optional<std::int64_t> iteration(const Lane& lane, std::uint32_t first,
                                        std::int64_t c) const {
    std::int64_t i = c - first - lane.shift;
    if (i < lane.start || i >= lane.stop) return std::nullopt;
    return i;
  }

  Where where(const Lane& lane, ir::BufferId b, const ir::Access& a, std::int64_t c) {
    std::uint32_t slot = lane.g->slot_of(b, a, c);
    if (lane.index == 1 && side_.base_buffer[b] >= 0) {
      const ir::IgStrategy& g0 = *lanes_[0].g;
      ir::ColourId colour = g0.buffers[static_cast<ir::BufferId>(side_.base_buffer[b])].colour;
      if (slot >= g0.colours[colour].slots) {
        // Storage kept from the base must have the base's slots; report and use slot 0.
        error(fmt::format("cycle {}: {} keeps base storage of fewer slots", c,
                          lane.g->buffers[b].name));
        slot = 0;
      }
      return {0, colour, slot};
    }
    return {lane.index, lane.g->buffers[b].colour, slot};
  }
  Tag& at(const Where& w) { return storage_[std::get<0>(w)][std::get<1>(w)][std::get<2>(w)]; }

  void expect(const Tag& got, const Tag& want, std::int64_t c, const std::string& what) {
    if (got == want) return;
    error(fmt::format("cycle {}: {} read ({}, {}, iteration {}) instead of ({}, {}, iteration {})",
                      c, what, got.node, got.port, got.iteration, want.node, want.port,
                      want.iteration));
  }

  template <typename Filter>
  void launch(const Lane& lane, std::int64_t c, Filter selected) {
    const ir::IgStrategy& g = *lane.g;
    for (ir::TransferId t = 0; t < g.transfers.size(); ++t) {
      const ir::IgTransfer& x = g.transfers[t];
      auto i = iteration(lane, x.first_cycle, c);
      if (!i || !selected(x)) continue;
      Where from = where(lane, x.from, {ir::Access::Kind::transfer, t, 0, x.from_lag}, c);
      Where to = where(lane, x.to, g.buffers[x.to].writer, c);
      std::string what = fmt::format("G{} transfer {} -> {}", lane.index, g.buffers[x.from].name,
                                     g.buffers[x.to].name);
      if (writing_.count(from) || writing_.count(to) || reading_.count(to))
        error(fmt::format("cycle {}: {} races with another transfer", c, what));
      reading_.insert(from);
      writing_.insert(to);
      const ir::IgBuffer& src = g.buffers[x.from];
      expect(at(from), {src.node, src.port, *i}, c, what);
      pending_.push_back({to, at(from)});
    }
  }

  void commit() {
    for (const auto& [w, tag] : pending_) at(w) = tag;
    pending_.clear();
  }

  void check_idle(const Where& w, bool write, std::int64_t c, const std::string& what) {
    if (writing_.count(w) || (write && reading_.count(w)))
      error(fmt::format("cycle {}: {} touches a slot in transfer", c, what));
  }

  void fire_all(std::int64_t c) {
    std::vector<std::int64_t> fired_in(p_.dfg.nodes.size(), -1);
    for (ir::PeId pe = 0; pe < p_.arch.pes.size(); ++pe) {
      std::vector<std::pair<ir::NodeId, const Lane*>> order;
      for (const Lane& lane : lanes_)
        for (ir::NodeId n : lane.order[pe]) order.push_back({n, &lane});
      std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        return position_[a.first] < position_[b.first];
      });
      for (const auto& [n, lane] : order) {
        if (auto i = iteration(*lane, lane->g->firings[n].latency, c)) {
          if (fired_in[n] == c)
            error(fmt::format("cycle {}: node {} fires twice", c, p_.dfg.nodes[n].name));
          fired_in[n] = c;
          fire(*lane, n, *i, c);
        }
        for (ir::CopyId k : lane->g->copies_after(n)) copy(*lane, k, c);
      }
    }
  }

  void fire(const Lane& lane, ir::NodeId n, std::int64_t i, std::int64_t c) {
    const ir::IgFiring& f = lane.g->firings[n];
    const ir::Actor& actor = p_.dfg.actor_of(n);
    for (std::uint32_t port = 0; port < actor.ports.size(); ++port) {
      if (actor.ports[port].dir != ir::PortDir::in) continue;
      Where w = where(lane, f.ports[port].buffer,
                      {ir::Access::Kind::firing, n, port, f.ports[port].lag}, c);
      std::string what =
          fmt::format("G{} {}.{}", lane.index, p_.dfg.nodes[n].name, actor.ports[port].name);
      check_idle(w, false, c, what);
      auto [src, src_port] = feeder_[n][port];
      expect(at(w), {src, src_port, i}, c, what);
    }
    for (std::uint32_t port = 0; port < actor.ports.size(); ++port) {
      if (actor.ports[port].dir != ir::PortDir::out) continue;
      Where w = where(lane, f.ports[port].buffer, {ir::Access::Kind::firing, n, port, 0}, c);
      check_idle(
          w, true, c,
          fmt::format("G{} {}.{}", lane.index, p_.dfg.nodes[n].name, actor.ports[port].name));
      at(w) = {n, port, i};
    }
    run_.iterations[n].push_back(i);
    run_.cycles[n].push_back(c);
  }

  void copy(const Lane& lane, ir::CopyId k, std::int64_t c) {
    const ir::IgCopy& x = lane.g->copies[k];
    auto i = iteration(lane, x.first_cycle, c);
    if (!i) return;
    Where from = where(lane, x.from, {ir::Access::Kind::copy, k, 0, x.from_lag}, c);
    Where to = where(lane, x.to, lane.g->buffers[x.to].writer, c);
    std::string what =
        fmt::format("G{} delay copy into {}", lane.index, lane.g->buffers[x.to].name);
    check_idle(from, false, c, what);
    check_idle(to, true, c, what);
    const ir::IgBuffer& src = lane.g->buffers[x.from];
    expect(at(from), {src.node, src.port, *i}, c, what);
    at(to) = at(from);
  }

  const ir::Program& p_;
  const MigrationSide& side_;
  std::int64_t iterations_;
  std::vector<Lane> lanes_;
  std::array<std::vector<std::vector<Tag>>, 2> storage_;
  std::vector<std::uint32_t> position_;
  std::vector<std::vector<std::pair<ir::NodeId, std::uint32_t>>> feeder_;
  std::set<Where> reading_, writing_;
  std::vector<std::pair<Where, Tag>> pending_;
  MigrationRun run_;
};

}  // namespace

MigrationRun simulate_migration(const ir::Program& program, const ir::IgStrategy& base,
                                const Migration& migration, ir::Strategy strategy,
                                std::int64_t switch_at, std::int64_t iterations) {
  return MigrationSimulator(program, base, migration, strategy, switch_at, iterations).run();
}

}  // namespace dfgc::test
