// dfg::Node with rates: one call per firing on its part of each block, or one call a cycle on the
// whole blocks (`block`), and what the context tells the actor in each.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/node.hpp"

namespace {

/// Copies its input to its output and records, per call, the firing and elements it was given.
struct Copy {
  void fire(const int* in, int* out, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(1); ++k)
      out[k] = in[k] + static_cast<int>(ctx.firing()) * 100;
    calls.push_back(
        {ctx.iteration(), ctx.firing(), ctx.firings(), ctx.elements(0), ctx.elements(1)});
  }
  struct Call {
    std::int64_t iteration;
    std::uint32_t firing, firings;
    std::size_t in, out;
  };
  std::vector<Call> calls;
};

}  // namespace

TEST_CASE("a node of 4 firings a cycle is called once per firing on its part of each block",
          "[node][rates]") {
  // in: rate 2 of 3-element tokens, out: rate 1 of 3: blocks of 24 and 12 elements.
  dfg::Node<Copy, 2> node;
  const dfg::RuntimeParamValues params;
  node.set_up(params, {24, 12}, 4, false);
  std::vector<int> in(24), out(12, -1);
  for (int i = 0; i < 24; ++i) in[static_cast<std::size_t>(i)] = i;
  for (std::uint32_t k = 0; k < 4; ++k)
    node.fire_part(7, k, node.part(0, k, in.data()), node.part(1, k, out.data()));
  REQUIRE(node.actor.calls.size() == 4);
  for (std::uint32_t k = 0; k < 4; ++k) {
    const Copy::Call& c = node.actor.calls[k];
    CHECK(c.iteration == 7);
    CHECK(c.firing == k);
    CHECK(c.firings == 4);
    CHECK(c.in == 6);
    CHECK(c.out == 3);
    // Firing k read elements 6k .. 6k + 2 and wrote 3k .. 3k + 2.
    for (std::size_t e = 0; e < 3; ++e)
      CHECK(out[3 * k + e] == static_cast<int>(6 * k + e + 100 * k));
  }
}

TEST_CASE("a block node is called once a cycle on its whole blocks", "[node][rates]") {
  dfg::Node<Copy, 2> node;
  const dfg::RuntimeParamValues params;
  node.set_up(params, {24, 12}, 4, true);
  std::vector<int> in(24, 1), out(12, 0);
  node.fire(3, in.data(), out.data());
  REQUIRE(node.actor.calls.size() == 1);
  CHECK(node.actor.calls[0].firing == 0);
  CHECK(node.actor.calls[0].firings == 4);
  CHECK(node.actor.calls[0].in == 24);
  CHECK(node.actor.calls[0].out == 12);
  CHECK(out[11] == 1);
}

TEST_CASE("a batched node numbers each call's iteration and firing as without the batch",
          "[node][rates][batch]") {
  // 2 firings an iteration, a batch of 3: 6 firings a cycle, cycle 5 runs iterations 15 .. 17.
  dfg::Node<Copy, 2> node;
  const dfg::RuntimeParamValues params;
  node.set_up(params, {36, 18}, 6, false, 3);
  std::vector<int> in(36), out(18);
  for (std::uint32_t k = 0; k < 6; ++k)
    node.fire_part(5, k, node.part(0, k, in.data()), node.part(1, k, out.data()));
  REQUIRE(node.actor.calls.size() == 6);
  for (std::uint32_t k = 0; k < 6; ++k) {
    const Copy::Call& c = node.actor.calls[k];
    CHECK(c.iteration == 15 + k / 2);
    CHECK(c.firing == k % 2);
    CHECK(c.firings == 2);  // per iteration, as the actor was written for
    CHECK(c.in == 6);
    CHECK(c.out == 3);
  }
  // A block implementation gets the cycle: its first iteration, every firing of the batch.
  dfg::Node<Copy, 2> block;
  block.set_up(params, {36, 18}, 6, true, 3);
  block.fire(5, in.data(), out.data());
  REQUIRE(block.actor.calls.size() == 1);
  CHECK(block.actor.calls[0].iteration == 15);
  CHECK(block.actor.calls[0].firings == 6);
  CHECK(block.actor.calls[0].in == 36);
}

