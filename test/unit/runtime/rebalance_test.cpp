// dfg::RebalancePolicy and dfg::Loads (--rebalance): which node the policy moves when a PE
// becomes the bottleneck, how it judges the move, when it goes back, and what it never does.
#include "dfg/rebalance.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace {

// Three cores: s on c0, f on c1 with an alternative on c2, d on c2; g on c2 may move to c0 and
// changes entry 7, which f's alternative changes too (neighbours).
const std::array<const char*, 3> kPes = {"A.c0", "A.c1", "A.c2"};
const std::array<std::size_t, 2> kFStop = {1, 7}, kFStart = {11, 12};
const std::array<std::size_t, 1> kGStop = {7}, kGStart = {13};
const std::array<dfg::Alternative, 2> kAlts = {
    dfg::Alternative{"f", "A.c1", "A.c2", true, kFStop, kFStart},
    dfg::Alternative{"g", "A.c2", "A.c0", true, kGStop, kGStart}};

dfg::LoadInterval at(double period_ms, std::vector<double> waiting) {
  return {period_ms, std::move(waiting)};
}

struct Driver {
  dfg::RebalancePolicy policy{kAlts, kPes};
  std::vector<bool> placed = std::vector<bool>(kAlts.size(), false);
  std::string said;
  // One look; a move it asks for is made (placed follows it).
  std::optional<dfg::RebalanceMove> look(double period_ms, std::vector<double> waiting) {
    std::optional<dfg::RebalanceMove> m =
        policy.look(at(period_ms, std::move(waiting)), placed, said);
    if (m) {
      placed[m->alternative] = m->forward;
      policy.moved(*m, true);
    }
    return m;
  }
};

}  // namespace

TEST_CASE("interval_between: the period and each PE's share of waiting", "[rebalance]") {
  const auto t0 = std::chrono::steady_clock::time_point{};
  const dfg::LoadSample a{t0, 10, {0, 1'000'000, 0}};
  const dfg::LoadSample b{t0 + std::chrono::milliseconds(100), 60, {0, 51'000'000, 200'000'000}};
  const dfg::LoadInterval x = dfg::interval_between(a, b);
  CHECK(x.period_ms == Approx(2.0));
  REQUIRE(x.waiting.size() == 3);
  CHECK(x.waiting[0] == Approx(0.0));
  CHECK(x.waiting[1] == Approx(0.5));
  CHECK(x.waiting[2] == Approx(1.0));  // clamped
  const dfg::LoadSample c{t0 + std::chrono::milliseconds(200), 60, {0, 51'000'000, 0}};
  CHECK(dfg::interval_between(b, c).period_ms == 0);  // no cycle ended
}

TEST_CASE("Loads: the cycles every PE ended and the waits, off by default", "[rebalance]") {
  dfg::Loads off(2, false);
  CHECK_FALSE(off.on());
  dfg::Loads loads(2, true);
  REQUIRE(loads.on());
  loads.ended(0, 9);
  loads.ended(1, 4);
  loads.waited(1, std::chrono::microseconds(3));
  const dfg::LoadSample s = loads.sample();
  CHECK(s.cycles == 5);
  CHECK(s.waited_ns == std::vector<std::int64_t>{0, 3000});
}

TEST_CASE("RebalancePolicy: a loaded PE's node moves, is kept, and goes back when the load goes",
          "[rebalance]") {
  Driver d;
  // Steady: f's core c1 bounds the period (it never waits), the others wait.
  for (int i = 0; i < 5; ++i) CHECK_FALSE(d.look(1.0, {0.5, 0.0, 0.4}));
  CHECK(d.policy.best_ms(d.placed) == Approx(1.0));
  // Within the hysteresis: nothing moves.
  for (int i = 0; i < 5; ++i) CHECK_FALSE(d.look(1.15, {0.5, 0.0, 0.4}));
  // Another process takes c1: the period doubles; after two looks f moves to c2, which waits most.
  CHECK_FALSE(d.look(2.0, {0.75, 0.0, 0.7}));
  const std::optional<dfg::RebalanceMove> away = d.look(2.0, {0.75, 0.0, 0.7});
  REQUIRE(away);
  CHECK(away->line == "f:A.c2");
  CHECK(away->forward);
  CHECK(d.said.find("A.c1 waited 0% of the time: moving f:A.c2") != std::string::npos);
  // One look to settle (the move's stall), two judged: better by more than h / 2, kept.
  CHECK_FALSE(d.look(5.0, {0.9, 0.9, 0.0}));
  CHECK_FALSE(d.look(1.2, {0.6, 0.9, 0.0}));
  CHECK_FALSE(d.look(1.2, {0.6, 0.9, 0.0}));
  CHECK(d.said == "rebalance: f:A.c2: period 1.2 ms a cycle, was 2 ms: kept");
  CHECK(d.placed[0]);
  // Away, the load still on c1: f's place ran at 1 ms; after the back-off (2 s: 10 looks of
  // 200 ms) f tries c1 again, finds it still loaded and comes back to c2.
  std::optional<dfg::RebalanceMove> home;
  int looks = 0;
  while (!home && looks < 20) {
    home = d.look(1.2, {0.6, 0.9, 0.0});
    ++looks;
  }
  REQUIRE(home);
  CHECK(looks == 10);
  CHECK(home->line == "f:A.c1");
  CHECK_FALSE(home->forward);
  CHECK_FALSE(d.look(3.0, {0.0, 0.0, 0.0}));  // settling
  CHECK_FALSE(d.look(2.0, {0.75, 0.0, 0.7}));
  const std::optional<dfg::RebalanceMove> again = d.look(2.0, {0.75, 0.0, 0.7});
  REQUIRE(again);
  CHECK(again->line == "f:A.c2");
  CHECK(d.said ==
        "rebalance: f:A.c1: period 2 ms a cycle, was 1.2 ms: still loaded, moving it "
        "back to A.c2");
  // The next try waits twice as long, and this time the load has gone: f stays home.
  CHECK_FALSE(d.look(3.0, {0.9, 0.9, 0.0}));  // settling
  looks = 0;
  home.reset();
  while (!home && looks < 40) {
    home = d.look(1.2, {0.6, 0.9, 0.0});
    ++looks;
  }
  REQUIRE(home);
  CHECK(looks == 19);  // 20 looks after the failed try, the first of them settling
  CHECK_FALSE(d.look(3.0, {0.0, 0.0, 0.0}));
  CHECK_FALSE(d.look(1.0, {0.5, 0.0, 0.4}));
  CHECK_FALSE(d.look(1.0, {0.5, 0.0, 0.4}));
  CHECK(d.said ==
        "rebalance: f:A.c1: period 1 ms a cycle, was 1.2 ms: the load has gone, node "
        "'f' stays on A.c1");
  CHECK_FALSE(d.placed[0]);
  for (int i = 0; i < 50; ++i) CHECK_FALSE(d.look(1.0, {0.5, 0.0, 0.4}));
}

