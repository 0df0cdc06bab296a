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
