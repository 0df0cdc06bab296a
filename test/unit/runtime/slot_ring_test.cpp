#include "dfg/slot_ring.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "hang_guard.hpp"

namespace {

constexpr int kWords = 8;
using Token = std::array<std::uint64_t, kWords>;

std::uint64_t word(std::int64_t k, int w) {
  return static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(w) * 0x632BE59BD9B4E019ULL + 1;
}

struct ReaderResult {
  std::uint64_t checksum = 0;
  std::int64_t tokens = 0;
  std::int64_t bad = 0;        // tokens whose words were not those of their iteration
  std::int64_t first_bad = -1;
};

// One writer, `readers` readers, `n` iterations over a ring of `depth` plain-memory slots.
// Every reader checks every word of every token; the checksums compare what was written with
// what each reader saw. The data is plain memory: ThreadSanitizer checks the ring's ordering.
void stress(int depth, int readers, std::int64_t n) {
  dfg_test::HangGuard guard("slot ring depth " + std::to_string(depth) + ", " + std::to_string(readers) + " readers",
                            dfg_test::kHangSeconds);
  dfg::Abort abort;
  dfg::SlotRing ring(depth, readers, abort);
  std::vector<Token> slots(static_cast<std::size_t>(depth));
  std::vector<ReaderResult> results(static_cast<std::size_t>(readers));
  std::uint64_t written = 0;

  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    for (std::int64_t k = 0; k < n; ++k) {
      ring.wait_writable(k);
      Token& t = slots[ring.slot(k)];
      for (int w = 0; w < kWords; ++w) t[static_cast<std::size_t>(w)] = word(k, w);
      written += word(k, 0) ^ word(k, kWords - 1);
      ring.publish(k);
      if (k % 251 == 0) std::this_thread::yield();
    }
  });
  for (int r = 0; r < readers; ++r) {
    threads.emplace_back([&, r] {
      ReaderResult& res = results[static_cast<std::size_t>(r)];
      for (std::int64_t k = 0; k < n; ++k) {
        ring.wait_readable(r, k);
        const Token& t = slots[ring.slot(k)];
        bool ok = true;
        for (int w = 0; w < kWords; ++w) ok = ok && t[static_cast<std::size_t>(w)] == word(k, w);
        if (!ok) {
          if (res.first_bad < 0) res.first_bad = k;
          ++res.bad;
        }
        res.checksum += t[0] ^ t[kWords - 1];
        ++res.tokens;
        ring.release(r, k);
        if (k % (97 + 10 * r) == 0) std::this_thread::yield();
      }
    });
  }
  for (auto& t : threads) t.join();

  for (int r = 0; r < readers; ++r) {
    INFO("reader " << r);
    const ReaderResult& res = results[static_cast<std::size_t>(r)];
    CHECK(res.bad == 0);
    CHECK(res.first_bad == -1);
    CHECK(res.tokens == n);
    CHECK(res.checksum == written);
  }
  CHECK(ring.published_approx() == n - 1);
  CHECK_FALSE(abort.stopped());
}

constexpr std::int64_t kIterations = 100'000;

}  // namespace

TEST_CASE("slot ring: slots and initial state", "[slot_ring]") {
  dfg::Abort abort;
  dfg::SlotRing ring(2, 3, abort);
  CHECK(ring.depth() == 2);
  CHECK(ring.readers() == 3);
  CHECK(ring.slot(0) == 0);
  CHECK(ring.slot(1) == 1);
  CHECK(ring.slot(7) == 1);
  CHECK(ring.published_approx() == -1);
  CHECK(ring.released_approx(2) == -1);
  CHECK_THROWS_AS(dfg::SlotRing(0, 1, abort), std::invalid_argument);
  CHECK_THROWS_AS(dfg::SlotRing(1, 0, abort), std::invalid_argument);
}

TEST_CASE("slot ring: single thread walks through depth slots without blocking", "[slot_ring]") {
  dfg::Abort abort;
  dfg::SlotRing ring(2, 1, abort);
  ring.wait_writable(0);  // the first `depth` iterations never wait
  ring.publish(0);
  ring.wait_writable(1);
  ring.publish(1);
  ring.wait_readable(0, 1);  // already published
  ring.release(0, 0);
  ring.wait_writable(2);  // slot 0 released
  ring.publish(2);
  CHECK(ring.published_approx() == 2);
  CHECK(ring.released_approx(0) == 0);
}

TEST_CASE("slot ring: a reader that skips iterations releases them without reading", "[slot_ring]") {
  dfg::Abort abort;
  dfg::SlotRing ring(1, 2, abort);
  // Reader 1 is switched off for iterations 0..9: it releases them up front.
  ring.release(1, 9);
  for (std::int64_t k = 0; k < 10; ++k) {
    ring.wait_writable(k);
    ring.publish(k);
    ring.wait_readable(0, k);
    ring.release(0, k);
  }
  CHECK(ring.published_approx() == 9);
}

TEST_CASE("slot ring stress: 1 writer, 1-3 readers, depth 1 and 2", "[slot_ring][stress]") {
  for (int depth : {1, 2}) {
    for (int readers : {1, 2, 3}) {
      INFO("depth " << depth << ", readers " << readers);
      stress(depth, readers, kIterations);
    }
  }
}

TEST_CASE("slot ring stress: a delay line of depth 3", "[slot_ring][stress]") {
  stress(3, 2, kIterations / 4);
}

TEST_CASE("slot ring: waits throw Aborted promptly once the stop is raised", "[slot_ring][abort]") {
  dfg_test::HangGuard guard("slot ring abort", dfg_test::kHangSeconds);
  dfg::Abort abort;
  dfg::SlotRing ring(1, 2, abort);
  std::atomic<int> aborted{0};
  ring.wait_writable(0);
  ring.publish(0);
  // The writer waits for iteration 0's release, which never comes; reader 0 waits for 1.
  std::thread writer([&] {
    try {
      ring.wait_writable(1);
    } catch (const dfg::Aborted&) {
      aborted.fetch_add(1);
    }
  });
  std::thread reader([&] {
    try {
      ring.wait_readable(0, 1);
    } catch (const dfg::Aborted&) {
      aborted.fetch_add(1);
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(abort.raise("node x", 3, "boom"));
  writer.join();
  reader.join();
  CHECK(aborted.load() == 2);
  // Later waits throw at once, even those that would not block.
  CHECK_THROWS_AS(ring.wait_readable(1, 0), dfg::Aborted);
}
