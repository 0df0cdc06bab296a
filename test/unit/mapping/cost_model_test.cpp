#include <catch2/catch.hpp>

#include "mapping/cost_model.hpp"
#include "mapping/quick_model.hpp"
#include "passes/program_builder.hpp"
#include "random_problems.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using dfgc::ir::Strategy;
using dfgc::test::ProgramBuilder;

namespace {

constexpr double kMiB4 = 4194304;  // bytes of one token: 1 Mi floats

/// P-I-I-C on two hosts (section 5.1 of the journal paper), with figures chosen so that a token
/// takes 1 ms over PCIe and 2 ms over the network.
ProgramBuilder piic() {
  ProgramBuilder b("piic");
  b.type("Matrix", ir::ElemType::f32, 1 << 20);
  b.actor("Producer", "out Matrix m");
  b.actor("Inc", "in Matrix a; out Matrix b");
  b.actor("Consumer", "in Matrix m");
  b.host("A", 1, kMiB4 / 1e-3).host("B", 1, kMiB4 / 1e-3);
  b.link("A.cpu", "B.cpu", ir::LinkKind::net, kMiB4 / 2e-3);
  b.node("p", "Producer", "A.cpu").node("i1", "Inc", "A.g0").node("i2", "Inc", "B.g0");
  b.node("c", "Consumer", "B.cpu");
  b.edge("p.m", "i1.a").edge("i1.b", "i2.a").edge("i2.b", "c.m");
  return b;
}

/// Every node costs `ms[node]` milliseconds on every PE.
mapping::CostTable costs_of(const ir::Program& p, std::vector<double> ms) {
  mapping::CostTable t;
  for (double m : ms) t.firing.emplace_back(p.arch.pes.size(), m * 1e-3);
  for (const ir::Link& l : p.arch.links)
    t.links.push_back({mapping::LinkCost{l.bandwidth, 0}, mapping::LinkCost{l.bandwidth, 0}});
  t.capacity.assign(p.arch.pes.size(), std::nullopt);
  t.overhead = {{1e-4, 1e-4}};
  return t;
}

mapping::Prediction predict(const ir::Program& p, const mapping::CostTable& t) {
  return mapping::predict(p, run_passes(p), t);
}

}  // namespace

TEST_CASE("P-I-I-C on two hosts: periods and latencies by hand", "[mapping][cost-model]") {
  ir::Program p = piic().build();
  auto t = costs_of(p, {1.0, 1.5, 1.5, 0.5});
  auto r = predict(p, t);
  // With overlap every resource works at once: the network link (2 ms) is the busiest; the
  // GPUs fire 1.5 ms, each PCIe direction carries one 1 ms token.
  CHECK(r[Strategy::overlap].period == Approx(2.1e-3));
  // Without: steps by hop, farthest first: B.cpu -> B.g0 (1 ms), the network (2 ms), then the
  // first hops (1 ms each, on different links); then the firings (1.5 ms), plus the overhead.
  CHECK(r[Strategy::no_overlap].period == Approx(5.6e-3));
  // Delays: a path of t transfers costs t + 1 cycles with overlap, t without: 1, 3, 1 transfers.
  CHECK(r[Strategy::overlap].latency_cycles == 8);
  CHECK(r[Strategy::overlap].latency == Approx(9 * 2.1e-3));
  CHECK(r[Strategy::no_overlap].latency_cycles == 5);
  CHECK(r[Strategy::no_overlap].latency == Approx(6 * 5.6e-3));
  // Memory after sharing: with overlap the GPUs hold double buffers of 4 MiB tokens.
  CHECK(r[Strategy::overlap].memory[1] > r[Strategy::no_overlap].memory[1]);
}

