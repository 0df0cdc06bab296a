// dfg::In and dfg::Out: a delay, a multiplier and an adder written as spec-declared dynamic
// actors (step on In/Out views) run by dfg::Island, every output compared with the sequential
// filter; and the two views on one ring driven by two threads (run under TSan too).
#include "dfg/ports.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <tuple>
#include <vector>

#include "dfg/island.hpp"

namespace {

struct Delay {
  int previous = 0;
  bool step(dfg::In<int> x, dfg::Out<int> y, dfg::Out<int> next) {
    if (x.available() < 1 || y.room() < 1 || next.room() < 1) return false;
    y.push(previous);
    next.push(previous);
    previous = x.pop();
    return true;
  }
};

struct Scale {
  int coef = 1;
  bool step(dfg::In<int> x, dfg::Out<int> y) {
    std::size_t n = std::min(x.available(), y.room());
    if (n == 0) return false;
    auto in = x.peek(n);
    auto out = y.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = coef * in[i];
    y.commit(n);
    x.release(n);
    return true;
  }
};

struct Add {
  bool step(dfg::In<int> a, dfg::In<int> b, dfg::Out<int> s) {
    if (a.available() < 1 || b.available() < 1 || s.room() < 1) return false;
    s.push(a.pop() + b.pop());
    return true;
  }
};

template <class A, class... Views>
struct Stepper {
  A& actor;
  std::tuple<Views...> views;
  bool step() {
    return std::apply([this](auto... v) { return actor.step(v...); }, views);
  }
};

}  // namespace

TEST_CASE("ports: y[t] = 2 x[t] + 3 x[t-1] through In/Out views in an island", "[runtime][ports]") {
  constexpr std::size_t kBlock = 32;
  dfg::Fifo<int> x0(kBlock), x1(kBlock), d(3), next(1), m0(2), m1(5), y(kBlock);
  Delay delay;
  Scale s0{2}, s1{3};
  Add add;
  dfg::Unpack<int> in0(x0, "x0"), in1(x1, "x1");
  dfg::Pack<int> out(y, kBlock, "y");
  Stepper<Delay, dfg::In<int>, dfg::Out<int>, dfg::Out<int>> sd{
      delay, {dfg::In<int>(x1), dfg::Out<int>(d), dfg::Out<int>(next)}};
  Stepper<Scale, dfg::In<int>, dfg::Out<int>> ss0{s0, {dfg::In<int>(x0), dfg::Out<int>(m0)}};
  Stepper<Scale, dfg::In<int>, dfg::Out<int>> ss1{s1, {dfg::In<int>(d), dfg::Out<int>(m1)}};
  Stepper<Add, dfg::In<int>, dfg::In<int>, dfg::Out<int>> sa{
      add, {dfg::In<int>(m0), dfg::In<int>(m1), dfg::Out<int>(y)}};
  // `next` has no reader: drain it as the island's last member.
  struct Drain {
    dfg::Fifo<int>& f;
    bool step() {
      int v;
      return f.try_pop(v);
    }
  } drain{next};
  dfg::Island island("fir");
  island.add(in0, "x0");
  island.add(in1, "x1");
  island.add(sd, "delay");
  island.add(ss0, "s0");
  island.add(ss1, "s1");
  island.add(sa, "add");
  island.add(drain, "drain");
  island.add(out, "y");
  std::vector<int> token(kBlock), result(kBlock);
  int previous = 0;
  for (std::int64_t j = 0; j < 200; ++j) {
    for (std::size_t i = 0; i < kBlock; ++i)
      token[i] = static_cast<int>(j * 7 + static_cast<std::int64_t>(i) * 13 % 101);
    in0.load(token.data(), kBlock);
    in1.load(token.data(), kBlock);
    out.begin(result.data());
    island.run(j);
    in0.finish("fir", j);
    in1.finish("fir", j);
    out.finish("fir", j);
    for (std::size_t i = 0; i < kBlock; ++i) {
      REQUIRE(result[i] == 2 * token[i] + 3 * previous);
      previous = token[i];
    }
  }
}

