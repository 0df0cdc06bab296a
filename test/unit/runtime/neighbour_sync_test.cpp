#include "dfg/neighbour_sync.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/slots.hpp"
#include "hang_guard.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::int64_t kCycles = 5'000;
#else
constexpr std::int64_t kCycles = 50'000;
#endif

/// A pipeline with overlap on plain memory, as the generated program runs it: PE k owns a double
/// buffer; in cycle c it reads slot c - 1 of the buffers of the PEs in `reads[k]` (written in the
/// previous cycle) and writes slot c of its own. Neighbours: the readers and the written. A missing
/// happens-before shows as a wrong value or as a ThreadSanitizer report.
std::int64_t run_pipeline(const std::vector<std::vector<int>>& reads, std::int64_t cycles) {
  const int n = static_cast<int>(reads.size());
  std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    for (const int q : reads[static_cast<std::size_t>(k)]) {
      neighbours[static_cast<std::size_t>(k)].push_back(q);
      neighbours[static_cast<std::size_t>(q)].push_back(k);
    }
  }
  dfg::Abort abort;
  dfg::NeighbourSync sync(neighbours, abort);
  std::vector<std::int64_t> memory(static_cast<std::size_t>(2 * n), -1);  // plain, not atomic
  std::vector<std::int64_t> errors(static_cast<std::size_t>(n), 0);
  std::vector<std::thread> threads;
  for (int k = 0; k < n; ++k) {
    threads.emplace_back([&, k] {
      for (std::int64_t c = 0; c < cycles; ++c) {
        sync.wait_to_begin(k, c);
        for (const int q : reads[static_cast<std::size_t>(k)]) {
          const std::int64_t got = memory[static_cast<std::size_t>(2 * q) + dfg::slot(c, 1, 2)];
          if (got != c - 1) ++errors[static_cast<std::size_t>(k)];
        }
        memory[static_cast<std::size_t>(2 * k) + dfg::slot(c, 0, 2)] = c;
        sync.finish(k, c);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::int64_t total = 0;
  for (const std::int64_t e : errors) total += e;
  return total;
}

}  // namespace

TEST_CASE("neighbour sync: a PE without neighbours never waits", "[neighbour_sync]") {
  dfg::Abort abort;
  dfg::NeighbourSync sync({{}}, abort);
  for (std::int64_t c = 0; c < 5; ++c) {
    sync.wait_to_begin(0, c);
    sync.finish(0, c);
  }
  CHECK(sync.done_approx(0) == 5);
  CHECK_THROWS_AS(dfg::NeighbourSync({}, abort), std::invalid_argument);
  CHECK_THROWS_AS(dfg::NeighbourSync({{1}}, abort), std::invalid_argument);
}

TEST_CASE("neighbour sync: a PE begins cycle c once its neighbours finished c - 1",
          "[neighbour_sync]") {
  dfg::Abort abort;
  dfg::NeighbourSync sync({{1}, {0}, {}}, abort);
  sync.wait_to_begin(0, 0);  // nobody has to have finished anything
  sync.finish(0, 0);
  sync.wait_to_begin(2, 0);
  sync.finish(2, 0);
  sync.wait_to_begin(2, 1);  // PE 2 has no neighbour: it runs ahead freely
  sync.finish(2, 1);
  sync.wait_to_begin(1, 0);
  sync.finish(1, 0);
  sync.wait_to_begin(0, 1);  // PE 1 finished cycle 0
  CHECK(sync.done_approx(1) == 1);
  CHECK(sync.done_approx(2) == 2);
}

TEST_CASE("neighbour sync stress: chains, a relay and a star keep the BSP order of shared memory",
          "[neighbour_sync][stress]") {
  // P -> I -> I -> C on four PEs; a relay g0 -> cpu -> g1 where both GPUs touch the CPU's memory;
  // a star of one CPU feeding three GPUs, and two pipelines that share nothing.
  const std::vector<std::vector<std::vector<int>>> shapes = {
      {{}, {0}, {1}, {2}},
      {{}, {0}, {0, 1}},
      {{}, {0}, {0}, {0}, {1, 2, 3}},
      {{}, {0}, {}, {2}},
  };
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    INFO("shape " << s);
    dfg_test::HangGuard guard("neighbour sync stress, shape " + std::to_string(s),
                              dfg_test::kHangSeconds);
    CHECK(run_pipeline(shapes[s], kCycles) == 0);
  }
}

TEST_CASE("neighbour sync: waits throw Aborted promptly once the stop is raised",
          "[neighbour_sync][abort]") {
  dfg_test::HangGuard guard("neighbour sync abort", dfg_test::kHangSeconds);
  dfg::Abort abort;
  dfg::NeighbourSync sync({{1}, {0}}, abort);
  std::atomic<int> aborted{0};
  std::thread waiter([&] {
    try {
      sync.wait_to_begin(0, 1);  // PE 1 never finishes cycle 0
    } catch (const dfg::Aborted&) {
      aborted.fetch_add(1);
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  abort.raise("node i1 (Inc) @ A.g0", 3, "boom");
  waiter.join();
  CHECK(aborted.load() == 1);
  CHECK_THROWS_AS(sync.wait_to_begin(1, 0), dfg::Aborted);  // also when raised before the call
}

TEST_CASE("neighbour sync: ready_to_begin answers without blocking, as wait_to_begin would",
          "[neighbour_sync]") {
  dfg::Abort abort;
  dfg::NeighbourSync sync({{1}, {0, 2}, {1}}, abort);
  CHECK(sync.ready_to_begin(1, 0));        // cycle 0 waits for nothing
  CHECK_FALSE(sync.ready_to_begin(1, 1));  // neither neighbour finished cycle 0
  sync.finish(0, 0);
  CHECK_FALSE(sync.ready_to_begin(1, 1));  // PE 2 has not
  sync.finish(2, 0);
  CHECK(sync.ready_to_begin(1, 1));
  CHECK_FALSE(sync.ready_to_begin(1, 2));
  CHECK_FALSE(sync.ready_to_begin(0, 1));  // PE 1 itself has not finished cycle 0
  abort.raise("node c (C) @ A.cpu", 1, "boom");
  CHECK_THROWS_AS(sync.ready_to_begin(1, 1), dfg::Aborted);  // a stop, never a satisfied wait
}

TEST_CASE("neighbour sync: a host-only PE waits for its neighbours' release, the others for finish",
          "[neighbour_sync]") {
  dfg::Abort abort;
  // PE 0 a CPU (host only), PE 1 a GPU, PE 2 another GPU: 1 is the neighbour of both.
  dfg::NeighbourSync sync({{1}, {0, 2}, {1}}, abort);
  sync.host_only(0);
  sync.release(1, 0);                      // the GPU's copies of cycle 0 have finished
  CHECK(sync.ready_to_begin(0, 1));        // the CPU may begin cycle 1
  CHECK_FALSE(sync.ready_to_begin(2, 1));  // the other GPU waits for the kernels too
  sync.wait_to_begin(0, 1);                // returns at once
  sync.finish(1, 0);
  CHECK(sync.ready_to_begin(2, 1));
  sync.finish(1, 1);  // a finish releases too
  CHECK(sync.ready_to_begin(0, 2));
  sync.release(1, 0);  // an earlier cycle leaves the counter as it is
  CHECK(sync.ready_to_begin(0, 2));
  CHECK_FALSE(sync.ready_to_begin(0, 3));
  CHECK_THROWS_AS(sync.host_only(3), std::out_of_range);
}

TEST_CASE("neighbour sync: a host-only waiter sleeping on a release is woken by it and by a stop",
          "[neighbour_sync][abort]") {
  dfg_test::HangGuard guard("neighbour sync release", dfg_test::kHangSeconds);
  dfg::Abort abort;
  dfg::NeighbourSync sync({{1}, {0}}, abort);
  sync.host_only(0);
  std::thread waiter([&] { sync.wait_to_begin(0, 1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spin: asleep
  sync.release(1, 0);
  waiter.join();
  std::atomic<int> aborted{0};
  std::thread stopped([&] {
    try {
      sync.wait_to_begin(0, 2);
    } catch (const dfg::Aborted&) {
      aborted.fetch_add(1);
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  abort.raise("node i (Inc) @ A.g0", 1, "boom");
  stopped.join();
  CHECK(aborted.load() == 1);
}
