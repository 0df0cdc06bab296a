// Edges with initial tokens and the loops they close: first cycles, delay lines, the loop check,
// and cycle-by-cycle runs of random graphs with loops.
#include <catch2/catch.hpp>

#include "passes/fixtures.hpp"
#include "passes/ig_helpers.hpp"
#include "passes/latency.hpp"
#include "passes/simulate.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using ir::Strategy;

namespace {

/// s -> f -> k, f's state fed back to itself through an edge of `delay` initial tokens; f on
/// `f_pe`, or split into f and a hold node h on `h_pe` that returns the state.
test::ProgramBuilder iir(std::string_view f_pe, std::string_view h_pe = {},
                         std::uint32_t delay = 1) {
  test::ProgramBuilder b("iir");
  b.type("T", ir::ElemType::f32, 256);
  test::add_generic_actors(b, "T");
  b.host("A", 1).host("B", 0).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.node("s", "Source", "A.cpu").node("f", "Join", f_pe).node("k", "Sink", "A.cpu");
  b.edge("s.o", "f.x").edge("f.o", "k.i");
  if (h_pe.empty()) {
    b.edge("f.o", "f.y", delay);
  } else {
    b.node("h", "Map", h_pe);
    b.edge("f.o", "h.i").edge("h.o", "f.y", delay);
  }
  return b;
}

Latencies latencies_of(const ir::Program& p) {
  return compute_latency(p.dfg, schedule(p.dfg, p.arch, p.mapping),
                         insert_buffers(p.dfg, p.arch, p.mapping));
}

}  // namespace

TEST_CASE("loops: a self-loop with one initial token runs on one PE", "[loops]") {
  for (const char* pe : {"A.cpu", "A.g0"}) {
    CAPTURE(pe);
    ir::Program p = iir(pe).build();
    ir::Ig ig = run_passes(p);
    for (Strategy s : ir::kStrategies) {
      CAPTURE(ir::to_string(s));
      const ir::IgStrategy& g = ig[s];
      // f reads, in cycle c, what it wrote in c - 1: its own buffer, one slot more, no copy.
      CHECK(g.copies.empty());
      REQUIRE(g.aliases.size() == 1);
      CHECK(g.aliases[0].name == std::string("f.y.delay@") + pe);
      CHECK(g.aliases[0].cycles == 1);
      CHECK(g.buffers[g.aliases[0].from].name == std::string("f.o@") + pe);
      CHECK(g.buffers[g.aliases[0].from].depth == 2);
      const ir::PortBinding& y = g.firings[test::node_named(p, "f")].ports[1];
      CHECK(y.buffer == g.aliases[0].from);
      CHECK(y.lag == 1);
      CHECK(y.initial == 1);
      CHECK(y.initial_value == "0");
      test::SimReport r = test::simulate(p, g, 30);
      for (const std::string& e : r.errors) UNSCOPED_INFO(e);
      CHECK(r.errors.empty());
      CHECK(r.firings[test::node_named(p, "f")] == 30 - test::latency_of(p, g, "f"));
    }
  }
}

TEST_CASE("loops: a loop over two hosts needs as many tokens as its latency", "[loops]") {
  // f on A.cpu, h on B.cpu: each way one net transfer, 2 cycles with overlap, 1 without.
  SECTION("one token: uncovered, with the numbers") {
    Latencies l = latencies_of(iir("A.cpu", "B.cpu", 1).build());
    REQUIRE(l[Strategy::overlap].uncovered);
    const UncoveredLoop& loop = *l[Strategy::overlap].uncovered;
    CHECK(loop.cycles() == 4);
    CHECK(loop.tokens == 1);
    CHECK(loop.transfers() == 2);
    CHECK(loop.edges.size() == 2);
    // Per edge, what the diagnostics' notes say: two cycles, one transfer each.
    CHECK(loop.edge_cycles == std::vector<std::uint32_t>{2, 2});
    CHECK(loop.edge_transfers == std::vector<std::uint32_t>{1, 1});
    REQUIRE(l[Strategy::no_overlap].uncovered);
    CHECK(l[Strategy::no_overlap].uncovered->cycles() == 2);
    ir::Program p = iir("A.cpu", "B.cpu", 1).build();
    CHECK(describe(loop, Strategy::overlap, p.dfg) ==
          "loop f -> h -> f takes 4 cycles with overlap (2 transfers) but carries 1 initial "
          "token; it lacks 3 tokens: each token must come round before the iteration that "
          "needs it");
    // The passes stop after latency: there is no implementation graph to build.
    PassResults r = run_passes(p, Stage::build_ig);
    CHECK_FALSE(r.ig);
  }
  SECTION("one token, the loop's far end an alternative: the migrations pass finds it") {
    // h on A.cpu, within the host: covered; its alternative B.cpu is the uncovered loop above.
    ir::Program p = iir("A.cpu", "A.cpu", 1).build();
    p.dfg.nodes[test::node_named(p, "h")].alternatives = {{*p.arch.find_pe("B.cpu"), {}}};
    PassResults r = run_passes(p, kPlanned);
    REQUIRE(r.migrations);
    REQUIRE(r.migrations->alternatives.size() == 1);
    const Migration& m = r.migrations->alternatives[0];
    REQUIRE(m.uncovered);
    CHECK(m.uncovered->strategy == Strategy::overlap);
    CHECK(m.uncovered->loop.cycles() == 4);
    CHECK(r.uncovered());
    // No host plan is made of a program one of whose moves cannot run.
    CHECK_FALSE(r.hosts);
    CHECK(dump(*r.migrations, p, *r.ig).find("overlap loop f -> h -> f takes 4 cycles") !=
          std::string::npos);
  }
  SECTION("four tokens: covered under both strategies, every iteration right") {
    ir::Program p = iir("A.cpu", "B.cpu", 4).build();
    Latencies l = latencies_of(p);
    CHECK_FALSE(l[Strategy::overlap].uncovered);
    CHECK_FALSE(l[Strategy::no_overlap].uncovered);
    ir::Ig ig = run_passes(p);
    for (Strategy s : ir::kStrategies) {
      CAPTURE(ir::to_string(s));
      test::SimReport r = test::simulate(p, ig[s], 40);
      for (const std::string& e : r.errors) UNSCOPED_INFO(e);
      CHECK(r.errors.empty());
      CHECK(r.firings[test::node_named(p, "k")] >= 30);
    }
  }
}

