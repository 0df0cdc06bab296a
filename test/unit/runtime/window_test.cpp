#include "dfg/window.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "hang_guard.hpp"

namespace {

using dfg::Reprogram;
using dfg::Window;
using dfg::WindowChange;

constexpr std::int64_t kForever = Window::kForever;

}  // namespace

TEST_CASE("window: contains", "[window]") {
  CHECK(Window{2, 5}.contains(2));
  CHECK(Window{2, 5}.contains(4));
  CHECK_FALSE(Window{2, 5}.contains(5));
  CHECK_FALSE(Window{2, 5}.contains(1));
  CHECK(Window{}.contains(0));
  CHECK(Window{}.contains(kForever - 1));
  CHECK_FALSE(Window{3, 3}.contains(3));
}

TEST_CASE("window table: initial windows and a change at a future cycle", "[window]") {
  dfg::Abort abort;
  const Window initial[] = {{0, kForever}, {1, kForever}, {0, 0}};
  dfg::WindowTable table(initial, 1, abort);
  dfg::WindowCursor win = table.cursor(0);

  win.begin(0);
  CHECK(win.active(0));
  CHECK_FALSE(win.active(1));  // input latency 1
  CHECK_FALSE(win.active(2));  // the pre-generated alternative, off
  win.begin(1);
  CHECK(win.active(1));

  // Migrate: from cycle 4 entry 0 stops, entry 2 starts at 5 (one cycle of pause between).
  const WindowChange change[] = {{0, {0, 4}}, {2, {5, kForever}}};
  REQUIRE(table.reprogram(4, change) == Reprogram::ok);
  CHECK(table.switch_cycle_approx() == 4);
  for (std::int64_t k = 2; k < 8; ++k) {
    win.begin(k);
    CHECK(win.active(0) == (k < 4));
    CHECK(win.active(2) == (k >= 5));
    CHECK(win.active(1));
  }
  CHECK(win.window(2) == Window{5, kForever});
  CHECK(win.cycle() == 7);
}

TEST_CASE("window table: too late, busy and bad requests change nothing", "[window]") {
  dfg::Abort abort;
  const Window initial[] = {{0, kForever}, {0, kForever}};
  dfg::WindowTable table(initial, 2, abort);
  dfg::WindowCursor a = table.cursor(0);
  dfg::WindowCursor b = table.cursor(1);
  a.begin(0);
  b.begin(0);
  a.begin(1);
  a.begin(2);
  CHECK(table.max_begun_approx() == 2);

  const WindowChange off0[] = {{0, {0, 0}}};
  CHECK(table.reprogram(2, off0) == Reprogram::too_late);  // worker a has begun cycle 2
  CHECK(table.reprogram(1, off0) == Reprogram::too_late);
  a.begin(3);
  CHECK(a.active(0));

  const WindowChange bad_entry[] = {{2, {0, 1}}};
  const WindowChange bad_window[] = {{0, {5, 1}}};
  CHECK(table.reprogram(10, bad_entry) == Reprogram::bad_entry);
  CHECK(table.reprogram(10, bad_window) == Reprogram::bad_entry);
  CHECK(table.reprogram(-1, off0) == Reprogram::bad_entry);

  REQUIRE(table.reprogram(5, off0) == Reprogram::ok);
  // Worker b is still at cycle 0: the old plan is in use until it reaches 5.
  const WindowChange off1[] = {{1, {0, 0}}};
  CHECK(table.reprogram(9, off1) == Reprogram::busy);
  a.begin(5);
  CHECK_FALSE(a.active(0));
  b.begin(4);
  CHECK(b.active(0));
  CHECK(table.reprogram(9, off1) == Reprogram::busy);
  b.finish();  // a finished worker never holds a change back
  REQUIRE(table.reprogram(9, off1) == Reprogram::ok);
  a.begin(8);
  CHECK_FALSE(a.active(0));
  CHECK(a.active(1));
  a.begin(9);
  CHECK_FALSE(a.active(1));
}

TEST_CASE("window table: a prepared change holds the workers at its cycle until it is settled",
          "[window]") {
  dfg_test::HangGuard guard("the prepared change", 60);
  dfg::Abort abort;
  const Window initial[] = {{0, kForever}, {0, 0}};
  const WindowChange swap[] = {{0, {0, 3}}, {1, {3, kForever}}};
  for (bool make : {false, true}) {
    INFO(make);
    dfg::WindowTable t(initial, 1, abort);
    dfg::WindowCursor win = t.cursor(0);
    win.begin(0);
    REQUIRE(t.prepare(3, swap) == Reprogram::ok);
    CHECK(t.prepare(6, swap) == Reprogram::busy);  // one held change at a time
    CHECK(t.reprogram(6, swap) == Reprogram::busy);
    std::atomic<std::int64_t> reached{-1};
    std::atomic<bool> active1{false};
    std::thread worker([&] {
      for (std::int64_t k = 1; k < 5; ++k) {
        win.begin(k);
        reached.store(k, std::memory_order_release);
        if (k == 4) active1.store(win.active(1), std::memory_order_release);
      }
      win.finish();
    });
    // The worker runs cycles 1 and 2 with the old windows, then waits at cycle 3.
    while (reached.load(std::memory_order_acquire) < 2) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(reached.load(std::memory_order_acquire) == 2);
    t.settle(make);
    worker.join();
    CHECK(reached.load() == 4);
    CHECK(active1.load() == make);
    CHECK(t.all_finished());
  }
}

