#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "dfg/host_buffer.hpp"
#include "dfg/items.hpp"
#include "dfg/node.hpp"
#include "dfg/run.hpp"
#include "dfg/run_tables.hpp"
#include "dfg/slots.hpp"

namespace {

struct Params {
  std::int64_t n = 8;
};
Params params_of(const std::vector<std::int64_t>& values) {
  return Params{values.empty() ? 8 : values[0]};
}
std::size_t bytes_of(const Params& p) { return static_cast<std::size_t>(p.n) * 4; }

struct Memory {
  std::array<dfg::SlotView, 1> A_cpu;
  std::array<dfg::SlotView, 1> A_g0;
};

constexpr std::array<dfg::EntryInfo<Params>, 2> kOverlap = {{
    {"firing", "p (P)", "A.cpu", 1, 0, nullptr, "p", "", 0, 1},
    {"transfer", "p.m@A.cpu -> p.m@A.g0", "A.cpu>A.g0", 2, 1, bytes_of, "A.cpu -> A.g0", nullptr, 0,
     1},
}};
constexpr std::array<dfg::EntryInfo<Params>, 1> kNoOverlap = {{
    {"firing", "p (P)", "A.cpu", 1, 0, nullptr, "p", "", 0, 1},
}};
constexpr std::array<const char*, 2> kTracks = {"A.cpu", "A.g0 h2d"};

using Run = dfg::RunState<Params, Memory, 2>;

Run::Tables tables() {
  return {params_of, kOverlap,          kNoOverlap,    3, 1, {{1}, {0}},
          kTracks,   {"A.cpu", "A.g0"}, {"cpu", "gpu"}};
}

}  // namespace

TEST_CASE("run state: the chosen strategy's entries, latency, cycles and params", "[run]") {
  dfg::Options o;
  o.iterations = 10;
  o.params = {16};
  Run with(o, tables());
  CHECK(with.params.n == 16);
  CHECK(with.latency == 3);
  CHECK(with.cycles == 13);
  CHECK(with.entries.size() == 2);
  CHECK(with.stats == nullptr);
  o.overlap = false;
  o.stats = true;
  Run without(o, tables());
  CHECK(without.latency == 1);
  CHECK(without.cycles == 11);
  CHECK(without.entries.size() == 1);
  REQUIRE(without.stats != nullptr);
  CHECK(dfg::report(without, dfg::Options{}) == 0);
}

TEST_CASE("run state: two workers run their cycles with either sync mode", "[run]") {
  for (dfg::SyncMode sync : {dfg::SyncMode::neighbours, dfg::SyncMode::barrier}) {
    dfg::Options o;
    o.iterations = 200;
    o.sync = sync;
    Run run(o, tables());
    std::array<std::int64_t, 2> done{};
    std::vector<std::thread> threads;
    for (int pe = 0; pe < 2; ++pe)
      threads.emplace_back([&run, &done, pe] {
        for (std::int64_t c = 0; c < run.cycles; ++c) {
          run.begin_cycle(pe, c);
          ++done[static_cast<std::size_t>(pe)];
          run.end_cycle(pe, c);
        }
      });
    for (std::thread& t : threads) t.join();
    CHECK(done[0] == run.cycles);
    CHECK(done[1] == run.cycles);
  }
}

namespace {

/// Counts the runs of each strategy's loop, the device selections and the finishes.
class Counting final : public dfg::PeWorker {
 public:
  int selected = 0, overlap = 0, no_overlap = 0, finished = 0;
  bool fail_finish = false;  ///< its node's finish throws

 private:
  void select_device() override { ++selected; }
  void cycles_overlap(dfg::Where&) override { ++overlap; }
  void cycles_no_overlap(dfg::Where&) override { ++no_overlap; }
  void finish_nodes(dfg::Where& where) override {
    where.at("node k (Check) @ A.c0", -1);
    if (fail_finish) throw std::runtime_error("finish fails");
    ++finished;
  }
};

/// A PE whose steps are the same in both strategies: one loop.
class OneLoop final : public dfg::PeWorker {
 public:
  int runs = 0;

 private:
  void cycles(dfg::Where&) override { ++runs; }
};

/// A worker that defines no loop at all.
class NoLoop final : public dfg::PeWorker {};

}  // namespace

TEST_CASE("run state: finish_workers calls each worker's finish; one that throws fails the run",
          "[run]") {
  dfg::Abort abort;
  std::vector<std::unique_ptr<Counting>> workers;
  workers.push_back(std::make_unique<Counting>());
  workers.push_back(std::make_unique<Counting>());
  CHECK(dfg::finish_workers(workers, abort) == 0);
  CHECK(workers[0]->finished == 1);
  CHECK(workers[1]->finished == 1);
  workers[0]->fail_finish = true;
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  const int status = dfg::finish_workers(workers, abort);
  std::cerr.rdbuf(old);
  CHECK(status == 1);
  CHECK(err.str() == "error: node k (Check) @ A.c0: finish fails\n");
  CHECK(workers[1]->finished == 1);  // the PEs after the one that threw are not finished
}