namespace {
struct Finishing {
  int fired = 0, finished = 0;
  void fire(const int*, int*, dfg::Context&) { ++fired; }
  void finish() { ++finished; }
};
}  // namespace

TEST_CASE(
    "a restarted run's node says the uninterrupted run's iterations; finish runs on the "
    "instance that fired the last cycle",
    "[node][checkpoint]") {
  dfg::RuntimeParamValues params;
  params.first_cycle = 100;  // --restart at iteration 100 of a batch of 3: cycle 100, iteration 300
  dfg::Node<Copy, 2> node;
  node.set_up(params, {6, 3}, 3, true, 3);
  std::vector<int> in(6), out(3);
  node.fire(0, in.data(), out.data());
  CHECK(node.actor.calls.at(0).iteration == 300);
  node.fire(2, in.data(), out.data());
  CHECK(node.actor.calls.at(1).iteration == 306);

  dfg::Node<Finishing, 2> moved, home;
  const dfg::RuntimeParamValues none;
  moved.set_up(none, {1, 1});
  home.set_up(none, {1, 1});
  for (std::int64_t j = 0; j < 4; ++j) (j < 2 ? moved : home).fire(j, in.data(), out.data());
  CHECK_FALSE(moved.finish(3));  // it fired cycles 0 and 1 only
  CHECK(home.finish(3));
  CHECK(moved.actor.finished == 0);
  CHECK(home.actor.finished == 1);
  dfg::Node<Finishing, 2> idle;  // never fired
  CHECK_FALSE(idle.finish(0));
}

TEST_CASE("the context counts a port's elements by its name too", "[node]") {
  dfg::Node<Copy, 2> node;
  const dfg::RuntimeParamValues params;
  node.set_up(params, {24, 12}, 4, false);
  REQUIRE_THROWS_AS(node.ctx.elements("in"), std::invalid_argument);  // no names given
  node.name_ports({"in", "out"});
  CHECK(node.ctx.elements("in") == 6);
  CHECK(node.ctx.elements("out") == 3);
  CHECK(node.ctx.elements(1) == 3);
  try {
    (void)node.ctx.elements("x");
    FAIL("an unknown port was counted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) ==
          "ctx.elements(\"x\"): the actor has no port of that name (its ports: in, out)");
  }
}

namespace {
/// Records, per call, whether the context says it is a warm-up firing.
struct Warm {
  std::vector<bool> warming;
  void fire(const int*, int*, dfg::Context& ctx) { warming.push_back(ctx.warming_up()); }
};
}  // namespace

TEST_CASE("a node's warm-up: the context counts its firings across cycles and batches",
          "[node][warm_up]") {
  // 2 firings an iteration, a batch of 3: 6 firings a cycle; a warm-up of 8 firings ends at
  // firing 2 of cycle 1.
  dfg::Node<Warm, 2> node;
  const dfg::RuntimeParamValues params;
  node.set_up(params, {36, 18}, 6, false, 3);
  node.warm_up(8);
  CHECK(node.ctx.warm_up() == 8);
  std::vector<int> in(36), out(18);
  for (std::int64_t j = 0; j < 2; ++j)
    for (std::uint32_t k = 0; k < 6; ++k)
      node.fire_part(j, k, node.part(0, k, in.data()), node.part(1, k, out.data()));
  const std::vector<bool> want = {true, true, true,  true,  true,  true,
                                  true, true, false, false, false, false};
  CHECK(node.actor.warming == want);

  // A block implementation: its call's first firing (cycle 1 starts at firing 6 of 8).
  dfg::Node<Warm, 2> block;
  block.set_up(params, {36, 18}, 6, true, 3);
  block.warm_up(8);
  for (std::int64_t j = 0; j < 3; ++j) block.fire(j, in.data(), out.data());
  CHECK(block.actor.warming == std::vector<bool>{true, true, false});

  // Without a warm-up no firing is one.
  dfg::Node<Warm, 2> none;
  none.set_up(params, {6, 3}, 1, false);
  none.fire(0, in.data(), out.data());
  CHECK(none.ctx.warm_up() == 0);
  CHECK(none.actor.warming == std::vector<bool>{false});
}
