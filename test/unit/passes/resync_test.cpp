#include <catch2/catch.hpp>

#include "passes/build_ig.hpp"
#include "passes/fixtures.hpp"
#include "passes/ig_helpers.hpp"
#include "passes/simulate.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using ir::Strategy;
using test::ProgramBuilder;

namespace {

/// s on A.cpu feeds j (A.cpu) directly and through m on A.g0: the GPU branch arrives later.
ProgramBuilder diamond() {
  ProgramBuilder b("diamond");
  b.type("T", ir::ElemType::f32, 256);
  test::add_generic_actors(b, "T");
  b.host("A", 1);
  b.node("s", "Split", "A.cpu").node("src", "Source", "A.cpu").node("m", "Map", "A.g0");
  b.node("j", "Join", "A.cpu").node("k", "Sink", "A.cpu");
  b.edge("src.o", "s.i")
      .edge("s.o", "m.i")
      .edge("m.o", "j.x")
      .edge("s.p", "j.y")
      .edge("j.o", "k.i");
  return b;
}

/// Builds the IG from the passes, with or without the delay lines resync_inputs asks for.
ir::Ig build(const ir::Program& p, bool resync) {
  Schedule order = schedule(p.dfg, p.arch, p.mapping);
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  BufferDepths depths = buffer_depth(plan);
  Latencies latencies = compute_latency(p.dfg, order, plan);
  DelayLines delays = resync ? resync_inputs(p, plan, latencies) : DelayLines{};
  BufferColouring colours = color_buffers(p, order, plan, depths, latencies, delays);
  return build_ig(p, order, plan, depths, latencies, delays, colours);
}

}  // namespace

TEST_CASE("resync: the direct branch of a diamond reads its producer's buffer late",
          "[resync_inputs]") {
  ir::Program p = diamond().build();
  ir::Ig ig = build(p, true);
  const ir::IgStrategy& with = ig[Strategy::overlap];
  const ir::IgStrategy& without = ig[Strategy::no_overlap];
  // With overlap: s -> m crosses 2 double buffers, m -> j 2 more; j.y arrives at once.
  CHECK(test::latency_of(p, with, "m") == 2);
  CHECK(test::latency_of(p, with, "j") == 4);
  // s.p and j are on one PE: no copy, j reads s.p@A.cpu 4 cycles late from 5 slots.
  CHECK(with.copies.empty());
  REQUIRE(with.aliases.size() == 1);
  CHECK(with.aliases[0].name == "j.y.delay@A.cpu");
  CHECK(with.aliases[0].cycles == 4);
  CHECK(with.aliases[0].edge == ir::EdgeId{3});
  const ir::IgBuffer& source = with.buffers[with.aliases[0].from];
  CHECK(source.name == "s.p@A.cpu");
  CHECK(source.depth == 5);
  const ir::IgFiring& j = with.firings[test::node_named(p, "j")];
  CHECK(j.ports[1].buffer == with.aliases[0].from);
  CHECK(j.ports[1].lag == 4);
  CHECK(j.ports[0].lag == 1);  // m.o@A.cpu: received, read the slot completed last cycle
  // Without overlap: one cycle per hop.
  CHECK(test::latency_of(p, without, "j") == 2);
  CHECK(without.copies.empty());
  REQUIRE(without.aliases.size() == 1);
  CHECK(without.buffers[without.aliases[0].from].depth == 3);
  // Its slots hold tokens for later cycles: they share their storage with nothing.
  CHECK(with.colours[source.colour].members.size() == 1);
  CHECK(with.colours[source.colour].slots == 5);
}