TEST_CASE("run state: a worker with one loop runs it in either strategy", "[run]") {
  dfg::Where where;
  OneLoop one;
  one.run(where, true);
  one.run(where, false);
  CHECK(one.runs == 2);
  NoLoop none;
  CHECK_THROWS_AS(none.run(where, true), std::logic_error);
  CHECK_THROWS_AS(none.run(where, false), std::logic_error);
}

TEST_CASE("run state: run_workers runs every worker's loop of the strategy once, then the reports",
          "[run]") {
  for (bool overlap : {true, false}) {
    dfg::Options o;
    o.iterations = 4;
    o.overlap = overlap;
    Run run(o, tables());
    std::vector<std::unique_ptr<dfg::PeWorker>> workers;
    workers.push_back(std::make_unique<Counting>());
    workers.push_back(std::make_unique<Counting>());
    CHECK(dfg::run_workers(run, workers, run.pe_names, o) == 0);
    for (const auto& w : workers) {
      const Counting& counted = static_cast<const Counting&>(*w);
      CHECK(counted.selected == 2);  // for its loop, then for its finish
      CHECK(counted.finished == 1);
      CHECK(counted.overlap == (overlap ? 1 : 0));
      CHECK(counted.no_overlap == (overlap ? 0 : 1));
    }
  }
}

TEST_CASE("run tables: one_host_main refuses bad flags before it runs the host", "[run]") {
  constexpr std::array<dfg::TokenSize<Params>, 0> kSizes = {};
  const dfg::RuntimeParam table[] = {{"n", 8}};
  int runs = 0;
  auto run_host = [&runs](const dfg::Options&) { return ++runs, 0; };
  char program[] = "app", bad[] = "--no-such-flag", iterations[] = "--iterations=3";
  char* bad_argv[] = {program, bad, nullptr};
  CHECK(dfg::one_host_main(2, bad_argv, "A", table, kSizes, params_of, run_host) == 1);
  CHECK(runs == 0);
  char* good_argv[] = {program, iterations, nullptr};
  CHECK(dfg::one_host_main(2, good_argv, "A", table, kSizes, params_of, run_host) == 0);
  CHECK(runs == 1);
}

TEST_CASE("run state: spawn_workers runs the first worker's cycles through its wrapper only",
          "[run]") {
  dfg::Options o;
  o.iterations = 4;
  Run run(o, tables());
  std::vector<std::unique_ptr<dfg::PeWorker>> workers;
  workers.push_back(std::make_unique<Counting>());
  workers.push_back(std::make_unique<Counting>());
  // Written by the first worker's thread only; read after the join.
  int wrapped = 0, before = -1, after = -1;
  const auto& first = static_cast<const Counting&>(*workers[0]);
  dfg::Workers threads;
  dfg::spawn_workers(threads, run, workers, run.pe_names, o, [&](dfg::Where&, const auto& cycles) {
    ++wrapped;
    before = first.overlap;
    cycles();
    after = first.overlap;
  });
  CHECK(threads.join() == 0);
  CHECK(wrapped == 1);
  CHECK(before == 0);
  CHECK(after == 1);
  for (const auto& w : workers) CHECK(static_cast<const Counting&>(*w).overlap == 1);
}

TEST_CASE("run state: actors read their run's runtime params and firings through their context",
          "[run]") {
  struct Actor {
    void fire(dfg::Context&) {}
  };
  dfg::Options o;
  o.iterations = 1;
  o.params = {16};
  o.param_names = {"n"};
  Run run(o, tables());
  o.params = {24};
  Run other(o, tables());  // a second run in the same process keeps its own values
  dfg::Node<Actor, 1> node, node_of_other;
  node.set_up(run.runtime_params, {8}, 3);
  node_of_other.set_up(other.runtime_params, {8});
  CHECK(node.ctx.runtime_param("n") == 16);
  CHECK(node.ctx.firings() == 3);
  CHECK(node_of_other.ctx.runtime_param("n") == 24);
  CHECK(node_of_other.ctx.firings() == 1);
  CHECK_THROWS_WITH(node.ctx.runtime_param("W"), "no runtime param 'W' in this program");
  const dfg::Context alone;  // a context no node set up: no runtime params
  CHECK_THROWS_WITH(alone.runtime_param("n"), "no runtime param 'n' in this program");
}

