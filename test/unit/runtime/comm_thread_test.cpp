// dfg::mpi::CommThread without MPI: tasks that stand for MPI operations (post, then a number of
// polls until complete), the submitting thread's view of their results, wait_until's sleep, and
// the stop (the comm thread runs on_stop, here a test's that returns).
#include "dfg/mpi/comm_thread.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

/// Completes on its `polls`-th test(); post() and test() write plain fields that the submitter
/// reads once done() (ThreadSanitizer checks the ordering).
struct CountingTask final : dfg::mpi::CommTask {
  int polls = 1;
  int seen = 0;
  int posted_as = -1;
  std::vector<int>* order = nullptr;  ///< the comm thread's posting order
  int id = 0;
  bool throw_on_post = false;

  void post() override {
    if (throw_on_post) throw std::runtime_error("MPI_Issend: injected");
    seen = 0;
    posted_as = static_cast<int>(order != nullptr ? order->size() : 0);
    if (order != nullptr) order->push_back(id);
  }
  bool test() override { return ++seen >= polls; }
};

/// Completes once `open` is set.
struct GatedTask final : dfg::mpi::CommTask {
  std::atomic<bool> open{false};
  void post() override {}
  bool test() override { return open.load(); }
};

}  // namespace

TEST_CASE("comm thread: tasks posted in submission order, results visible once done",
          "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  std::atomic<int> stops{0};
  comm.start(abort, [&] { stops.fetch_add(1); });
  CHECK(comm.running());
  std::vector<int> order;
  for (int round = 0; round < 50; ++round) {
    std::vector<CountingTask> tasks(5);
    for (int i = 0; i < 5; ++i) {
      tasks[static_cast<std::size_t>(i)].id = i;
      tasks[static_cast<std::size_t>(i)].polls = 1 + (i * 7 + round) % 13;
      tasks[static_cast<std::size_t>(i)].order = &order;
    }
    for (CountingTask& t : tasks) comm.submit(t);
    comm.wait_until(
        [&] {
          for (const CountingTask& t : tasks)
            if (!t.done()) return false;
          return true;
        },
        abort);
    for (const CountingTask& t : tasks) CHECK(t.seen == t.polls);
    REQUIRE(order.size() == 5u * static_cast<std::size_t>(round + 1));
    for (int i = 0; i < 5; ++i) CHECK(order[order.size() - 5 + static_cast<std::size_t>(i)] == i);
  }
  GatedTask again;
  comm.submit(again);
  CHECK_THROWS_AS(comm.submit(again), std::logic_error);  // still in flight
  again.open.store(true);
  comm.wait_until([&] { return again.done(); }, abort);
  comm.finish();
  CHECK_FALSE(comm.running());
  CHECK(stops.load() == 0);
  CHECK_THROWS_AS(comm.submit(again), std::logic_error);  // the thread does not run
}

TEST_CASE("comm thread: a waiter that sleeps is woken by the completion", "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  comm.start(abort, [] {});
  GatedTask gated;
  comm.submit(gated);
  std::thread opener([&] {
    std::this_thread::sleep_for(20ms);  // well past kWaitSpin: the waiter sleeps
    gated.open.store(true);
  });
  comm.wait_until([&] { return gated.done(); }, abort);
  CHECK(gated.open.load());
  opener.join();
  comm.finish();
}

TEST_CASE("comm thread: the stop reaches an idle thread and a waiter", "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  std::atomic<int> stops{0};
  comm.start(abort, [&] { stops.fetch_add(1); });
  std::this_thread::sleep_for(5ms);  // past kIdleSpin: asleep
  GatedTask never;
  comm.submit(never);
  std::thread raiser([&] {
    std::this_thread::sleep_for(10ms);
    abort.raise("node x @ A.g0", 3, "failed");
  });
  CHECK_THROWS_AS(comm.wait_until([&] { return never.done(); }, abort), dfg::Aborted);
  raiser.join();
  comm.finish();  // on_stop returned: the thread ended
  CHECK(stops.load() == 1);
}

TEST_CASE("comm thread: an operation that throws is the communication thread's error",
          "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  std::atomic<int> stops{0};
  comm.start(abort, [&] { stops.fetch_add(1); });
  CountingTask bad;
  bad.throw_on_post = true;
  comm.submit(bad);
  CHECK_THROWS_AS(comm.wait_until([&] { return bad.done(); }, abort), dfg::Aborted);
  comm.finish();
  CHECK(stops.load() == 1);
  CHECK(abort.message() == "error: the communication thread: MPI_Issend: injected");
}