TEST_CASE("RebalancePolicy: a move that does not help goes back and rests, doubling",
          "[rebalance]") {
  Driver d;
  for (int i = 0; i < 3; ++i) d.look(1.0, {0.5, 0.0, 0.4});
  d.look(2.0, {0.75, 0.0, 0.7});
  REQUIRE(d.look(2.0, {0.75, 0.0, 0.7}));
  d.look(4.0, {0.0, 0.0, 0.0});  // settling
  CHECK_FALSE(d.look(1.9, {0.75, 0.7, 0.0}));
  const std::optional<dfg::RebalanceMove> back = d.look(1.9, {0.75, 0.7, 0.0});
  REQUIRE(back);
  CHECK(back->line == "f:A.c1");
  CHECK(d.said == "rebalance: f:A.c2: period 1.9 ms a cycle, was 2 ms: no better, moving it back");
  // Still slow at home, but f's move rests for 10 looks; then it is tried again.
  int looks = 0;
  std::optional<dfg::RebalanceMove> m;
  while (!m && looks < 30) {
    m = d.look(2.0, {0.75, 0.0, 0.7});
    ++looks;
  }
  REQUIRE(m);
  CHECK(m->line == "f:A.c2");
  CHECK(looks >= 9);
}

TEST_CASE("RebalancePolicy: no move without a destination that waits, or into a conflict",
          "[rebalance]") {
  Driver d;
  for (int i = 0; i < 3; ++i) d.look(1.0, {0.5, 0.0, 0.4});
  // c1 is the bottleneck but c2 hardly waits more than it: moving f there cannot help.
  for (int i = 0; i < 5; ++i) CHECK_FALSE(d.look(2.0, {0.7, 0.0, 0.05}));
  // Every PE waited most of the time: the period is not any PE's work (the system's overhead).
  for (int i = 0; i < 5; ++i) CHECK_FALSE(d.look(2.0, {0.9, 0.6, 0.95}));
  // g runs on c0 (moved by hand before the policy's first look): f's alternative shares an
  // entry with g's, so f does not move, however long c1 stays the bottleneck.
  Driver moved;
  moved.placed[1] = true;
  for (int i = 0; i < 3; ++i) moved.look(1.0, {0.0, 0.0, 0.5});
  for (int i = 0; i < 30; ++i) CHECK_FALSE(moved.look(2.0, {0.7, 0.0, 0.7}));
}

TEST_CASE("RebalancePolicy: a node away goes back where its mapping ran better", "[rebalance]") {
  Driver d;
  for (int i = 0; i < 3; ++i) d.look(1.0, {0.5, 0.0, 0.4});
  d.placed[1] = true;                         // g moved to c0 by hand (--migrate-control)
  CHECK_FALSE(d.look(1.5, {0.0, 0.0, 0.5}));  // this mapping's first look
  const std::optional<dfg::RebalanceMove> m = d.look(1.5, {0.0, 0.0, 0.5});
  REQUIRE(m);
  CHECK(m->line == "g:A.c2");
  CHECK(d.said ==
        "rebalance: node 'g' ran at 1 ms a cycle on A.c2, now 1.5 ms on A.c0: trying "
        "A.c2 again");
}

TEST_CASE("RebalancePolicy: a refused move drops its trial", "[rebalance]") {
  dfg::RebalancePolicy policy(kAlts, kPes);
  std::vector<bool> placed(kAlts.size(), false);
  std::string said;
  for (int i = 0; i < 3; ++i) policy.look(at(1.0, {0.5, 0.0, 0.4}), placed, said);
  policy.look(at(2.0, {0.75, 0.0, 0.7}), placed, said);
  const std::optional<dfg::RebalanceMove> m = policy.look(at(2.0, {0.75, 0.0, 0.7}), placed, said);
  REQUIRE(m);
  policy.moved(*m, false);  // e.g. the end of the run
  // Nothing is judged, and f's move rests.
  for (int i = 0; i < 5; ++i) CHECK_FALSE(policy.look(at(2.0, {0.75, 0.0, 0.7}), placed, said));
}