TEST_CASE("ports: an Out and an In on two threads pass every element in order",
          "[runtime][ports]") {
  dfg::Fifo<std::uint64_t> ring(16);
  constexpr std::uint64_t kCount = 200000;
  std::thread producer([&] {
    dfg::Out<std::uint64_t> out(ring);
    for (std::uint64_t i = 0; i < kCount;)
      if (out.room() > 0) out.push(i++);
  });
  dfg::In<std::uint64_t> in(ring);
  for (std::uint64_t i = 0; i < kCount;) {
    if (in.available() == 0) continue;
    REQUIRE(in.pop() == i);
    ++i;
  }
  producer.join();
}

TEST_CASE("ports: PackSome takes what the ring holds, up to the capacity, the rest later",
          "[runtime][ports]") {
  dfg::Fifo<int> ring(16);
  for (int i = 0; i < 10; ++i) REQUIRE(ring.try_push(i));
  dfg::PackSome<int> pack(ring);
  int token[6] = {};
  pack.begin(token, 6);
  while (pack.step()) {
  }
  CHECK(pack.finish() == 6);
  CHECK(token[0] == 0);
  CHECK(token[5] == 5);
  CHECK_FALSE(pack.step());  // finished: no token to fill
  pack.begin(token, 6);
  while (pack.step()) {
  }
  CHECK(pack.finish() == 4);
  CHECK(token[3] == 9);
  pack.begin(token, 6);
  CHECK_FALSE(pack.step());
  CHECK(pack.finish() == 0);  // an empty ring: an empty token
}

namespace {
// A parallel action: each firing sums 3 inputs into 1 output and copies the first of them to a
// second output of 2 (out2[0] = x[0], out2[1] = -x[0]).
struct SumOfThree {
  void fire(dfg::RingSpan<const int> x, dfg::RingSpan<int> sum, dfg::RingSpan<int> pair) const {
    REQUIRE(x.size() == 3);
    REQUIRE(sum.size() == 1);
    REQUIRE(pair.size() == 2);
    sum[0] = x[0] + x[1] + x[2];
    pair[0] = x[0];
    pair[1] = -x[0];
  }
};
}  // namespace

TEST_CASE("ports: fire_batch fires as many firings as the rings allow, in order, wrapping",
          "[runtime][ports]") {
  dfg::Fifo<int> x(16), sum(4), pair(8);
  const SumOfThree action;
  auto fire = [&](std::size_t max_n) {
    return dfg::fire_batch(max_n, action, dfg::Take<int>{x, 3}, dfg::Give<int>{sum, 1},
                           dfg::Give<int>{pair, 2});
  };
  int next = 0;
  auto feed = [&](int n) {
    for (int i = 0; i < n; ++i) REQUIRE(x.try_push(next++));
  };
  feed(2);
  CHECK(fire(8) == 0);  // fewer than one firing's 3 elements
  CHECK(x.available() == 2);
  feed(12);             // 14: 4 firings' worth, but `pair` has room for 4 and `sum` for 4
  CHECK(fire(3) == 3);  // at most max_n
  CHECK(fire(8) == 1);  // the room of `sum` (4) and of `pair` (8 / 2) is spent
  CHECK(fire(8) == 0);
  int v = 0;
  for (int f = 0; f < 4; ++f) {
    REQUIRE(sum.try_pop(v));
    CHECK(v == 3 * f * 3 + 3);  // 3f + (3f + 1) + (3f + 2)
    REQUIRE(pair.try_pop(v));
    CHECK(v == 3 * f);
    REQUIRE(pair.try_pop(v));
    CHECK(v == -3 * f);
  }
  // The rings' positions now wrap: 2 elements left, 12 more; the batches cross the rings' ends
  // and every firing still gets its own elements, in order.
  feed(12);
  int f = 4;
  for (int round = 0; round < 4; ++round) {
    fire(8);
    while (sum.try_pop(v)) {
      CHECK(v == 3 * f * 3 + 3);
      REQUIRE(pair.try_pop(v));
      CHECK(v == 3 * f);
      REQUIRE(pair.try_pop(v));
      CHECK(v == -3 * f);
      ++f;
    }
  }
  CHECK(f == 8);  // 14 elements: 4 firings, 2 left
  CHECK(x.available() == 2);
}