namespace {

/// Spins in test() (up to a second) until `other` was polled: completes with `saw_other` set
/// only if another thread polls `other` meanwhile.
struct WaitingTask final : dfg::mpi::CommTask {
  std::atomic<bool>* other = nullptr;
  bool saw_other = false;
  void post() override {}
  bool test() override {
    const auto end = std::chrono::steady_clock::now() + 1s;
    while (!other->load() && std::chrono::steady_clock::now() < end) std::this_thread::yield();
    saw_other = other->load();
    return true;
  }
};

/// Marks itself polled and completes.
struct MarkingTask final : dfg::mpi::CommTask {
  std::atomic<bool> polled{false};
  std::thread::id on;
  void post() override {}
  bool test() override {
    on = std::this_thread::get_id();
    polled.store(true);
    return true;
  }
};

}  // namespace

TEST_CASE("comm thread: two lanes poll a receive and a send at once", "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  comm.start(abort, [] {}, 2);
  CHECK(comm.lanes() == 2);
  for (int round = 0; round < 5; ++round) {
    MarkingTask send;
    WaitingTask receive;
    receive.other = &send.polled;
    comm.submit(receive, dfg::mpi::CommThread::kReceiveLane);
    comm.submit(send, dfg::mpi::CommThread::kSendLane);
    comm.wait_until([&] { return receive.done() && send.done(); }, abort);
    CHECK(receive.saw_other);  // the send progressed while the receive's poll was busy
  }
  comm.finish();
  CHECK_FALSE(comm.running());
}

TEST_CASE("comm thread: with one lane a send runs on the receive lane's thread", "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  comm.start(abort, [] {});
  CHECK(comm.lanes() == 1);
  MarkingTask first, second;
  comm.submit(first, dfg::mpi::CommThread::kReceiveLane);
  comm.submit(second, dfg::mpi::CommThread::kSendLane);
  comm.wait_until([&] { return first.done() && second.done(); }, abort);
  CHECK(first.on == second.on);
  comm.finish();
  CHECK_THROWS_AS(comm.start(abort, [] {}, 3), std::invalid_argument);
}

TEST_CASE("comm thread: a send lane's failure ends the job on the receive lane", "[comm_thread]") {
  dfg::Abort abort;
  dfg::mpi::CommThread comm;
  std::atomic<int> stops{0};
  std::thread::id stopped_on;
  comm.start(
      abort,
      [&] {
        stopped_on = std::this_thread::get_id();
        stops.fetch_add(1);
      },
      2);
  MarkingTask receive;
  comm.submit(receive, dfg::mpi::CommThread::kReceiveLane);
  comm.wait_until([&] { return receive.done(); }, abort);
  std::this_thread::sleep_for(5ms);  // past kIdleSpin: both lanes asleep
  CountingTask bad;
  bad.throw_on_post = true;
  comm.submit(bad, dfg::mpi::CommThread::kSendLane);
  CHECK_THROWS_AS(comm.wait_until([&] { return bad.done(); }, abort), dfg::Aborted);
  comm.finish();
  CHECK(stops.load() == 1);
  CHECK(stopped_on == receive.on);  // lane 0's thread, which owns the stop
  CHECK(abort.message() == "error: the communication thread: MPI_Issend: injected");
}

TEST_CASE("comm thread: two lanes only for a rank that sends and receives large tokens",
          "[comm_thread]") {
  using dfg::mpi::kTwoLaneBytes;
  using dfg::mpi::lanes_for;
  CHECK(lanes_for({}) == 1);
  CHECK(lanes_for({kTwoLaneBytes * 4, 0}) == 1);  // receives only: the send lane would idle
  CHECK(lanes_for({0, 3}) == 1);                  // sends only
  CHECK(lanes_for({kTwoLaneBytes - 1, 1}) == 1);  // small tokens: one thread polls the library
  CHECK(lanes_for({kTwoLaneBytes, 1}) == 2);
  dfg::mpi::CommThread comm;
  CHECK(comm.wanted_lanes() == 1);
  comm.expect(true, kTwoLaneBytes / 2);  // the middle of a chain: two receives that add up
  comm.expect(false, 1);
  CHECK(comm.wanted_lanes() == 1);
  comm.expect(true, kTwoLaneBytes / 2);
  CHECK(comm.traffic().receive_bytes == kTwoLaneBytes);
  CHECK(comm.traffic().sends == 1);
  CHECK(comm.wanted_lanes() == 2);
  comm.forget(false, 1);  // its send endpoint went
  CHECK(comm.wanted_lanes() == 1);
}