TEST_CASE("resync: a line from a token received from another PE keeps its copy",
          "[resync_inputs]") {
  // m on A.g1, j on A.g0: s.p reaches j's PE through one transfer, m's branch through more.
  ProgramBuilder b("diamond");
  b.type("T", ir::ElemType::f32, 256);
  test::add_generic_actors(b, "T");
  b.host("A", 2);
  b.node("s", "Split", "A.cpu").node("src", "Source", "A.cpu").node("m", "Map", "A.g1");
  b.node("j", "Join", "A.g0").node("k", "Sink", "A.cpu");
  b.edge("src.o", "s.i")
      .edge("s.o", "m.i")
      .edge("m.o", "j.x")
      .edge("s.p", "j.y")
      .edge("j.o", "k.i");
  ir::Program p = b.build();
  ir::Ig ig = build(p, true);
  for (Strategy s : ir::kStrategies) {
    CAPTURE(ir::to_string(s));
    CHECK(ig[s].aliases.empty());
    REQUIRE(ig[s].copies.size() == 1);
    CHECK(ig[s].buffers[ig[s].copies[0].from].name == "s.p@A.g0");
    CHECK(test::simulate(p, ig[s], 30).errors.empty());
  }
}

TEST_CASE("resync: every firing sees one iteration on all its inputs", "[resync_inputs]") {
  ir::Program p = diamond().build();
  ir::Ig ig = build(p, true);
  for (Strategy s : ir::kStrategies) {
    CAPTURE(ir::to_string(s));
    test::SimReport r = test::simulate(p, ig[s], 30);
    CHECK(r.errors.empty());
    for (const std::string& e : r.errors) UNSCOPED_INFO(e);
    const ir::NodeId j = test::node_named(p, "j");
    CHECK(r.firings[j] == 30 - ig[s].firings[j].latency);
    CHECK(r.last_iteration[j] == 29 - static_cast<std::int64_t>(ig[s].firings[j].latency));
  }
}

TEST_CASE("resync: without delay lines the diamond mixes iterations", "[resync_inputs]") {
  ir::Program p = diamond().build();
  ir::Ig ig = build(p, false);
  for (Strategy s : ir::kStrategies) {
    test::SimReport r = test::simulate(p, ig[s], 30);
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0].find("j.y read") != std::string::npos);
  }
}

TEST_CASE("resync: unequal latencies over the paper's cluster", "[resync_inputs]") {
  // f joins e (A.g1) and a value that went to host B and back.
  ProgramBuilder b = test::paper_example();
  b.map("e", "B.g2");
  ir::Program p = b.build();
  ir::Ig ig = run_passes(p);
  for (Strategy s : ir::kStrategies) {
    CAPTURE(ir::to_string(s));
    // f's early input is made on f's own PE: read in place.
    CHECK(ig[s].copies.empty());
    REQUIRE(ig[s].aliases.size() == 1);
    CHECK(ig[s].aliases[0].name == "f.y.delay@A.g1");
    test::SimReport r = test::simulate(p, ig[s], 40);
    CHECK(r.errors.empty());
    CHECK(r.firings[test::node_named(p, "c3")] > 10);
  }
}

TEST_CASE("random graphs on a 16-PE cluster run cycle by cycle without a violation",
          "[resync_inputs][colour]") {
  // cores 4: each host's four cpus share its memory, the others' firings read its buffers.
  const int cores = GENERATE(1, 4);
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    ir::Program p = test::random_program(seed, 60, 20, cores).build();
    ir::Ig ig = run_passes(p);
    for (Strategy s : ir::kStrategies) {
      CAPTURE(cores, seed, ir::to_string(s));
      std::uint32_t deepest = 0;
      for (const ir::IgFiring& f : ig[s].firings) deepest = std::max(deepest, f.latency);
      test::SimReport r = test::simulate(p, ig[s], deepest + 6);
      for (const std::string& e : r.errors) UNSCOPED_INFO(e);
      CHECK(r.errors.empty());
      for (std::uint32_t fired : r.firings) CHECK(fired >= 6);
    }
  }
}

namespace {

/// i feeds itself through `delay` initial tokens on A.g0 and feeds j; with `loop`, j feeds i back
/// instead (j fires first: i's input is a back edge within the PE).
ProgramBuilder self_loop(std::uint32_t delay, bool loop = false) {
  ProgramBuilder b("self_loop");
  b.type("T", ir::ElemType::f32, 64);
  test::add_generic_actors(b, "T");
  b.host("A", 1);
  b.node("i", loop ? "Join" : "Map", "A.g0").node("j", "Map", "A.g0").node("k", "Sink", "A.cpu");
  if (loop) {
    b.node("src", "Source", "A.g0").edge("src.o", "i.x").edge("j.o", "i.y", delay);
    b.edge("i.o", "j.i").edge("i.o", "k.i");
  } else {
    b.edge("i.o", "i.i", delay).edge("i.o", "j.i").edge("j.o", "k.i");
  }
  return b;
}

}  // namespace

