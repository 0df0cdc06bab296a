// dfg::Island: a run-length decoder as a dynamic actor between the two adapters, every output
// token compared with the reference decoder, over rings small enough that every iteration takes
// many rounds and tokens wait in the rings across iterations; and the three errors, each with its
// iteration.
#include "dfg/island.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace {

/// Run-length decoding, (count, value) pairs in, bytes out. Two actions, each with its guard:
/// `read` (no run pending, a whole pair available) and `emit` (a run pending, room downstream;
/// it fires on as many bytes as there is room for). step() selects the one whose guard holds.
struct Expand {
  dfg::Fifo<std::uint8_t>& in;
  dfg::Fifo<std::uint8_t>& out;
  std::uint8_t value = 0;
  std::size_t left = 0;  // the state: bytes of the current run still to emit

  bool step() {
    if (left > 0) {  // emit
      auto batch = out.reserve(left);
      if (batch.size() == 0) return false;
      for (std::size_t i = 0; i < batch.size(); ++i) batch[i] = value;
      out.commit(batch.size());
      left -= batch.size();
      return true;
    }
    auto pair = in.peek(2);  // read
    if (pair.size() < 2) return false;
    left = pair[0];
    value = pair[1];
    in.release(2);
    return true;
  }
};

constexpr std::size_t kCoded = 16;  // 8 pairs per static input token
constexpr std::size_t kBlock = 64;  // bytes per static output token

/// A coded token: 8 runs of 1 to 15 bytes summing to 64 (plus `extra` on the last run).
std::array<std::uint8_t, kCoded> coded(std::mt19937& rng, int extra = 0) {
  std::array<int, kCoded / 2> runs{};
  runs.fill(static_cast<int>(kBlock / runs.size()));
  for (int k = 0; k < 20; ++k) {  // move bytes between runs, keeping each in [1, 15]
    const std::size_t from = rng() % runs.size(), to = rng() % runs.size();
    const int n = static_cast<int>(rng() % 4);
    if (runs[from] - n >= 1 && runs[to] + n <= 15) runs[from] -= n, runs[to] += n;
  }
  runs.back() += extra;
  std::array<std::uint8_t, kCoded> t{};
  for (std::size_t p = 0; p < runs.size(); ++p) {
    t[2 * p] = static_cast<std::uint8_t>(runs[p]);
    t[2 * p + 1] = static_cast<std::uint8_t>(rng());
  }
  return t;
}

std::vector<std::uint8_t> reference(const std::array<std::uint8_t, kCoded>& t) {
  std::vector<std::uint8_t> out;
  for (std::size_t p = 0; p < kCoded; p += 2) out.insert(out.end(), t[p], t[p + 1]);
  return out;
}

struct Decoder {
  dfg::Fifo<std::uint8_t> coded{4};  // smaller than a token: the adapters run in many rounds
  dfg::Fifo<std::uint8_t> bytes{8};
  dfg::Unpack<std::uint8_t> in{coded, "coded"};
  Expand expand{coded, bytes};
  dfg::Pack<std::uint8_t> out{bytes, kBlock, "block"};
  dfg::Island island{"decoder"};

  Decoder() {
    island.add(in, "coded");
    island.add(expand, "expand");
    island.add(out, "block");
  }
  void fire(std::int64_t j, const std::uint8_t* token, std::uint8_t* block) {
    in.load(token, kCoded);
    out.begin(block);
    island.run(j);
    in.finish(island.name(), j);
    out.finish(island.name(), j);
  }
};

}  // namespace

TEST_CASE("island: a run-length decoder, every block against the reference", "[island]") {
  std::mt19937 rng(7);
  Decoder d;
  for (std::int64_t j = 0; j < 2000; ++j) {
    const auto token = coded(rng);
    std::array<std::uint8_t, kBlock> block{};
    d.fire(j, token.data(), block.data());
    REQUIRE(std::vector<std::uint8_t>(block.begin(), block.end()) == reference(token));
  }
  CHECK(d.island.total_firings() > 2000 * 8);
}

