// dfg/cuda/parallel_firing.hpp on the host: the number of firings that fit (fit_firings), the
// windows of each firing over rings that wrap, and fire_serial between two threads under
// ThreadSanitizer. Needs the CUDA toolkit's headers (<cuda/atomic>), neither a GPU nor cudart.
#include "dfg/cuda/parallel_firing.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>
#include <vector>

#include "hang_guard.hpp"
#include "host_ring.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::uint64_t kGroups = 100'000;
#else
constexpr std::uint64_t kGroups = 1'000'000;
#endif

using Ring = dfg::RingRef<std::uint32_t, cuda::thread_scope_system>;

using HostRing = dfg_test::HostRing<std::uint32_t>;

struct Widen {  // three words in, two out
  void operator()(std::size_t, dfg::RingSpan<const std::uint32_t> in,
                  dfg::RingSpan<std::uint32_t> out) const {
    out[0] = in[0] + in[1];
    out[1] = in[1] ^ in[2];
  }
};

std::uint32_t word(std::uint64_t k) {
  return static_cast<std::uint32_t>(k * 2654435761u) ^ 0x5bd1e995u;
}

}  // namespace

TEST_CASE("fit_firings: tokens over rate on every port, at most max_n", "[parallel_firing]") {
  STATIC_REQUIRE(dfg::fit_firings(512) == 512);
  STATIC_REQUIRE(dfg::fit_firings(512, dfg::PortBudget{640, 64}) == 10);
  STATIC_REQUIRE(dfg::fit_firings(8, dfg::PortBudget{640, 64}) == 8);
  STATIC_REQUIRE(dfg::fit_firings(512, dfg::PortBudget{640, 64}, dfg::PortBudget{200, 64}) == 3);
  STATIC_REQUIRE(dfg::fit_firings(512, dfg::PortBudget{63, 64}, dfg::PortBudget{4096, 64}) == 0);
  STATIC_REQUIRE(dfg::fit_firings(512, dfg::PortBudget{0, 0}, dfg::PortBudget{7, 2}) == 3);
  STATIC_REQUIRE(dfg::fit_firings(0, dfg::PortBudget{100, 1}) == 0);
}

TEST_CASE("ring windows: slots_at, tokens_at and sub address positions modulo the capacity",
          "[parallel_firing]") {
  HostRing memory(8);
  const Ring ring = memory.ref();
  for (std::uint32_t k = 0; k < 8; ++k) ring.slots_at(k, 1)[0] = 100 + k;
  const auto wrapped = ring.tokens_at(6, 5);  // positions 6, 7, 8 = slot 0, 9, 10
  CHECK(wrapped.size() == 5);
  CHECK(wrapped[0] == 106);
  CHECK(wrapped[1] == 107);
  CHECK(wrapped[2] == 100);
  CHECK(wrapped[4] == 102);
  CHECK(wrapped.first_size() == 2);
  CHECK(wrapped.second_size() == 3);
  const auto window = wrapped.sub(1, 3);
  CHECK(window.start() == 7);
  CHECK(window.size() == 3);
  CHECK(window[1] == 100);
  const auto far = ring.tokens_at((std::uint64_t{1} << 40) + 3,
                                  2);  // positions only grow: far past the first lap
  CHECK(far[0] == 103);
  CHECK(far[1] == 104);
  // The counters are untouched: nothing was committed or released.
  CHECK(ring.available() == 0);
  CHECK(ring.room() == 8);
}

TEST_CASE("fire_serial: n from tokens and room, windows in FIFO order across the wrap",
          "[parallel_firing]") {
  HostRing in_memory(8), out_memory(8);
  const Ring in = in_memory.ref(), out = out_memory.ref();
  std::uint64_t fed = 0, taken = 0;
  std::vector<std::uint32_t> got;
  for (int round = 0; round < 50; ++round) {
    const auto slots = in.reserve(7);  // 7 words: two firings and a third of one
    for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = word(fed + i);
    in.commit(slots.size());
    fed += slots.size();
    const std::size_t before = in.available();
    const std::size_t room = out.room();
    const std::size_t n = dfg::fire_serial(100, Widen{}, dfg::consume(in, 3), dfg::produce(out, 2));
    CHECK(n == dfg::fit_firings(100, dfg::PortBudget{before, 3}, dfg::PortBudget{room, 2}));
    CHECK(in.available() == before - 3 * n);
    const auto result = out.peek(8);
    for (std::size_t i = 0; i < result.size(); ++i) got.push_back(result[i]);
    out.release(result.size());
    taken += n;
  }
  REQUIRE(got.size() == 2 * taken);
  for (std::uint64_t g = 0; g < taken; ++g) {
    CHECK(got[2 * g] == word(3 * g) + word(3 * g + 1));
    CHECK(got[2 * g + 1] == (word(3 * g + 1) ^ word(3 * g + 2)));
  }
  CHECK(taken > 40);
}

TEST_CASE("fire_serial stress: producer, firing and consumer threads keep order and values",
          "[parallel_firing][stress]") {
  dfg_test::HangGuard guard("fire_serial stress", dfg_test::kHangSeconds);
  HostRing a_memory(64), b_memory(32);
  const Ring a = a_memory.ref(), b = b_memory.ref();
  std::thread producer([&] {
    std::uint64_t next = 0;
    while (next < 3 * kGroups) {
      const auto slots = a.reserve(1 + next % 37);
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(slots.size(), 3 * kGroups - next));
      for (std::size_t i = 0; i < n; ++i) slots[i] = word(next + i);
      a.commit(n);
      next += n;
      if (n == 0) std::this_thread::yield();  // three spinning threads may share fewer cores
    }
    a.close();
  });
  std::thread firing([&] {
    while (!a.drained()) {
      if (dfg::fire_serial(1 + a.available() % 13, Widen{}, dfg::consume(a, 3),
                           dfg::produce(b, 2)) == 0)
        std::this_thread::yield();
    }
    b.close();
  });
  std::uint64_t received = 0, wrong = 0;
  while (!b.drained()) {
    const auto got = b.peek(50);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::uint64_t k = received + i, g = k / 2;
      const std::uint32_t want =
          k % 2 == 0 ? word(3 * g) + word(3 * g + 1) : word(3 * g + 1) ^ word(3 * g + 2);
      wrong += got[i] == want ? 0 : 1;
    }
    b.release(got.size());
    received += got.size();
    if (got.empty()) std::this_thread::yield();
  }
  producer.join();
  firing.join();
  CHECK(received == 2 * kGroups);
  CHECK(wrong == 0);
}