TEST_CASE("items: an item runs inside its window with its iteration, and names itself for errors",
          "[run]") {
  dfg::Options o;
  o.iterations = 3;
  o.overlap = false;  // kNoOverlap: fire p from cycle 0; cycles = 3 + latency 1
  o.stats = true;
  Run run(o, tables());
  dfg::Where where;
  std::vector<std::int64_t> seen;
  int plain = 0;
  {
    dfg::Items items(run, where, 0);
    for (std::int64_t c = 0; c < run.cycles; ++c) {
      items.begin(c);
      items.run(0, [&](std::int64_t j) { seen.push_back(j); });
      items.run(0, [&] { ++plain; });
    }
  }
  CHECK(seen == std::vector<std::int64_t>{0, 1, 2});
  CHECK(plain == 3);
  CHECK(where.who() == "node p (P) @ A.cpu");
  CHECK(where.iteration() == 2);
}

TEST_CASE("items: cycles() runs the body and what comes between cycles, once a cycle, in order",
          "[run]") {
  dfg::Options o;
  o.iterations = 3;
  o.overlap = false;  // cycles = 3 + latency 1
  Run run(o, tables());
  dfg::Where where;
  std::vector<std::int64_t> order;  // each cycle, then -1 for what comes after it
  std::vector<std::int64_t> fired;
  {
    // PE 1's loop beside, for the barrier that ends each cycle without overlap.
    std::thread other([&] {
      dfg::Where where1;
      dfg::Items items1(run, where1, 1);
      items1.cycles([](std::int64_t) {});
    });
    dfg::Items items(run, where, 0);
    auto between = [&] { order.push_back(-1); };
    items.cycles(
        [&](std::int64_t c) {
          order.push_back(c);
          items.run(0, [&](std::int64_t j) { fired.push_back(j); });
        },
        between);
    other.join();
  }
  CHECK(order == std::vector<std::int64_t>{0, -1, 1, -1, 2, -1, 3, -1});
  CHECK(fired == std::vector<std::int64_t>{0, 1, 2});
  CHECK(run.cycles == 4);
}

TEST_CASE("items: an exception from an item leaves it named with its iteration", "[run]") {
  dfg::Options o;
  o.iterations = 4;
  o.overlap = false;
  Run run(o, tables());
  dfg::Where where;
  dfg::Items items(run, where, 0);
  auto loop = [&] {
    for (std::int64_t c = 0; c < run.cycles; ++c) {
      items.begin(c);
      items.post(0, [&](std::int64_t j) {
        if (j == 2) throw std::runtime_error("bad token");
      });
    }
  };
  CHECK_THROWS_AS(loop(), std::runtime_error);
  CHECK(where.who() == "node p (P) @ A.cpu");
  CHECK(where.iteration() == 2);
}

TEST_CASE("node: port elements and the iteration reach the actor's context", "[run]") {
  struct Actor {
    std::int64_t last = -1;
    std::size_t elements = 0;
    void fire(dfg::Context& ctx) {
      last = ctx.iteration();
      elements = ctx.elements(1);
    }
  };
  const dfg::RuntimeParamValues params;
  dfg::Node<Actor, 2> node;
  node.set_up(params, {4, 16});
  node.fire(7);
  CHECK(node.actor.last == 7);
  CHECK(node.actor.elements == 16);
  CHECK(node.ctx.elements(0) == 4);
  CHECK(node.ctx.device() == -1);
}

TEST_CASE("run state: publish views a PE's storage colour by colour and counts it", "[run]") {
  dfg::Options o;
  o.iterations = 1;
  o.stats = true;
  Run run(o, tables());
  std::vector<dfg::HostBuffer> storage;
  storage.emplace_back("p.m@A.cpu", 64, 2);
  run.publish(0, storage, run.memory.A_cpu);
  CHECK(run.memory.A_cpu[0].at(1) == static_cast<char*>(run.memory.A_cpu[0].at(0)) + 64);
  CHECK(run.memory.A_cpu[0].at(0) == storage[0].slot(0));
}

TEST_CASE("run state: each entry's label, what an error in it names", "[run]") {
  constexpr dfg::EntryInfo<Params> copy = {
      "copy", "f.s.delay@A.cpu <- f.n@A.cpu", "A.cpu", 1, 1, nullptr, nullptr, nullptr, 0, 1};
  CHECK(dfg::entry_label(kOverlap[0]) == "node p (P) @ A.cpu");
  CHECK(dfg::entry_label(kOverlap[1]) == "transfer p.m@A.cpu -> p.m@A.g0");
  CHECK(dfg::entry_label(copy) == "delay f.s.delay@A.cpu <- f.n@A.cpu");
  dfg::Options o;
  Run run(o, tables());
  CHECK(run.labels ==
        std::vector<std::string>{"node p (P) @ A.cpu", "transfer p.m@A.cpu -> p.m@A.g0"});
}