TEST_CASE("island: an iteration that produces no token is an error naming it", "[island]") {
  std::mt19937 rng(11);
  Decoder d;
  std::array<std::uint8_t, kBlock> block{};
  for (std::int64_t j = 0; j < 3; ++j) d.fire(j, coded(rng).data(), block.data());
  const auto short_token = coded(rng, -4);  // codes 60 bytes
  CHECK_THROWS_MATCHES(
      d.fire(3, short_token.data(), block.data()), dfg::IslandError,
      Catch::Message("island decoder: output 'block' produced 60 of 64 elements in iteration 3: "
                     "no token for this iteration"));
}

TEST_CASE("island: an input the island cannot take is an error naming the iteration", "[island]") {
  dfg::Fifo<std::uint8_t> ring(4);
  dfg::Unpack<std::uint8_t> in(ring, "coded");
  dfg::Island island("sink");
  island.add(in, "coded");
  const std::array<std::uint8_t, kCoded> token{};
  in.load(token.data(), token.size());
  island.run(9);
  CHECK_THROWS_MATCHES(
      in.finish(island.name(), 9), dfg::IslandError,
      Catch::Message("island sink: input 'coded' took 4 of 16 elements in iteration 9; the island "
                     "is stuck"));
}

TEST_CASE("island: an actor that never stops firing is an error", "[island]") {
  struct Spin {
    bool step() { return true; }
  } spin;
  dfg::Island island("loop", 1000);
  island.add(spin, "spin");
  CHECK_THROWS_MATCHES(
      island.run(4), dfg::IslandError,
      Catch::Message("island loop: actor spin still fires after 1000 firings in iteration 4; the "
                     "island does not quiesce"));
}

TEST_CASE("island: a bounded output takes all the iteration produced, its count the length",
          "[island]") {
  std::mt19937 rng(13);
  dfg::Fifo<std::uint8_t> pairs(4), bytes(8);
  dfg::Unpack<std::uint8_t> in(pairs, "coded");
  Expand expand{pairs, bytes};
  dfg::PackBounded<std::uint8_t> out(bytes, "block");
  dfg::Island island("decoder");
  island.add(in, "coded");
  island.add(expand, "expand");
  island.add(out, "block");
  std::array<std::uint8_t, 2 * kBlock> block{};
  for (std::int64_t j = 0; j < 500; ++j) {
    const auto token = coded(rng, static_cast<int>(j % 9) * 4);  // 64, 68, ... 96 bytes
    in.load(token.data(), token.size());
    out.begin(block.data(), block.size());
    island.run(j);
    in.finish(island.name(), j);
    const std::size_t length = out.finish(island.name(), j);
    REQUIRE(std::vector<std::uint8_t>(block.begin(), block.begin() + static_cast<long>(length)) ==
            reference(token));
  }
}

TEST_CASE("island: a bounded output given more than its capacity is an error naming the iteration",
          "[island]") {
  dfg::Fifo<std::uint8_t> ring(8);
  dfg::PackBounded<std::uint8_t> out(ring, "block");
  dfg::Island island("source");
  island.add(out, "block");
  std::array<std::uint8_t, 4> token{};
  const std::array<std::uint8_t, 3> three{1, 2, 3};
  ring.push_some(three.data(), three.size());
  out.begin(token.data(), token.size());
  island.run(1);
  CHECK(out.finish(island.name(), 1) == 3);
  const std::array<std::uint8_t, 6> six{1, 2, 3, 4, 5, 6};
  ring.push_some(six.data(), six.size());
  out.begin(token.data(), token.size());
  island.run(2);
  CHECK_THROWS_MATCHES(out.finish(island.name(), 2), dfg::IslandError,
                       Catch::Message("island source: output 'block' produced more than the "
                                      "token's capacity of 4 elements in iteration 2"));
}
