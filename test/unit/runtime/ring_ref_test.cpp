// dfg::RingRef, the handle of the GPU rings (dfg/cuda/mapped_fifo.hpp), driven by two host threads
// over ordinary memory: the counters' release/acquire protocol under ThreadSanitizer, without a
// GPU. Built only where the CUDA toolkit's headers are installed (it needs <cuda/atomic>).
#include "dfg/cuda/mapped_fifo.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "hang_guard.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::uint64_t kTokens = 1'000'000;
#else
constexpr std::uint64_t kTokens = 4'000'000;
#endif

struct Tok {
  std::uint64_t seq;
  std::uint64_t check;
};

// A ring of `capacity` tokens over host memory, laid out as MappedFifo lays it out.
class HostRing {
 public:
  explicit HostRing(std::size_t capacity)
      : capacity_(dfg::detail::ring_capacity(capacity)),
        memory_(dfg::detail::kRingHeader + capacity_ * sizeof(Tok) + 256) {
    const auto raw = reinterpret_cast<std::uintptr_t>(memory_.data());
    base_ = memory_.data() + ((raw + 255) / 256 * 256 - raw);
  }
  dfg::RingRef<Tok, cuda::thread_scope_system> ref() {
    auto* counters = new (base_) dfg::detail::RingCounters{};
    return {counters, reinterpret_cast<Tok*>(base_ + dfg::detail::kRingHeader), capacity_};
  }

 private:
  std::size_t capacity_;
  std::vector<std::byte> memory_;
  std::byte* base_ = nullptr;
};

}  // namespace

TEST_CASE("ring ref: reserve, commit, peek, release, end of stream", "[fifo][ring_ref]") {
  HostRing memory(3);
  const auto ring = memory.ref();
  CHECK(ring.capacity() == 4);
  CHECK(ring.room() == 4);
  auto out = ring.reserve(9);
  REQUIRE(out.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) out[i] = Tok{i, ~i};
  CHECK(ring.available() == 0);
  ring.commit(4);
  CHECK(ring.available() == 4);
  CHECK(ring.reserve(1).empty());
  auto in = ring.peek(3);
  REQUIRE(in.size() == 3);
  CHECK(in[2].seq == 2);
  ring.release(3);
  ring.close();
  CHECK_FALSE(ring.drained());
  CHECK(ring.peek(5).size() == 1);
  ring.release(1);
  CHECK(ring.drained());
}

TEST_CASE("ring ref stress: two threads, random batches, order and values kept",
          "[fifo][ring_ref][stress]") {
  for (std::size_t capacity : {std::size_t{1}, std::size_t{64}}) {
    INFO("capacity " << capacity);
    dfg_test::HangGuard guard("ring ref stress", dfg_test::kHangSeconds);
    HostRing memory(capacity);
    const auto ring = memory.ref();
    const std::uint64_t total = capacity == 1 ? kTokens / 8 : kTokens;
    std::thread producer([&] {
      std::mt19937_64 rng(capacity);
      std::uint64_t next = 0;
      while (next < total) {
        const auto out = ring.reserve(1 + rng() % 50);
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), total - next));
        for (std::size_t i = 0; i < n; ++i) out[i] = Tok{next + i, ~(next + i)};
        ring.commit(n);
        next += n;
      }
      ring.close();
    });
    std::mt19937_64 rng(capacity + 1);
    std::uint64_t received = 0, errors = 0;
    while (!ring.drained()) {
      const auto in = ring.peek(1 + rng() % 50);
      for (std::size_t i = 0; i < in.size(); ++i)
        errors += in[i].seq == received + i && in[i].check == ~(received + i) ? 0 : 1;
      ring.release(in.size());
      received += in.size();
    }
    producer.join();
    CHECK(errors == 0);
    CHECK(received == total);
  }
}