TEST_CASE("the paper's period formulas: max of the parts with overlap, sum without",
          "[mapping][cost-model]") {
  // One host, one GPU: T_with = max(Th, alpha), T_without = Th + alpha (section 5.1).
  ProgramBuilder b("one_gpu");
  b.type("Matrix", ir::ElemType::f32, 1 << 20);
  b.actor("Producer", "out Matrix m");
  b.actor("Inc", "in Matrix a; out Matrix b");
  b.actor("Consumer", "in Matrix m");
  b.host("A", 1, kMiB4 / 1e-3);
  b.node("p", "Producer", "A.cpu").node("i", "Inc", "A.g0").node("c", "Consumer", "A.cpu");
  b.edge("p.m", "i.a").edge("i.b", "c.m");
  ir::Program p = b.build();
  for (double alpha : {0.5, 1.0, 3.0}) {
    auto r = predict(p, costs_of(p, {0, alpha, 0}));
    CHECK(r[Strategy::overlap].period == Approx(std::max(1.0, alpha) * 1e-3 + 1e-4));
    CHECK(r[Strategy::no_overlap].period == Approx((1.0 + alpha) * 1e-3 + 1e-4));
  }
}

TEST_CASE("transfers sharing a link direction add up", "[mapping][cost-model]") {
  ir::Program p = piic().map("i2", "A.cpu").map("c", "A.g0").build();
  auto t = costs_of(p, {1.0, 1.5, 0.5, 0.2});
  auto r = predict(p, t);
  // A.cpu -> A.g0 carries p.m and i2.b: 2 ms, more than any PE's firings (A.g0: 1.7 ms).
  CHECK(r[Strategy::overlap].period == Approx(2.1e-3));
  const auto& top = *std::max_element(r[Strategy::overlap].resources.begin(),
                                      r[Strategy::overlap].resources.end(),
                                      [](const auto& a, const auto& b) { return a.load < b.load; });
  CHECK(top.name(p.arch) == "link A.cpu -> A.g0 (pcie)");
  // Without overlap both are in the one step: 2 ms, then the firings: 1.7 ms.
  CHECK(r[Strategy::no_overlap].period == Approx(3.8e-3));
}

TEST_CASE("a transfer step that costs nothing is set by nothing, not by a copy engine",
          "[mapping][cost-model]") {
  // Three cores of one host and no GPU: the tokens between them are shared memory, so each
  // transfer step costs nothing (the first resource slot past the firings is A.c0's H2D engine,
  // which the step's busiest resource used to name).
  ProgramBuilder b("cores");
  b.type("Matrix", ir::ElemType::f32, 1 << 20);
  b.actor("Producer", "out Matrix m");
  b.actor("Inc", "in Matrix a; out Matrix b");
  b.actor("Consumer", "in Matrix m");
  b.host("A", 0, 25e9, 3);
  b.node("p", "Producer", "A.c0").node("i", "Inc", "A.c1").node("c", "Consumer", "A.c2");
  b.edge("p.m", "i.a").edge("i.b", "c.m");
  ir::Program p = b.build();
  auto r = predict(p, costs_of(p, {1.0, 2.0, 1.0}));
  const auto& phases = r[Strategy::no_overlap].phases;
  REQUIRE(!phases.empty());
  for (std::size_t i = 0; i + 1 < phases.size(); ++i) {
    CHECK(phases[i].kind == mapping::Resource::Kind::none);
    CHECK(phases[i].name(p.arch) == "nothing");
  }
  CHECK(phases.back().name(p.arch) == "A.c1 firings");
}

TEST_CASE("link latency and per-direction figures", "[mapping][cost-model]") {
  ir::Program p = piic().build();
  auto t = costs_of(p, {0, 0, 0, 0});
  t.links[2][0].latency = 0.5e-3;  // the network, A.cpu -> B.cpu
  t.links[2][0].bandwidth = kMiB4 / 4e-3;
  auto r = predict(p, t);
  CHECK(r[Strategy::overlap].period == Approx(4.6e-3));
}