TEST_CASE("delay: a node fed back to itself on one PE reads its own buffer, no copy",
          "[resync_inputs]") {
  const std::uint32_t delay = GENERATE(1u, 3u);
  ir::Program p = self_loop(delay).build();
  ir::Ig ig = build(p, true);
  for (Strategy s : ir::kStrategies) {
    CAPTURE(ir::to_string(s), delay);
    const ir::IgStrategy& g = ig[s];
    CHECK(g.copies.empty());
    REQUIRE(g.aliases.size() == 1);
    CHECK(g.aliases[0].name == "i.i.delay@A.g0");
    CHECK(g.aliases[0].cycles == delay);
    const ir::IgBuffer& own = g.buffers[g.aliases[0].from];
    CHECK(own.name == "i.o@A.g0");
    // It reads slot c - d while it writes slot c: d + 1 slots keep the two apart.
    CHECK(own.depth == delay + 1);
    const ir::IgFiring& i = g.firings[test::node_named(p, "i")];
    CHECK(i.ports[0].buffer == g.aliases[0].from);
    CHECK(i.ports[0].lag == delay);
    CHECK(i.ports[0].initial == delay);
    // i.o also goes to j on the GPU and k on the CPU: every reader sees its iteration.
    test::SimReport r = test::simulate(p, g, 40);
    for (const std::string& e : r.errors) UNSCOPED_INFO(e);
    CHECK(r.errors.empty());
    CHECK(r.firings[test::node_named(p, "k")] > 30);
  }
}

TEST_CASE("delay: a back edge to a node that fires first needs d slots", "[resync_inputs]") {
  const std::uint32_t delay = GENERATE(1u, 2u);
  ir::Program p = self_loop(delay, true).build();
  ir::Ig ig = build(p, true);
  for (Strategy s : ir::kStrategies) {
    CAPTURE(ir::to_string(s), delay);
    const ir::IgStrategy& g = ig[s];
    CHECK(g.copies.empty());
    REQUIRE(g.aliases.size() == 1);
    CHECK(g.buffers[g.aliases[0].from].name == "j.o@A.g0");
    // i reads slot (c - d) mod d before j writes it again in cycle c.
    CHECK(g.buffers[g.aliases[0].from].depth == std::max(g.aliases[0].cycles, 1u));
    CHECK(g.aliases[0].cycles == delay);
    test::SimReport r = test::simulate(p, g, 40);
    for (const std::string& e : r.errors) UNSCOPED_INFO(e);
    CHECK(r.errors.empty());
  }
}

TEST_CASE("delay: the copy stays for bounded tokens, islands and programs that migrate",
          "[resync_inputs]") {
  enum class Why { bounded, island, migrates };
  const Why why = GENERATE(Why::bounded, Why::island, Why::migrates);
  ir::Program p = self_loop(2).build();
  if (why == Why::bounded) p.types[0].bounded = true;
  if (why == Why::island) p.dfg.actors[p.dfg.nodes[test::node_named(p, "i")].actor].island = 0;
  if (why == Why::migrates)
    p.dfg.nodes[test::node_named(p, "k")].alternatives = {{*p.arch.find_pe("A.g0"), {}}};
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  Latencies latencies = compute_latency(p.dfg, schedule(p.dfg, p.arch, p.mapping), plan);
  DelayLines lines = resync_inputs(p, plan, latencies);
  for (Strategy s : ir::kStrategies) {
    CAPTURE(ir::to_string(s), static_cast<int>(why));
    REQUIRE(lines[s].size() == 1);
    CHECK_FALSE(lines[s][0].aliased);
    CHECK(copied_lines(lines[s]).size() == 1);
  }
  CHECK(dump(lines, plan).find("i.i.delay@A.g0 <- i.o@A.g0 cycles 2 copied") != std::string::npos);
}
