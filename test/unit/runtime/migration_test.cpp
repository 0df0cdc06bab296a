#include "dfg/migration.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "dfg/state.hpp"
#include "dfg/window.hpp"
#include "hang_guard.hpp"

namespace {

struct TestEntry {
  std::int64_t first_cycle;
};

// Entries 0 (node n at home, first cycle 1) and 1 (its copy on B, first cycle 2: delta 1 in
// it), 2 (node m at home) and 3 (m on C); 4 a transfer both n's and m's moves stop.
constexpr std::array<TestEntry, 5> kEntries = {{{1}, {2}, {1}, {1}, {0}}};
constexpr std::size_t kStopN[] = {0};
constexpr std::size_t kStartN[] = {1};
constexpr std::size_t kStopM[] = {2, 4};
constexpr std::size_t kStartM[] = {3};
constexpr std::size_t kStopNeighbour[] = {4};
constexpr std::array<dfg::Alternative, 3> kAlts = {{
    {"n", "A.c0", "B.c0", true, kStopN, kStartN},
    {"m", "A.c0", "C.c0", false, kStopM, kStartM},
    {"k", "A.c1", "A.c2", true, kStopNeighbour, {}},
}};

dfg::Options options_with(std::vector<dfg::MigrationRequest> moves, std::int64_t iterations = 100) {
  dfg::Options o;
  o.iterations = iterations;
  o.migrations = std::move(moves);
  return o;
}

}  // namespace

TEST_CASE("migration: --migrate at launch is checked against the alternatives", "[migration]") {
  CHECK(dfg::check_requests(options_with({}), kAlts).empty());
  CHECK(dfg::check_requests(options_with({{"n", "B.c0", 5}, {"m", "C.c0", 9}}), kAlts).empty());
  CHECK(
      dfg::check_requests(options_with({{"x", "B.c0", 5}}), kAlts) ==
      "error: --migrate x:B.c0@5: no node 'x' has migration alternatives (those that do: n, m, k)");
  CHECK(
      dfg::check_requests(options_with({{"n", "C.c0", 5}}), kAlts) ==
      "error: --migrate n:C.c0@5: C.c0 is not an alternative of node 'n' (its alternatives: B.c0)");
  CHECK(dfg::check_requests(options_with({{"n", "A.c0", 5}}), kAlts) ==
        "error: --migrate n:A.c0@5: node 'n' already runs on A.c0");
  CHECK(dfg::check_requests(options_with({{"n", "B.c0", 100}}), kAlts) ==
        "error: --migrate n:B.c0@100: iteration 100 is beyond the run (100 iterations)");
  CHECK(
      dfg::check_requests(options_with({{"n", "B.c0", 5}, {"n", "B.c0", 50}}), kAlts) ==
      "error: --migrate n:B.c0@50: node 'n' is already moved by --migrate n:B.c0@5 (at launch, one move per "
      "node; use --migrate-control to move it again)");
  CHECK(
      dfg::check_requests(options_with({{"m", "C.c0", 5}, {"k", "A.c2", 50}}), kAlts) ==
      "error: --migrate k:A.c2@50: conflicts with --migrate m:C.c0@5: both change the same firings or "
      "transfers (neighbouring nodes cannot move at once)");
  CHECK(dfg::check_requests(options_with({{"n", "B.c0", 5}}), {}) ==
        "error: --migrate: this program has no alternative mappings");
}

TEST_CASE("migration: the initial windows hold the launch-time moves", "[migration]") {
  dfg::Migrator<TestEntry> m(kEntries, kAlts, 100);
  const std::vector<dfg::Window> none = m.initial_windows({});
  CHECK(none[0] == dfg::Window{1, 101});
  CHECK(none[1] == dfg::Window{2, 2});  // an alternative's entry waits, empty
  CHECK(none[4] == dfg::Window{0, 100});
  dfg::Migrator<TestEntry> moved(kEntries, kAlts, 100);
  const std::vector<dfg::Window> w = moved.initial_windows({{"n", "B.c0", 30}});
  CHECK(w[0] == dfg::Window{1, 31});    // iterations 0 .. 29 at home
  CHECK(w[1] == dfg::Window{32, 102});  // 30 .. 99 on B.c0
  CHECK(w[2] == dfg::Window{1, 101});
}

TEST_CASE("migration: a run that only moves at launch has the cycles of what it runs",
          "[migration]") {
  // The base's entries end by cycle 1 + 100; n's copy on B (first cycle 2) needs one more.
  CHECK(dfg::Migrator<TestEntry>::cycles_needed(kEntries, kAlts, {}, 100) == 101);
  CHECK(dfg::Migrator<TestEntry>::cycles_needed(kEntries, kAlts, {{"n", "B.c0", 30}}, 100) == 102);
  CHECK(dfg::Migrator<TestEntry>::cycles_needed(kEntries, kAlts, {{"m", "C.c0", 30}}, 100) == 101);
}

