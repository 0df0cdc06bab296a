#include "dfg/worker.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/cycle_barrier.hpp"
#include "dfg/neighbour_sync.hpp"
#include "dfg/slots.hpp"
#include "dfg/window.hpp"
#include "hang_guard.hpp"

TEST_CASE("workers: a clean run returns 0 and prints nothing", "[worker]") {
  dfg::Abort abort;
  dfg::Workers workers(abort);
  std::atomic<int> ran{0};
  for (int i = 0; i < 3; ++i) {
    CHECK(workers.spawn("pe" + std::to_string(i), [&](dfg::Where&) { ran.fetch_add(1); }));
  }
  CHECK(workers.size() == 3);
  std::ostringstream err;
  CHECK(workers.join_and_report(err) == 0);
  CHECK(err.str().empty());
  CHECK(ran.load() == 3);
}

TEST_CASE("workers stress: an actor that throws mid-run stops the whole P -> I -> I -> C pipeline",
          "[worker][abort][stress]") {
  // Four PEs in a chain, synchronised with their neighbours as the generated program does with
  // --sync=neighbours, double buffers between them; i1 throws at iteration 17. Every other worker
  // is blocked in, or reaches, a neighbour wait and leaves with Aborted; join returns 1 and the
  // message names the node and the iteration.
  for (int round = 0; round < 20; ++round) {
    dfg_test::HangGuard guard("pipeline abort, round " + std::to_string(round),
                              dfg_test::kHangSeconds);
    dfg::Abort abort;
    dfg::NeighbourSync sync({{1}, {0, 2}, {1, 3}, {2}}, abort);
    std::vector<std::int64_t> b0(2), b1(2), b2(2);
    const std::int64_t kCycles = 1'000'000;  // never reached
    dfg::Workers workers(abort);
    std::int64_t consumed = 0, bad = 0;
    auto stage = [&](int pe, const char* who, std::int64_t latency, auto body) {
      workers.spawn("pe" + std::to_string(pe), [&, pe, who, latency, body](dfg::Where& where) {
        for (std::int64_t c = 0; c < kCycles; ++c) {
          sync.wait_to_begin(pe, c);
          if (c >= latency) {
            where.at(who, c - latency);
            body(c, c - latency);
          }
          sync.finish(pe, c);
        }
      });
    };
    stage(0, "node p (Producer) @ A.cpu", 0,
          [&](std::int64_t c, std::int64_t j) { b0[dfg::slot(c, 0, 2)] = j; });
    stage(1, "node i1 (Inc) @ A.g0", 1, [&](std::int64_t c, std::int64_t j) {
      if (j == 17) throw std::runtime_error("bad token");
      b1[dfg::slot(c, 0, 2)] = b0[dfg::slot(c, 1, 2)] + 1;
    });
    stage(2, "node i2 (Inc) @ B.g0", 2, [&](std::int64_t c, std::int64_t) {
      b2[dfg::slot(c, 0, 2)] = b1[dfg::slot(c, 1, 2)] + 1;
    });
    stage(3, "node c (Consumer) @ B.cpu", 3, [&](std::int64_t c, std::int64_t j) {
      if (b2[dfg::slot(c, 1, 2)] != j + 2) ++bad;
      ++consumed;
    });
    std::ostringstream err;
    CHECK(workers.join_and_report(err) == 1);
    CHECK(err.str() == "error: node i1 (Inc) @ A.g0, iteration 17: bad token\n");
    CHECK(consumed <= 17);  // 0..16 at most: the stop may reach the consumer first
    CHECK(bad == 0);
  }
}