TEST_CASE("mapped tokens: a host copy of the CPU, no copy engine, as the plan moves them",
          "[mapping][cost-model][mapped]") {
  // P -> I -> C with 64-byte tokens: a copy costs 20 us of PCIe latency, a host copy 1 us.
  ProgramBuilder b("small");
  b.type("Small", ir::ElemType::f32, 16);
  b.actor("Producer", "out Small m");
  b.actor("Inc", "in Small a mappable; out Small b mappable");
  b.actor("Consumer", "in Small m");
  b.host("A", 1, 64e9);
  b.node("p", "Producer", "A.cpu").node("i", "Inc", "A.g0").node("c", "Consumer", "A.cpu");
  b.edge("p.m", "i.a").edge("i.b", "c.m");
  ir::Program p = b.build();
  auto t = costs_of(p, {0.004, 0.010, 0.004});
  t.overhead = {{0, 0}};
  for (auto& direction : t.links[0]) direction.latency = 20e-6;
  t.host_copies.assign(1, {mapping::LinkCost{64e6, 0}, mapping::LinkCost{64e6, 0}});
  const PlanOptions copied{.mapped_bytes = 0}, mapped{.mapped_bytes = 64};
  const auto ig = run_passes(p);
  auto c = mapping::predict(p, ig, t, copied);
  auto m = mapping::predict(p, ig, t, mapped);
  // Copied: each link direction and copy engine carries 20 us + 1 ns.
  CHECK(c[Strategy::overlap].period == Approx(20.001e-6));
  // Mapped: the CPU fires 8 us and copies 2 x 1 us; the GPU's 10 us is the bottleneck.
  CHECK(m[Strategy::overlap].period == Approx(10e-6));
  for (const auto& r : m[Strategy::overlap].resources) {
    INFO(r.name(p.arch));
    CHECK(r.kind != mapping::Resource::Kind::h2d);
    CHECK(r.kind != mapping::Resource::Kind::d2h);
    if (r.kind == mapping::Resource::Kind::pe && r.index == 0) CHECK(r.load == Approx(10e-6));
    if (r.kind == mapping::Resource::Kind::link) CHECK(r.load == Approx(1e-9));
  }
  // Without overlap, one transfer step: copied, its two transfers at once (20 us); mapped, the
  // CPU's two host copies one after the other (2 us). Then the firings (10 us).
  CHECK(c[Strategy::no_overlap].period == Approx(20.001e-6 + 10e-6));
  CHECK(m[Strategy::no_overlap].period == Approx(2e-6 + 10e-6));
  REQUIRE(m[Strategy::no_overlap].phases.size() == 2);
  CHECK(m[Strategy::no_overlap].phases[0].name(p.arch) == "A.cpu host copies");
  // A token above the threshold is copied, as the plan copies it.
  CHECK(mapping::predict(p, ig, t, {.mapped_bytes = 63})[Strategy::overlap].period ==
        c[Strategy::overlap].period);
  // The quick model agrees.
  for (const PlanOptions& plan : {copied, mapped}) {
    mapping::QuickModel quick(p, t, plan);
    auto fast = quick.evaluate(p.mapping.pe_of);
    auto full = mapping::predict(p, ig, t, plan);
    for (Strategy s : ir::kStrategies) CHECK(fast.period[s] == Approx(full[s].period));
  }
}

TEST_CASE("GPU memory capacity", "[mapping][cost-model]") {
  ir::Program p = piic().build();
  auto t = costs_of(p, {1, 1, 1, 1});
  t.capacity[1] = 3 * static_cast<std::int64_t>(kMiB4);  // A.g0: two single or double buffers
  auto r = predict(p, t);
  CHECK(r[Strategy::no_overlap].overflows.empty());
  CHECK(r[Strategy::overlap].overflows == std::vector<ir::PeId>{1});
}