TEST_CASE("migration: live requests, refusals, and moves back", "[migration]") {
  dfg::Migrator<TestEntry> m(kEntries, kAlts, 1000);
  dfg::WindowTable table(m.initial_windows({}), 1);
  table.cursor(0).finish();  // no worker runs: no change waits for one
  m.start("", table);
  std::int64_t j = -1;
  CHECK(m.request("bogus", j) == "expected NODE:PE or NODE:PE@ITERATION, got 'bogus'");
  CHECK(m.request("n:B.c0@x", j) == "expected NODE:PE@ITERATION, got 'n:B.c0@x'");
  CHECK(m.request("n:Z.c0", j) ==
        "Z.c0 is not an alternative of node 'n' (its alternatives: B.c0)");
  CHECK(m.request("n:B.c0@1000", j) == "too late: the run ends at iteration 1000");
  REQUIRE(m.request("n:B.c0@40", j).empty());
  CHECK(j == 40);
  CHECK(m.request("n:B.c0", j) == "node 'n' already runs on B.c0");
  REQUIRE(m.request("m:C.c0@50", j).empty());
  CHECK(m.request("k:A.c2", j) ==
        "conflicts with node 'm' on C.c0: both change the same firings or transfers");
  CHECK(
      m.request("m:A.c0", j) ==
      "node 'm' cannot move back from C.c0 to A.c0 without shifting the pipeline (the alternative is not "
      "reversible)");
  // Back home, after the move to B.c0 is done: from a later iteration.
  REQUIRE(m.request("n:A.c0@45", j).empty());
  CHECK(j >= 45);
}

TEST_CASE(
    "migration: a node moved back and forth under running workers fires every iteration once, "
    "its state carried along",
    "[migration][stress]") {
  dfg_test::HangGuard guard("migration stress", 60);
  constexpr std::int64_t kIterations = 20000;
  dfg::Migrator<TestEntry> m(kEntries, kAlts, kIterations);
  dfg::WindowTable table(m.initial_windows({}), 2);
  m.start("", table);
  // Worker 0 runs entry 0 (home), worker 1 entry 1 (B.c0); the node's state is the count of its
  // firings, which must equal the iteration it fires.
  std::vector<std::atomic<int>> fired(kIterations);
  struct Counter {
    std::int64_t count = 0;
    void save(dfg::State& s) const { s.put(count); }
    void restore(const dfg::State& s) { count = s.get<std::int64_t>(); }
  };
  dfg::StateHandoff handoff;
  std::atomic<bool> wrong{false};
  auto worker = [&](int w, std::size_t entry) {
    Counter node;
    dfg::WindowCursor cursor = table.cursor(w);
    const std::int64_t first = kEntries[entry].first_cycle;
    for (std::int64_t c = 0; c < kIterations + 2; ++c) {
      cursor.begin(c);
      if (!cursor.active(entry)) continue;
      const std::int64_t j = c - first;
      const dfg::Window win = cursor.window(entry);
      if (j > 0 && j == win.start - first) handoff.restore(node, j);
      if (node.count != j) wrong = true;
      fired[static_cast<std::size_t>(j)]++;
      ++node.count;
      if (j + 1 == win.stop - first && win.stop - first < kIterations) handoff.save(node, j + 1);
    }
    cursor.finish();
  };
  // The first move is asked for before the workers start, so that one move happens however the
  // threads are scheduled; the others race with the running workers.
  int moves = 0;
  std::int64_t first_move = 0;
  if (m.request("n:B.c0", first_move).empty()) ++moves;
  REQUIRE(moves == 1);
  std::thread home(worker, 0, 0), away(worker, 1, 1);
  for (int i = 1; i < 40; ++i) {
    std::int64_t j = 0;
    if (m.request(i % 2 == 0 ? "n:B.c0" : "n:A.c0", j).empty()) ++moves;
  }
  home.join();
  away.join();
  m.stop();
  CHECK_FALSE(wrong);
  CHECK(moves > 0);
  for (std::int64_t j = 0; j < kIterations; ++j) {
    INFO("iteration " << j);
    REQUIRE(fired[static_cast<std::size_t>(j)] == 1);
  }
}

TEST_CASE("migration: --migrate-control must be a file or a FIFO, not a directory", "[migration]") {
  dfg::Options o = options_with({});
  o.migrate_control = std::filesystem::temp_directory_path().string();
  CHECK(dfg::check_requests(o, kAlts) ==
        "error: --migrate-control " + o.migrate_control +
            ": a directory; expected a file or a FIFO that moves are written to, a line each");
  o.migrate_control = (std::filesystem::temp_directory_path() / "dfg_no_such_control").string();
  CHECK(dfg::check_requests(o, kAlts).empty());  // waited for: the control thread says so
}

