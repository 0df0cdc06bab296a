#include <catch2/catch.hpp>

#include "passes/build_ig.hpp"
#include "passes/fixtures.hpp"
#include "passes/ig_helpers.hpp"
#include "passes/pipeline.hpp"
#include "passes/simulate.hpp"

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
  DelayLines delays =
      resync ? resync_inputs(p.dfg, p.arch, p.mapping, plan, latencies) : DelayLines{};
  BufferColouring colours = color_buffers(p, order, plan, depths, latencies, delays);
  return build_ig(p, order, plan, depths, latencies, delays, colours);
}

}  // namespace

TEST_CASE("resync: the direct branch of a diamond gets a delay line", "[resync_inputs]") {
  ir::Program p = diamond().build();
  ir::Ig ig = build(p, true);
  const ir::IgStrategy& with = ig[Strategy::overlap];
  const ir::IgStrategy& without = ig[Strategy::no_overlap];
  // With overlap: s -> m crosses 2 double buffers, m -> j 2 more; j.y arrives at once.
  CHECK(test::latency_of(p, with, "m") == 2);
  CHECK(test::latency_of(p, with, "j") == 4);
  REQUIRE(with.copies.size() == 1);
  const ir::IgBuffer& line = with.buffers[with.copies[0].to];
  CHECK(line.name == "j.y.delay@A.cpu");
  CHECK(line.depth == 4);
  CHECK(line.delay_edge == ir::EdgeId{3});
  CHECK(with.buffers[with.copies[0].from].name == "s.p@A.cpu");
  CHECK(with.copies[0].after == test::node_named(p, "j"));
  CHECK(with.copies[0].first_cycle == 0);
  const ir::IgFiring& j = with.firings[test::node_named(p, "j")];
  CHECK(j.ports[1].buffer == with.copies[0].to);
  CHECK(j.ports[1].lag == 4);
  CHECK(j.ports[0].lag == 1);  // m.o@A.cpu: received, read the slot completed last cycle
  // Without overlap: one cycle per hop.
  CHECK(test::latency_of(p, without, "j") == 2);
  REQUIRE(without.copies.size() == 1);
  CHECK(without.buffers[without.copies[0].to].depth == 2);
  // A delay line shares its storage with nothing.
  CHECK(with.colours[line.colour].members.size() == 1);
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
    CHECK(ig[s].copies.size() == 1);
    CHECK(ig[s].buffers[ig[s].copies[0].to].name == "f.y.delay@A.g1");
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
