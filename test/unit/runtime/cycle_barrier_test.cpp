#include "dfg/cycle_barrier.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "hang_guard.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::int64_t kPhases = 5'000;
#else
constexpr std::int64_t kPhases = 20'000;
#endif

}  // namespace

TEST_CASE("cycle barrier: one party never blocks", "[cycle_barrier]") {
  dfg::Abort abort;
  dfg::CycleBarrier barrier(1, abort);
  for (int i = 0; i < 5; ++i) barrier.arrive_and_wait();
  CHECK(barrier.phase_approx() == 5);
  CHECK_THROWS_AS(dfg::CycleBarrier(0, abort), std::invalid_argument);
}

TEST_CASE("cycle barrier stress: phases separate writes from reads", "[cycle_barrier][stress]") {
  // Like the no-overlap cycle: every thread writes its own plain slot, barrier, every thread
  // reads all slots, barrier. A missing happens-before shows as a wrong value or a TSan report.
  for (int parties : {2, 3, 5}) {
    INFO("parties " << parties);
    dfg_test::HangGuard guard("cycle barrier stress", dfg_test::kHangSeconds);
    dfg::Abort abort;
    dfg::CycleBarrier barrier(parties, abort);
    std::vector<std::int64_t> slots(static_cast<std::size_t>(parties), -1);
    std::vector<std::int64_t> errors(static_cast<std::size_t>(parties), 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < parties; ++t) {
      threads.emplace_back([&, t] {
        for (std::int64_t phase = 0; phase < kPhases; ++phase) {
          slots[static_cast<std::size_t>(t)] = phase;
          barrier.arrive_and_wait();
          for (std::int64_t v : slots) {
            if (v != phase) ++errors[static_cast<std::size_t>(t)];
          }
          if (phase % (61 + t) == 0) std::this_thread::yield();
          barrier.arrive_and_wait();
        }
      });
    }
    for (auto& th : threads) th.join();
    for (std::int64_t e : errors) CHECK(e == 0);
    CHECK(barrier.phase_approx() == 2 * kPhases);
  }
}

TEST_CASE("cycle barrier: a party that throws stops the others", "[cycle_barrier][abort]") {
  dfg_test::HangGuard guard("cycle barrier abort", dfg_test::kHangSeconds);
  dfg::Abort abort;
  constexpr int kParties = 4;
  dfg::CycleBarrier barrier(kParties, abort);
  std::atomic<int> stopped{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kParties; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (std::int64_t phase = 0;; ++phase) {
          if (t == 2 && phase == 50) throw std::runtime_error("actor failed");
          barrier.arrive_and_wait();
        }
      } catch (const dfg::Aborted&) {
        stopped.fetch_add(1);
      } catch (const std::exception& e) {
        abort.raise("node t2", 50, e.what());
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(stopped.load() == kParties - 1);
  CHECK(abort.message() == "error: node t2, iteration 50: actor failed");
}