TEST_CASE(
    "migration: the control file's last line without a newline is read; control bytes are "
    "escaped",
    "[migration]") {
  dfg_test::HangGuard guard("migration control", 30);
  const auto path = std::filesystem::temp_directory_path() / "dfg_migration_control_test";
  {
    std::ofstream f(path, std::ios::binary);
    f << std::string("bad\0line\x1b[2J\n", 13) << "n:B.c0";  // no newline at the end
  }
  // What the control thread says on std::cerr, read by this thread under a lock.
  struct Said : std::streambuf {
    std::mutex mutex;
    std::string text;
    int_type overflow(int_type c) override {
      std::lock_guard lock(mutex);
      if (c != traits_type::eof()) text += static_cast<char>(c);
      return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
      std::lock_guard lock(mutex);
      text.append(s, static_cast<std::size_t>(n));
      return n;
    }
    std::string get() {
      std::lock_guard lock(mutex);
      return text;
    }
  } said;
  auto* old = std::cerr.rdbuf(&said);
  dfg::Migrator<TestEntry> m(kEntries, kAlts, 1000000);
  dfg::WindowTable table(m.initial_windows({}), 2);
  m.start(path.string(), table);
  for (int i = 0; i < 2000 && said.get().find("n:B.c0") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  m.stop();
  std::cerr.rdbuf(old);
  std::filesystem::remove(path);
  const std::string text = said.get();
  INFO(text);
  CHECK(text.find("migrate: bad\\x00line\\x1b[2J: refused: expected NODE:PE or NODE:PE@ITERATION, "
                  "got 'bad\\x00line\\x1b[2J'\n") != std::string::npos);
  CHECK(text.find("migrate: n:B.c0: node moved from iteration ") != std::string::npos);
}

namespace {

// Two neighbours that compose: n (entry 0 at home, 1 on B) and m (2 at home, 3 on C) both stop
// the transfer 4 between them; their joint alternative (2) fires n and m as entries 5 and 6. k
// (alternative 3) stops the transfer too, and no joint takes it with n or m.
constexpr std::array<TestEntry, 7> kJointEntries = {{{1}, {1}, {1}, {1}, {0}, {1}, {1}}};
constexpr std::size_t kJStopN[] = {0, 4};
constexpr std::size_t kJStartN[] = {1};
constexpr std::size_t kJStopM[] = {2, 4};
constexpr std::size_t kJStartM[] = {3};
constexpr std::size_t kJStopNM[] = {0, 2, 4};
constexpr std::size_t kJStartNM[] = {5, 6};
constexpr std::size_t kJPartsNM[] = {0, 1};
constexpr std::size_t kJStopK[] = {4};
constexpr std::array<dfg::Alternative, 4> kJointAlts = {{
    {"n", "A.c0", "B.c0", true, kJStopN, kJStartN},
    {"m", "A.c1", "C.c0", true, kJStopM, kJStartM},
    {"n + m", "A.c0 + A.c1", "B.c0 + C.c0", true, kJStopNM, kJStartNM, kJPartsNM},
    {"k", "A.c2", "A.c3", true, kJStopK, {}},
}};

}  // namespace

TEST_CASE("migration: moves that share entries compose through their joint alternative",
          "[migration]") {
  const dfg::Placement p(kJointAlts);
  std::vector<bool> moves = p.moves(), target;
  REQUIRE(p.move(moves, "n", "B.c0").empty());
  REQUIRE(p.move(moves, "m", "C.c0").empty());
  CHECK(p.compose(moves, target).empty());
  CHECK(target == std::vector<bool>{false, false, true, false});  // the joint, not its parts
  CHECK(p.move(moves, "k", "A.c3").empty());
  CHECK(p.compose(moves, target) == std::vector<std::size_t>{0, 1, 3});  // no joint takes k
  CHECK(p.move(moves, "n", "B.c0") == "node 'n' already runs on B.c0");
  CHECK(p.move(moves, "n", "Z.c0") ==
        "Z.c0 is not an alternative of node 'n' (its alternatives: B.c0)");
  // Entries run by the placement: the joint's own, and the base's it does not stop.
  const std::vector<bool> joint{false, false, true, false};
  CHECK_FALSE(p.runs(joint, 0));
  CHECK_FALSE(p.runs(joint, 1));
  CHECK(p.runs(joint, 5));
  CHECK_FALSE(p.runs(joint, 4));
  CHECK(p.runs(p.placed(), 4));
}

TEST_CASE("migration: launch-time moves of neighbours switch to their joint alternative",
          "[migration]") {
  CHECK(
      dfg::check_requests(options_with({{"n", "B.c0", 5}, {"m", "C.c0", 9}}), kJointAlts).empty());
  CHECK(
      dfg::check_requests(options_with({{"n", "B.c0", 5}, {"k", "A.c3", 9}}), kJointAlts) ==
      "error: --migrate k:A.c3@9: conflicts with --migrate n:B.c0@5: both change the same firings "
      "or transfers, and dfgc planned no joint alternative for them (schedule.txt says why)");
  dfg::Migrator<TestEntry> m(kJointEntries, kJointAlts, 100);
  const std::vector<dfg::Window> w = m.initial_windows({{"m", "C.c0", 9}, {"n", "B.c0", 5}});
  CHECK(w[0] == dfg::Window{1, 6});     // n at home for 0 .. 4
  CHECK(w[1] == dfg::Window{6, 10});    // on B.c0 alone for 5 .. 8
  CHECK(w[5] == dfg::Window{10, 101});  // in the joint from 9 on
  CHECK(w[2] == dfg::Window{1, 10});    // m at home for 0 .. 8
  CHECK(w[3] == dfg::Window{1, 1});     // m never alone on C.c0
  CHECK(w[6] == dfg::Window{10, 101});
  CHECK(w[4] == dfg::Window{0, 5});  // the transfer between them ends with n's move
  CHECK(dfg::Migrator<TestEntry>::cycles_needed(kJointEntries, kJointAlts,
                                                {{"n", "B.c0", 5}, {"m", "C.c0", 9}}, 100) == 101);
}

TEST_CASE("migration: an entry a launch-time move stops and a later one starts again is refused",
          "[migration]") {
  // This joint keeps the transfer that each single move stops.
  static constexpr std::size_t kStopBoth[] = {0, 2};
  static constexpr std::array<dfg::Alternative, 3> alts = {{
      {"n", "A.c0", "B.c0", true, kJStopN, kJStartN},
      {"m", "A.c1", "C.c0", true, kJStopM, kJStartM},
      {"n + m", "A.c0 + A.c1", "B.c0 + C.c0", true, kStopBoth, kJStartNM, kJPartsNM},
  }};
  CHECK(dfg::check_requests(options_with({{"n", "B.c0", 5}, {"m", "C.c0", 9}}), alts) ==
        "error: --migrate m:C.c0@9: with the moves before it, some firings or transfers would stop "
        "at iteration 5 and start again at 9 (at launch, give moves that change common entries one "
        "iteration, or make the later one with --migrate-control)");
  CHECK(dfg::check_requests(options_with({{"n", "B.c0", 5}, {"m", "C.c0", 5}}), alts).empty());
}

TEST_CASE("migration: live moves compose, several at once, and come apart", "[migration]") {
  dfg_test::HangGuard guard("migration compose", 30);
  dfg::Migrator<TestEntry> m(kJointEntries, kJointAlts, 100000);
  dfg::WindowTable table(m.initial_windows({}), 2);
  table.cursor(0).finish();  // worker 0 never runs; this thread reads as worker 1
  dfg::WindowCursor reader = table.cursor(1);
  // The windows from the cycle of the last switch (first cycle 1 + its iteration) on.
  std::int64_t j = -1;
  auto window = [&](std::size_t entry) {
    reader.begin(1 + j);
    return reader.window(entry);
  };
  m.start("", table);
  REQUIRE(m.request("n:B.c0@10", j).empty());
  CHECK(window(1).start == 1 + j);             // the reader passes each switch: the next may come
  REQUIRE(m.request("m:C.c0@20", j).empty());  // into the joint
  CHECK(window(5).start == 1 + j);
  CHECK(window(1).stop == 1 + j);
  CHECK(m.request("k:A.c3", j) ==
        "conflicts with node 'n' on B.c0, node 'm' on C.c0: both change the same firings or "
        "transfers, and dfgc planned no joint alternative for them (schedule.txt says why)");
  REQUIRE(m.request("n:A.c0@30", j).empty());  // out of the joint: m alone on C.c0
  CHECK(window(3).start == 1 + j);
  CHECK(window(0).start == 1 + j);
  CHECK(window(6).stop == 1 + j);
  REQUIRE(m.request("n:B.c0,m:A.c1@40", j).empty());  // two moves in one switch
  CHECK(window(1).start == 1 + j);
  CHECK(window(2).start == 1 + j);
  CHECK(window(3).stop == 1 + j);
  CHECK(m.request("n:A.c0,n:B.c0", j) == "node 'n' is named twice");
  CHECK(m.request("n:A.c0,", j) == "expected NODE:PE or NODE:PE@ITERATION, got 'n:A.c0,'");
  reader.finish();
  m.stop();
}