TEST_CASE(
    "workers: barrier and window waits stop too; a body without a where is named by its worker",
    "[worker][abort]") {
  dfg_test::HangGuard guard("barrier abort", dfg_test::kHangSeconds);
  dfg::Abort abort;
  dfg::CycleBarrier barrier(3, abort);
  const dfg::Window initial[] = {{0, dfg::Window::kForever}};
  dfg::WindowTable windows(initial, 3, abort);
  dfg::Workers workers(abort);
  for (int i = 0; i < 2; ++i) {
    workers.spawn("pe" + std::to_string(i), [&, i](dfg::Where&) {
      dfg::WindowCursor win = windows.cursor(i);
      for (std::int64_t k = 0;; ++k) {
        win.begin(k);
        barrier.arrive_and_wait();
      }
    });
  }
  workers.spawn("A.g1", [&](dfg::Where&) {
    dfg::WindowCursor win = windows.cursor(2);
    for (std::int64_t k = 0; k < 5; ++k) {
      win.begin(k);
      barrier.arrive_and_wait();
    }
    throw std::logic_error("cudaErrorIllegalAddress: an illegal memory access was encountered");
  });
  std::ostringstream err;
  CHECK(workers.join_and_report(err) == 1);
  CHECK(err.str() ==
        "error: worker A.g1: cudaErrorIllegalAddress: an illegal memory access was encountered\n");
}

TEST_CASE("workers: non-standard exceptions and main_guard", "[worker]") {
  {
    dfg::Abort abort;
    dfg::Workers workers(abort);
    workers.spawn("A.cpu", [](dfg::Where& where) {
      where.at("node p (Producer) @ A.cpu", 2);
      throw 42;
    });
    std::ostringstream err;
    CHECK(workers.join_and_report(err) == 1);
    CHECK(err.str() == "error: node p (Producer) @ A.cpu, iteration 2: unknown exception\n");
  }
  {
    dfg::Abort abort;
    std::ostringstream err;
    CHECK(dfg::main_guard(err, [] { return 0; }, abort) == 0);
    CHECK(dfg::main_guard(err, [] { return 2; }, abort) == 2);
    CHECK(err.str().empty());
    CHECK(dfg::main_guard(
              err,
              []() -> int {
                throw std::runtime_error("cannot allocate 16 MiB for buffer i1.b@A.cpu");
              },
              abort) == 1);
    CHECK(err.str() == "error: cannot allocate 16 MiB for buffer i1.b@A.cpu\n");
  }
  {
    // Workers reported inside main_guard's body: the message is printed once.
    dfg::Abort abort;
    std::ostringstream err;
    const int status = dfg::main_guard(
        err,
        [&] {
          dfg::Workers workers(abort);
          workers.spawn("A.cpu", [](dfg::Where& where) {
            where.at("node p (Producer) @ A.cpu", 0);
            throw std::runtime_error("no input");
          });
          return workers.join_and_report(err);
        },
        abort);
    CHECK(status == 1);
    CHECK(err.str() == "error: node p (Producer) @ A.cpu, iteration 0: no input\n");
  }
  {
    // Workers left unjoined: the destructor raises the stop and joins.
    dfg_test::HangGuard guard("workers destructor", dfg_test::kHangSeconds);
    dfg::Abort abort;
    {
      dfg::NeighbourSync sync({{1}, {0}}, abort);
      dfg::Workers workers(abort);
      workers.spawn("A.cpu", [&](dfg::Where&) { sync.wait_to_begin(0, 1); });
    }
    CHECK(abort.stopped());
    CHECK(abort.message() == "error: worker threads abandoned before join");
  }
}

TEST_CASE("workers: Where::at records what runs and returns its iteration", "[worker]") {
  dfg::Where where;
  CHECK(where.at("node p (Producer) @ A.cpu", 17) == 17);
  CHECK(where.who() == "node p (Producer) @ A.cpu");
  CHECK(where.iteration() == 17);
  where.clear();
  CHECK(where.who().empty());
  CHECK(where.iteration() == -1);
}

TEST_CASE("workers: wait_cycles_ended waits for every worker's cycles, bounded", "[worker]") {
  dfg_test::HangGuard guard("cycles ended", dfg_test::kHangSeconds);
  dfg::Abort abort;
  dfg::Workers workers(abort);
  std::atomic<bool> go{false};
  for (int w = 0; w < 3; ++w)
    workers.spawn("A.c" + std::to_string(w), [&](dfg::Where&) {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      workers.cycles_ended();
    });
  // None has ended: the wait gives up after its limit.
  CHECK_FALSE(workers.wait_cycles_ended(std::chrono::milliseconds(20)));
  go.store(true, std::memory_order_release);
  CHECK(workers.wait_cycles_ended(std::chrono::seconds(30)));
  CHECK(workers.join() == 0);
}
