#include "dfg/fifo.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "hang_guard.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::uint64_t kStressTokens = 1'000'000;
#else
constexpr std::uint64_t kStressTokens = 4'000'000;
#endif

// A token whose every word is a function of its sequence number: a torn or stale token shows.
struct Token {
  std::uint64_t seq;
  std::array<std::uint32_t, 5> words;
};

Token make_token(std::uint64_t seq) {
  Token t{seq, {}};
  for (std::size_t k = 0; k < t.words.size(); ++k)
    t.words[k] = static_cast<std::uint32_t>(seq * 2654435761u + k);
  return t;
}

bool token_ok(const Token& t, std::uint64_t seq) {
  if (t.seq != seq) return false;
  for (std::size_t k = 0; k < t.words.size(); ++k)
    if (t.words[k] != static_cast<std::uint32_t>(seq * 2654435761u + k)) return false;
  return true;
}

}  // namespace

TEST_CASE("fifo: capacity is rounded up to a power of two", "[fifo]") {
  CHECK(dfg::Fifo<int>(1).capacity() == 1);
  CHECK(dfg::Fifo<int>(5).capacity() == 8);
  CHECK(dfg::Fifo<int>(64).capacity() == 64);
  CHECK_THROWS_AS(dfg::Fifo<int>(0), std::invalid_argument);
}

TEST_CASE("fifo: room, available, peek and release on one thread", "[fifo]") {
  dfg::Fifo<int> fifo(4);
  CHECK(fifo.room() == 4);
  CHECK(fifo.available() == 0);
  CHECK(fifo.peek(3).empty());

  auto out = fifo.reserve(6);  // asks for more than fits
  REQUIRE(out.size() == 4);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(10 + i);
  CHECK(fifo.available() == 0);  // nothing visible before the commit
  fifo.commit(3);
  CHECK(fifo.available() == 3);
  CHECK(fifo.room() == 1);

  auto in = fifo.peek(2);
  REQUIRE(in.size() == 2);
  CHECK(in[0] == 10);
  CHECK(in[1] == 11);
  CHECK(fifo.peek(5).size() == 3);  // peeking does not consume
  fifo.release(2);
  CHECK(fifo.available() == 1);
  CHECK(fifo.room() == 3);

  // The next batch wraps: positions 3..5 are slots 3, 0, 1.
  auto wrap = fifo.reserve(3);
  REQUIRE(wrap.size() == 3);
  CHECK(wrap.first_size() == 1);
  CHECK(wrap.second_size() == 2);
  const int src[3] = {20, 21, 22};
  wrap.copy_from(src);
  fifo.commit(3);
  int dst[4] = {};
  CHECK(fifo.pop_some(dst, 10) == 4);
  CHECK(dst[0] == 12);
  CHECK(dst[1] == 20);
  CHECK(dst[2] == 21);
  CHECK(dst[3] == 22);
  CHECK(fifo.available() == 0);
  CHECK(fifo.room() == 4);
}

TEST_CASE("fifo: over the caller's slots, capacity a power of two", "[fifo]") {
  std::vector<Token> slots(8);
  dfg::Fifo<Token> fifo(slots.data(), slots.size());
  CHECK(fifo.capacity() == 8);
  CHECK(fifo.slots() == slots.data());
  CHECK(fifo.try_push(make_token(0)));
  CHECK(slots[0].seq == make_token(0).seq);  // the element is in the caller's slots
  CHECK(*fifo.written_address() == 1);
  Token t{};
  CHECK(fifo.try_pop(t));
  CHECK(*fifo.read_address() == 1);
  CHECK_THROWS_AS(dfg::Fifo<Token>(slots.data(), 6), std::invalid_argument);
  CHECK_THROWS_AS(dfg::Fifo<Token>(slots.data(), 0), std::invalid_argument);
}

TEST_CASE("fifo: try_push fails when full, try_pop when empty", "[fifo]") {
  dfg::Fifo<std::uint16_t> fifo(2);
  CHECK(fifo.try_push(1));
  CHECK(fifo.try_push(2));
  CHECK_FALSE(fifo.try_push(3));
  std::uint16_t v = 0;
  CHECK(fifo.try_pop(v));
  CHECK(v == 1);
  CHECK(fifo.try_push(3));
  CHECK(fifo.try_pop(v));
  CHECK(v == 2);
  CHECK(fifo.try_pop(v));
  CHECK(v == 3);
  CHECK_FALSE(fifo.try_pop(v));
}