TEST_CASE("window table: begin throws Aborted after a stop", "[window][abort]") {
  dfg::Abort abort;
  const Window initial[] = {{0, kForever}};
  dfg::WindowTable table(initial, 1, abort);
  dfg::WindowCursor win = table.cursor(0);
  win.begin(0);
  abort.raise("controller", -1, "stop");
  CHECK_THROWS_AS(win.begin(1), dfg::Aborted);
  const WindowChange off[] = {{0, {0, 0}}};
  CHECK(table.reprogram(10, off) == Reprogram::too_late);
}

TEST_CASE("window table stress: every worker sees every accepted change from its cycle on",
          "[window][stress]") {
  // Workers run free (no barrier between them) and record, for every cycle, the set of active
  // entries. A controller keeps requesting random changes a few cycles ahead of the fastest
  // worker. Afterwards every worker's record must equal the windows rebuilt from the log of
  // accepted changes, for every cycle.
#ifdef DFG_TEST_TSAN
  constexpr std::int64_t kCycles = 20'000;
#else
  constexpr std::int64_t kCycles = 200'000;
#endif
  constexpr int kWorkers = 3;
  constexpr std::size_t kEntries = 12;
  dfg_test::HangGuard guard("window reprogramming stress", dfg_test::kHangSeconds);
  dfg::Abort abort;
  std::vector<Window> initial(kEntries);
  dfg::WindowTable table(initial, kWorkers, abort);

  std::vector<std::vector<std::uint64_t>> seen(kWorkers, std::vector<std::uint64_t>(kCycles, 0));
  std::atomic<int> running{kWorkers};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWorkers; ++w) {
    threads.emplace_back([&, w] {
      dfg::WindowCursor win = table.cursor(w);
      std::minstd_rand rng(static_cast<unsigned>(w + 1));
      for (std::int64_t k = 0; k < kCycles; ++k) {
        win.begin(k);
        std::uint64_t mask = 0;
        for (std::size_t e = 0; e < kEntries; ++e)
          mask |= static_cast<std::uint64_t>(win.active(e)) << e;
        seen[static_cast<std::size_t>(w)][static_cast<std::size_t>(k)] = mask;
        if (rng() % 64 == 0) std::this_thread::yield();
      }
      win.finish();
      running.fetch_sub(1);
    });
  }

  struct Accepted {
    std::int64_t m;
    std::vector<WindowChange> changes;
  };
  std::vector<Accepted> log;
  int ok = 0, too_late = 0, busy = 0, bad = 0;
  std::thread controller([&] {
    std::minstd_rand rng(42);
    while (running.load() > 0) {
      const std::int64_t m = table.max_begun_approx() + static_cast<std::int64_t>(rng() % 6);
      std::vector<WindowChange> changes;
      const std::size_t n = 1 + rng() % 3;
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t start = m + static_cast<std::int64_t>(rng() % 8) - 4;
        const std::int64_t stop =
            rng() % 4 == 0 ? kForever : start + static_cast<std::int64_t>(rng() % 20);
        changes.push_back({rng() % kEntries,
                           {std::max<std::int64_t>(start, 0), std::max<std::int64_t>(stop, 0)}});
      }
      switch (table.reprogram(std::max<std::int64_t>(m, 0), changes)) {
        case Reprogram::ok:
          ++ok;
          log.push_back({std::max<std::int64_t>(m, 0), changes});
          break;
        case Reprogram::too_late: ++too_late; break;
        case Reprogram::busy: ++busy; break;
        case Reprogram::bad_entry: ++bad; break;
      }
      if (rng() % 4 == 0) std::this_thread::yield();
    }
  });
  for (auto& t : threads) t.join();
  controller.join();

  INFO("accepted " << ok << ", too late " << too_late << ", busy " << busy);
  CHECK(ok > 0);
  CHECK(bad == 0);
  // Rebuild the expected windows cycle by cycle from the log (changes have increasing m).
  std::vector<Window> plan = initial;
  std::size_t next = 0;
  std::int64_t mismatches = 0, first_mismatch = -1;
  for (std::int64_t k = 0; k < kCycles; ++k) {
    while (next < log.size() && log[next].m <= k) {
      for (const WindowChange& c : log[next].changes) plan[c.entry] = c.window;
      ++next;
    }
    std::uint64_t mask = 0;
    for (std::size_t e = 0; e < kEntries; ++e)
      mask |= static_cast<std::uint64_t>(plan[e].contains(k)) << e;
    for (int w = 0; w < kWorkers; ++w) {
      if (seen[static_cast<std::size_t>(w)][static_cast<std::size_t>(k)] != mask) {
        ++mismatches;
        if (first_mismatch < 0) first_mismatch = k;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(first_mismatch == -1);
  for (std::size_t i = 1; i < log.size(); ++i) CHECK(log[i].m >= log[i - 1].m);
}