TEST_CASE("the quick model agrees with the cost model on random mappings", "[mapping][quick]") {
  // Tokens of 1 to 8 MiB; then of 1 to 8 KiB, where those of at most 4 KiB between a CPU and a
  // GPU whose GPU ports are all `mappable` are mapped (no copy engine, a host copy of 2 us). The
  // quick model decides that per buffer, the plan per colour (quick_model.hpp): where buffer
  // sharing puts a small token's buffer in a colour with a larger one, they differ by about a copy
  // (a few us of 5 to 130 ms).
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const bool small = seed > 30;
    auto r = test::random_problem({.nodes = 5 + static_cast<int>(seed % 8),
                                   .pes = 3 + static_cast<int>(seed % 5),
                                   .seed = seed,
                                   .token_log2 = small ? 10 : 20});
    const mapping::LinkCost copy{1e9, 2e-6};
    r.costs.host_copies.assign(r.costs.links.size(), {copy, copy});
    mapping::QuickModel quick(r.program, r.costs);
    test::Lcg rng(seed);
    for (int trial = 0; trial < 5; ++trial) {
      ir::Program p = r.program;
      for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
        if (!p.dfg.nodes[n].candidates.empty())
          p.mapping.pe_of[n] =
              static_cast<ir::PeId>(rng.in(0, static_cast<int>(p.arch.pes.size()) - 1));
      auto full = predict(p, r.costs);
      auto fast = quick.evaluate(p.mapping.pe_of);
      INFO("seed " << seed << " trial " << trial);
      REQUIRE(fast.routable);
      for (Strategy s : ir::kStrategies) {
        CHECK(fast.period[s] == Approx(full[s].period).epsilon(small ? 1e-3 : 1e-12));
        CHECK(fast.latency[s] == full[s].latency_cycles);
      }
    }
  }
}

TEST_CASE("an edge between two cores of a host: the reading core pays a core read a cycle",
          "[mapping][cost-model]") {
  // s on c0 feeds f and g on c1 (one output: one read) and h on c2; h feeds k on c0.
  ProgramBuilder b("cores");
  b.type("Block", ir::ElemType::f32, 256);  // 1 KiB
  b.actor("Source", "out Block x");
  b.actor("Filter", "in Block x; out Block y");
  b.actor("Sink", "in Block x");
  b.host("A", 0, 25e9, 3);
  b.node("s", "Source", "A.c0").node("f", "Filter", "A.c1").node("g", "Filter", "A.c1");
  b.node("h", "Filter", "A.c2").node("k", "Sink", "A.c0");
  b.edge("s.x", "f.x").edge("s.x", "g.x").edge("s.x", "h.x").edge("h.y", "k.x");
  ir::Program p = b.build();
  auto t = costs_of(p, {0.001, 0.001, 0.001, 0.001, 0.001});  // 1 us each
  // 0.5 us + 1024 B at 1.024 GB/s (1 us) a read
  t.core_reads.assign(1, mapping::LinkCost{1.024e9, 0.5e-6});
  auto r = predict(p, t);
  for (Strategy s : ir::kStrategies) {
    // c1: f and g (2 us) and one read of s.x (1.5 us); c2: h and a read; c0: s, k and h.y's read.
    CHECK(r[s].period == Approx(3.5e-6 + 1e-4));
  }
  auto load = [&](const char* pe) {
    for (const mapping::Resource& x : r[Strategy::overlap].resources)
      if (x.kind == mapping::Resource::Kind::pe && p.arch.pes[x.index].name == pe) return x.load;
    return -1.0;
  };
  CHECK(load("A.c0") == Approx(3.5e-6));
  CHECK(load("A.c1") == Approx(3.5e-6));
  CHECK(load("A.c2") == Approx(2.5e-6));
  // The quick model charges the same.
  mapping::QuickModel quick(p, t);
  CHECK(quick.evaluate(p.mapping.pe_of).period[Strategy::overlap] ==
        Approx(r[Strategy::overlap].period));
  // Without figures (a table built by hand): reads cost nothing.
  t.core_reads.clear();
  CHECK(predict(p, t)[Strategy::overlap].period == Approx(2e-6 + 1e-4));
}