TEST_CASE("fifo: end of stream is seen only after the last token", "[fifo]") {
  dfg::Fifo<int> fifo(8);
  CHECK(fifo.try_push(7));
  CHECK_FALSE(fifo.drained());
  fifo.close();
  CHECK_FALSE(fifo.drained());  // one token left
  int v = 0;
  CHECK(fifo.try_pop(v));
  CHECK(v == 7);
  CHECK(fifo.drained());
}

TEST_CASE("fifo stress: two threads, random batches, order and values kept", "[fifo][stress]") {
  // The producer reserves batches of random size, writes them in random order of index, commits
  // a random prefix; the consumer peeks random batches, checks every token, releases a random
  // prefix. A missing release/acquire shows as a wrong token or a TSan report.
  // Each capacity twice: the ring's own slots, and slots the caller owns (dfg::MappedRing's).
  for (std::size_t capacity : {std::size_t{1}, std::size_t{7}, std::size_t{256}})
    for (const bool external : {false, true}) {
      INFO("capacity " << capacity << (external ? ", the caller's slots" : ""));
      dfg_test::HangGuard guard("fifo stress", dfg_test::kHangSeconds);
      std::vector<Token> slots(std::bit_ceil(capacity));
      auto ring = external ? std::make_unique<dfg::Fifo<Token>>(slots.data(), slots.size())
                           : std::make_unique<dfg::Fifo<Token>>(capacity);
      dfg::Fifo<Token>& fifo = *ring;
      const std::uint64_t total = capacity == 1 ? kStressTokens / 8 : kStressTokens;
      std::uint64_t errors = 0;
      std::uint64_t received = 0;

      std::thread producer([&] {
        std::mt19937_64 rng(capacity * 7 + 1);
        std::uint64_t next = 0;
        std::vector<Token> staging(64);
        while (next < total) {
          const std::size_t want = 1 + rng() % 64;
          if (rng() % 4 == 0) {  // the copying path
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(want, total - next));
            for (std::size_t i = 0; i < n; ++i) staging[i] = make_token(next + i);
            next += fifo.push_some(staging.data(), n);
          } else {  // reserve, write, commit part of it
            auto out = fifo.reserve(want);
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), total - next));
            for (std::size_t i = n; i-- > 0;) out[i] = make_token(next + i);
            const std::size_t k = n == 0 ? 0 : 1 + rng() % n;
            fifo.commit(k);
            next += k;
          }
          if (rng() % 16 == 0) std::this_thread::yield();
        }
        fifo.close();
      });

      std::mt19937_64 rng(capacity * 13 + 5);
      std::vector<Token> sink(64);
      while (!fifo.drained()) {
        const std::size_t want = 1 + rng() % 64;
        if (rng() % 4 == 0) {
          const std::size_t n = fifo.pop_some(sink.data(), want);
          for (std::size_t i = 0; i < n; ++i) errors += token_ok(sink[i], received + i) ? 0 : 1;
          received += n;
        } else {
          auto in = fifo.peek(want);
          for (std::size_t i = 0; i < in.size(); ++i)
            errors += token_ok(in[i], received + i) ? 0 : 1;
          const std::size_t k = in.empty() ? 0 : 1 + rng() % in.size();
          fifo.release(k);
          received += k;
        }
        if (rng() % 16 == 0) std::this_thread::yield();
      }
      producer.join();
      CHECK(errors == 0);
      CHECK(received == total);
    }
}

TEST_CASE("fifo: initial tokens come out first, then what is pushed", "[fifo]") {
  dfg::Fifo<std::int32_t> f(5, 3, -1);  // capacity 8, three -1 before the stream
  CHECK(f.available() == 3);
  CHECK(f.room() == 5);
  REQUIRE(f.try_push(7));
  std::int32_t v = 0;
  for (std::int32_t want : {-1, -1, -1, 7}) {
    REQUIRE(f.try_pop(v));
    CHECK(v == want);
  }
  CHECK_FALSE(f.try_pop(v));
}

TEST_CASE("fifo: more initial tokens than the capacity are refused", "[fifo]") {
  CHECK_THROWS_AS(dfg::Fifo<std::int32_t>(4, 5, 0), std::invalid_argument);
  dfg::Fifo<std::int32_t> f(4, 4, 2);  // exactly full
  CHECK(f.room() == 0);
  CHECK(f.available() == 4);
}
