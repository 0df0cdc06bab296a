#include "dfg/abort.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

struct CountingListener final : dfg::AbortListener {
  std::atomic<int> calls{0};
  void on_abort() noexcept override { calls.fetch_add(1, std::memory_order_relaxed); }
};

}  // namespace

TEST_CASE("abort: the first error wins and formats the message", "[abort]") {
  dfg::Abort abort;
  CHECK_FALSE(abort.stopped());
  CHECK(abort.message().empty());
  CHECK(abort.iteration() == -1);
  std::ostringstream none;
  CHECK(abort.report(none) == 0);
  CHECK(none.str().empty());

  CHECK(abort.raise("node i1 (Inc) @ A.g0", 17, "out of range"));
  CHECK_FALSE(abort.raise("node i2 (Inc) @ B.g0", 3, "later"));
  CHECK(abort.stopped());
  CHECK(abort.who() == "node i1 (Inc) @ A.g0");
  CHECK(abort.what() == "out of range");
  CHECK(abort.iteration() == 17);
  CHECK(abort.message() == "error: node i1 (Inc) @ A.g0, iteration 17: out of range");
  std::ostringstream out;
  CHECK(abort.report(out) == 1);
  CHECK(out.str() == "error: node i1 (Inc) @ A.g0, iteration 17: out of range\n");
  std::ostringstream again;
  CHECK(abort.report(again) == 1);  // printed once per process
  CHECK(again.str().empty());
  CHECK_THROWS_AS(abort.throw_if_stopped(), dfg::Aborted);
}

TEST_CASE("abort: messages without a who or an iteration", "[abort]") {
  dfg::Abort a;
  a.raise("buffer i1.b@A.g0", -1, "cannot allocate 16 MiB");
  CHECK(a.message() == "error: buffer i1.b@A.g0: cannot allocate 16 MiB");
  dfg::Abort b;
  b.raise("", -1, "no GPU");
  CHECK(b.message() == "error: no GPU");
  dfg::Abort c;
  c.raise("", 4, "bad token");
  CHECK(c.message() == "error: iteration 4: bad token");
}

TEST_CASE("abort: over-long parts are truncated, not allocated", "[abort]") {
  dfg::Abort a;
  a.raise(std::string(1000, 'w'), 1, std::string(5000, 'x'));
  CHECK(a.who().size() == dfg::Abort::kWhoCapacity - 1);
  CHECK(a.what().size() == dfg::Abort::kWhatCapacity - 1);
}

TEST_CASE("abort: listeners are called once, late subscribers at once", "[abort]") {
  dfg::Abort abort;
  CountingListener a, b, late;
  abort.subscribe(a);
  abort.subscribe(b);
  abort.unsubscribe(b);
  abort.raise("x", 0, "y");
  abort.raise("x", 0, "again");
  CHECK(a.calls.load() == 1);
  CHECK(b.calls.load() == 0);
  abort.subscribe(late);
  CHECK(late.calls.load() == 1);
  abort.unsubscribe(late);
  abort.unsubscribe(a);
}

TEST_CASE("abort stress: concurrent reporters elect exactly one", "[abort][stress]") {
  for (int round = 0; round < 200; ++round) {
    dfg::Abort abort;
    CountingListener l;
    abort.subscribe(l);
    std::atomic<int> winners{0};
    std::vector<std::string> seen(4), expected(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        if (abort.raise("thread " + std::to_string(t), t, "failure " + std::to_string(t)))
          winners.fetch_add(1);
        // Whoever won, the record is complete when raise() returns.
        const std::size_t i = static_cast<std::size_t>(t);
        seen[i] = abort.message();
        const std::string who(abort.who());
        expected[i] =
            "error: " + who + ", iteration " + who.substr(7) + ": failure " + who.substr(7);
      });
    }
    for (auto& th : threads) th.join();
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == expected[i]);
    CHECK(winners.load() == 1);
    CHECK(l.calls.load() == 1);
    abort.unsubscribe(l);
  }
}
