#include "passes/simulate.hpp"

#include <set>
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

  void fire_all(std::int64_t c) {
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
    const ir::IgBuffer& src = ig_.buffers[x.from];
    expect(at(from), {src.node, src.port, c - x.first_cycle}, c, what);
    at(to) = at(from);
  }

  const ir::Program& p_;
  const ir::IgStrategy& ig_;
  std::vector<std::vector<Tag>> storage_;  // per colour, per slot
  std::vector<std::vector<std::pair<ir::NodeId, std::uint32_t>>> feeder_;
  std::set<Slot> reading_, writing_;
  std::vector<std::pair<Slot, Tag>> pending_;
  SimReport report_;
};

}  // namespace

SimReport simulate(const ir::Program& program, const ir::IgStrategy& ig, std::uint32_t cycles) {
  return Simulator(program, ig).run(cycles);
}

}  // namespace dfgc::test