TEST_CASE("loops: first cycles are the least solution of the loop constraints", "[loops]") {
  // Without initial tokens on f.y the graph would be cyclic; with them f may fire before h.
  ir::Program p = iir("A.cpu", "A.g0", 5).build();
  Latencies l = latencies_of(p);
  for (Strategy s : ir::kStrategies) {
    const Latency& x = l[s];
    for (ir::EdgeId e = 0; e < p.dfg.edges.size(); ++e) {
      const ir::Edge& edge = p.dfg.edges[e];
      CHECK(x.node[edge.dst] + edge.delay >= x.edge_arrival[e]);
    }
  }
  CHECK(l[Strategy::overlap].node[test::node_named(p, "f")] == 0);
  CHECK(l[Strategy::overlap].node[test::node_named(p, "h")] == 2);
}

TEST_CASE("random graphs with loops on a 16-PE cluster run cycle by cycle without a violation",
          "[loops][resync_inputs][colour]") {
  std::size_t raised = 0, delayed = 0;
  for (std::uint32_t seed = 1; seed <= 16; ++seed) {
    std::vector<std::string> bumped;
    ir::Program p = test::random_loop_program(seed, 40, &bumped);
    raised += bumped.size();
    for (const ir::Edge& e : p.dfg.edges) delayed += e.delay > 0;
    ir::Ig ig = run_passes(p);
    for (Strategy s : ir::kStrategies) {
      CAPTURE(seed, ir::to_string(s));
      std::uint32_t deepest = 0;
      for (const ir::IgFiring& f : ig[s].firings) deepest = std::max(deepest, f.latency);
      test::SimReport r = test::simulate(p, ig[s], deepest + 12);
      for (const std::string& e : r.errors) UNSCOPED_INFO(e);
      CHECK(r.errors.empty());
      for (std::uint32_t fired : r.firings) CHECK(fired >= 12);
    }
  }
  CHECK(delayed > 20);  // the graphs have loops
  CHECK(raised > 0);    // and some needed more tokens than they were given at first
}

TEST_CASE(
    "random graphs with rates and loops on 16 hosts of 4 cpus run cycle by cycle without a violation",
    "[loops][rates][resync_inputs][colour]") {
  std::size_t repeated = 0, blocks = 0, delayed = 0, shared = 0;
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    ir::Program p = test::random_loop_program(seed, 40, nullptr, 4, true);
    for (const ir::Node& n : p.dfg.nodes) repeated += n.repetitions > 1;
    for (const ir::Edge& e : p.dfg.edges) {
      blocks += p.types[e.type].count.value > 1024;
      delayed += e.delay > 0;
      const ir::Pe& a = p.arch.pes[p.mapping.pe_of[e.src]];
      const ir::Pe& b = p.arch.pes[p.mapping.pe_of[e.dst]];
      shared += a.kind == ir::PeKind::cpu && b.kind == ir::PeKind::cpu && a.host == b.host &&
                e.src != e.dst && p.mapping.pe_of[e.src] != p.mapping.pe_of[e.dst];
    }
    ir::Ig ig = run_passes(p);
    for (Strategy s : ir::kStrategies) {
      CAPTURE(seed, ir::to_string(s));
      std::uint32_t deepest = 0;
      for (const ir::IgFiring& f : ig[s].firings) deepest = std::max(deepest, f.latency);
      test::SimReport r = test::simulate(p, ig[s], deepest + 12);
      for (const std::string& e : r.errors) UNSCOPED_INFO(e);
      CHECK(r.errors.empty());
      for (std::uint32_t fired : r.firings) CHECK(fired >= 12);
    }
  }
  CHECK(repeated > 100);  // nodes that fire several times per iteration
  CHECK(blocks > 100);    // edges that carry blocks of several tokens
  CHECK(delayed > 15);    // loops
  CHECK(shared > 5);      // edges between two cpus of one host
}
