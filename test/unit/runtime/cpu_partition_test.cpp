// dfg::CpuPartition: actors on two threads joined by dfg::Fifo rings, run to the end of stream;
// stop() for a partition whose input never ends. Also under ThreadSanitizer (test_runtime_tsan).
#include "dfg/cpu_partition.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

#include "dfg/fifo.hpp"
#include "hang_guard.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::uint64_t kTokens = 200'000;
#else
constexpr std::uint64_t kTokens = 1'000'000;
#endif

// Emits 0, 1, ..., total - 1 in batches of random size, then ends.
struct Source {
  dfg::Fifo<std::uint64_t>& out;
  std::uint64_t total;
  std::uint64_t next = 0;
  std::mt19937_64 rng{3};
  bool step() {
    if (next == total) return false;
    const auto slots = out.reserve(1 + rng() % 64);
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(slots.size(), total - next));
    for (std::size_t i = 0; i < n; ++i) slots[i] = next + i;
    out.commit(n);
    next += n;
    return n != 0;
  }
  bool done() const { return next == total; }
  void close() { out.close(); }
};

// Two tokens in, one out: their sum.
struct Pairs {
  dfg::Fifo<std::uint64_t>& in;
  dfg::Fifo<std::uint64_t>& out;
  bool step() {
    const auto got = in.peek(2);
    if (got.size() < 2 || out.room() == 0) return false;
    const auto slot = out.reserve(1);
    slot[0] = got[0] + got[1];
    out.commit(1);
    in.release(2);
    return true;
  }
  bool done() { return in.drained(); }
  void close() { out.close(); }
};

struct Check {
  dfg::Fifo<std::uint64_t>& in;
  std::uint64_t count = 0;
  std::uint64_t wrong = 0;
  bool step() {
    const auto got = in.peek(100);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::uint64_t k = count + i;
      wrong += got[i] == 4 * k + 1 ? 0 : 1;
    }
    in.release(got.size());
    count += got.size();
    return !got.empty();
  }
  bool done() { return in.drained(); }
  void close() {}
};

}  // namespace

TEST_CASE("cpu partition: two threads run a network to the end of stream",
          "[island][cpu_partition][stress]") {
  dfg_test::HangGuard guard("cpu partition", dfg_test::kHangSeconds);
  dfg::Fifo<std::uint64_t> numbers(16), sums(8);
  Source source{numbers, 2 * kTokens};
  Pairs pairs{numbers, sums};
  Check check{sums};
  dfg::CpuPartition first("first"), second("second");
  first.add(source, "source");
  second.add(pairs, "pairs");
  second.add(check, "check");
  std::thread other([&] { first.run(); });
  const std::uint64_t firings = second.run();
  other.join();
  CHECK(check.count == kTokens);
  CHECK(check.wrong == 0);
  CHECK(second.firings(0) == kTokens);
  CHECK(firings == second.firings(0) + second.firings(1));
  CHECK(numbers.drained());
  CHECK(sums.drained());
}

TEST_CASE("cpu partition: stop() ends a partition whose input never ends",
          "[island][cpu_partition]") {
  dfg_test::HangGuard guard("cpu partition stop", dfg_test::kHangSeconds);
  dfg::Fifo<std::uint64_t> numbers(16), sums(8);
  Pairs pairs{numbers, sums};
  dfg::CpuPartition partition("waiting");
  partition.add(pairs, "pairs");
  numbers.push_some(std::array<std::uint64_t, 3>{1, 2, 3}.data(), 3);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    partition.stop();
  });
  CHECK_THROWS_WITH(partition.run(),
                    "cpu partition waiting: stopped before the end of stream of pairs");
  stopper.join();
  CHECK(sums.available() == 1);
  CHECK(numbers.available() == 1);
}
