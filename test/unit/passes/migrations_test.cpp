#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "passes/fixtures.hpp"
#include "passes/ig_helpers.hpp"
#include "passes/migrations.hpp"
#include "passes/simulate.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using dfgc::test::node_named;
using dfgc::test::ProgramBuilder;

namespace {

/// The task-migration paper's figures 5-7: producer -> dummy-cpu -> dummy-gpu -> dummy-cpu ->
/// consumer, all on host A's CPU but dummy-gpu; host A has two GPUs, host B one, the CPUs on a
/// network link.
ProgramBuilder migration_paper(const char* gpu) {
  ProgramBuilder b("dummy");
  b.type("Frame", ir::ElemType::f32, 512 * 512);
  test::add_generic_actors(b, "Frame");
  b.host("A", 2).host("B", 1).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.node("producer", "Source", "A.cpu").node("dummy_cpu", "Map", "A.cpu");
  b.node("dummy_gpu", "Map", gpu).node("dummy_cpu2", "Map", "A.cpu");
  b.node("consumer", "Sink", "A.cpu");
  b.edge("producer.o", "dummy_cpu.i")
      .edge("dummy_cpu.o", "dummy_gpu.i")
      .edge("dummy_gpu.o", "dummy_cpu2.i")
      .edge("dummy_cpu2.o", "consumer.i");
  return b;
}

struct PaperCase {
  ir::Program program;
  ir::Ig base;
  Migration migration;
};

PaperCase paper_case(const char* from, const char* to, ShortPathPolicy policy) {
  ir::Program p = migration_paper(from).build();
  ir::Ig base = run_passes(p);
  Migration m = plan_migration(p, base, node_named(p, "dummy_gpu"), *p.arch.find_pe(to), policy);
  return {std::move(p), std::move(base), std::move(m)};
}

/// The paper's length of a path in iterations: with its rule (no overlap, one cycle per pair of
/// connected buffer nodes) the cycles from dummy-cpu's firing to dummy-cpu2's, plus the one in
/// which dummy-cpu fires.
std::uint32_t path_length(const ir::Program& p, const ir::IgStrategy& g) {
  return g.firings[node_named(p, "dummy_cpu2")].latency -
         g.firings[node_named(p, "dummy_cpu")].latency + 1;
}

/// The stop weight of an old-only firing and the start weight of the new-only one of `node`,
/// for a switch at iteration j: the cycles in which the old instance stops and the new starts.
std::pair<std::uint32_t, std::uint32_t> weights(const PaperCase& c, ir::Strategy s,
                                                const char* node, std::uint32_t j) {
  const MigrationSide& side = c.migration.sides[s];
  ir::NodeId n = node_named(c.program, node);
  std::uint32_t stop = c.base[s].firings[n].latency + j;
  std::uint32_t start = c.migration.ig[s].firings[n].latency + side.delta + j;
  return {stop, start};
}

void check_run(const ir::Program& p, const ir::IgStrategy& base, const Migration& m, ir::Strategy s,
               std::int64_t j, std::int64_t iterations) {
  test::MigrationRun run = test::simulate_migration(p, base, m, s, j, iterations);
  INFO("switch at " << j << ", " << ir::to_string(s));
  CHECK(run.errors == std::vector<std::string>{});
  const MigrationSide& side = m.sides[s];
  std::vector<bool> source(p.dfg.nodes.size(), true), sink(p.dfg.nodes.size(), true);
  for (const ir::Edge& e : p.dfg.edges) {
    source[e.dst] = false;
    sink[e.src] = false;
  }
  std::vector<std::int64_t> all(static_cast<std::size_t>(iterations));
  std::iota(all.begin(), all.end(), 0);
  std::uint32_t measured_gap = 0;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    INFO("node " << p.dfg.nodes[n].name);
    CHECK(run.iterations[n] == all);
    CHECK(std::is_sorted(run.cycles[n].begin(), run.cycles[n].end()));
    if (j <= 0 || j >= iterations || run.cycles[n].size() != all.size()) continue;
    auto idle = static_cast<std::uint32_t>(run.cycles[n][static_cast<std::size_t>(j)] -
                                           run.cycles[n][static_cast<std::size_t>(j - 1)] - 1);
    CHECK(idle == side.idle[n]);
    if (source[n]) CHECK(idle == side.delta);
    if (sink[n]) measured_gap = std::max(measured_gap, idle);
  }
  if (j > 0 && j < iterations) CHECK(measured_gap == side.gap);
}

}  // namespace

TEST_CASE("paper figure 5: paths of equal length, nothing pauses", "[passes][migrations]") {
  PaperCase c = paper_case("A.g0", "A.g1", ShortPathPolicy::pause);
  const ir::Strategy s = ir::Strategy::no_overlap;
  CHECK(path_length(c.program, c.base[s]) == 3);
  CHECK(path_length(c.program, c.migration.ig[s]) == 3);
  for (ir::Strategy t : ir::kStrategies) {
    const MigrationSide& side = c.migration.sides[t];
    CHECK(side.k == 0);
    CHECK(side.delta == 0);
    CHECK(side.gap == 0);
    CHECK(side.padding == 0);
    // The consumer is fed by the new path from the iteration after the old one's last.
    auto [stop, start] = weights(c, t, "consumer", 25);
    CHECK(start == stop);
  }
  // The new path's entries: dummy-gpu on A.g1 and its transfers.
  const MigrationSide& side = c.migration.sides[s];
  std::vector<std::string> fresh;
  for (const MigrationEntry& e : side.new_only)
    fresh.push_back(entry_text(c.migration.program, c.migration.ig[s], e));
  CHECK(std::count(fresh.begin(), fresh.end(), "fire dummy_gpu@A.g1") == 1);
  CHECK(side.extra_bytes[*c.program.arch.find_pe("A.g1")] > 0);
  CHECK(side.extra_bytes[*c.program.arch.find_pe("A.g0")] == 0);
}

TEST_CASE("paper figure 6: a shorter path pauses the upstream or is padded",
          "[passes][migrations]") {
  const ir::Strategy s = ir::Strategy::no_overlap;
  PaperCase c = paper_case("B.g0", "A.g0", ShortPathPolicy::pause);
  CHECK(path_length(c.program, c.base[s]) == 5);
  CHECK(path_length(c.program, c.migration.ig[s]) == 3);
  for (ir::Strategy t : ir::kStrategies) {
    const MigrationSide& side = c.migration.sides[t];
    INFO(ir::to_string(t));
    // The paper: the upstream stops 2 iterations, the downstream is fed continuously.
    CHECK(side.k == 2);
    CHECK(side.delta == 2);
    CHECK(side.idle[node_named(c.program, "producer")] == 2);
    CHECK(side.gap == 0);
    auto [stop, start] = weights(c, t, "consumer", 25);
    CHECK(start == stop);
  }
  // The paper: the consumer switches to the new path 5 iterations after the migration begins
  // (counted, as its path lengths, with the iteration it begins in).
  const MigrationSide& side = c.migration.sides[s];
  CHECK(c.migration.ig[s].firings[node_named(c.program, "consumer")].latency + side.delta + 1 == 5);

  PaperCase padded = paper_case("B.g0", "A.g0", ShortPathPolicy::pad);
  for (ir::Strategy t : ir::kStrategies) {
    const MigrationSide& side = padded.migration.sides[t];
    INFO(ir::to_string(t));
    CHECK(side.k == 2);
    CHECK(side.padding == 2);
    CHECK(side.delta == 0);
    CHECK(side.gap == 0);
    for (std::uint32_t idle : side.idle) CHECK(idle == 0);
    // The padding: delay lines of 2 cycles in all along the new path, new-only storage.
    std::uint32_t slots = 0;
    const ir::IgStrategy& g1 = padded.migration.ig[t];
    for (ir::BufferId b = 0; b < g1.buffers.size(); ++b)
      if (g1.buffers[b].delay_edge) {
        slots += g1.buffers[b].depth;
        CHECK(side.base_buffer[b] == -1);
      }
    CHECK(slots == 2);
  }
}

TEST_CASE("paper figure 7: a longer path leaves a gap in the output", "[passes][migrations]") {
  const ir::Strategy s = ir::Strategy::no_overlap;
  for (ShortPathPolicy policy : {ShortPathPolicy::pad, ShortPathPolicy::pause}) {
    PaperCase c = paper_case("A.g0", "B.g0", policy);
    CHECK(path_length(c.program, c.base[s]) == 3);
    CHECK(path_length(c.program, c.migration.ig[s]) == 5);
    for (ir::Strategy t : ir::kStrategies) {
      const MigrationSide& side = c.migration.sides[t];
      INFO(ir::to_string(t));
      CHECK(side.k == 0);
      CHECK(side.padding == 0);
      CHECK(side.delta == 0);
      CHECK(side.gap == 2);
      CHECK(side.idle[node_named(c.program, "producer")] == 0);
      // The paper's downstream weights: stop 4, start 6, a gap of 2 iterations.
      auto [stop, start] = weights(c, t, "consumer", 25);
      CHECK(start - stop == 2);
    }
  }
}

TEST_CASE("the paper's cases run through the switch on the simulator", "[passes][migrations]") {
  for (auto [from, to] : {std::pair{"A.g0", "A.g1"}, {"B.g0", "A.g0"}, {"A.g0", "B.g0"}})
    for (ShortPathPolicy policy : {ShortPathPolicy::pad, ShortPathPolicy::pause}) {
      PaperCase c = paper_case(from, to, policy);
      INFO(from << " -> " << to << " " << to_string(policy));
      for (ir::Strategy s : ir::kStrategies)
        for (std::int64_t j : {0, 1, 3, 7, 19, 25})
          check_run(c.program, c.base[s], c.migration, s, j, 20);
    }
}

/// 1 to 3 hosts of 0 to 3 GPUs each (PCIe to their CPU, NVLink between g0 and g1 on some), the
/// CPUs in a chain of network links.
std::function<void(ProgramBuilder&)> random_arch(std::uint32_t seed) {
  return [seed](ProgramBuilder& b) {
    std::mt19937 rng(seed * 7919u);
    const int hosts = 1 + static_cast<int>(rng() % 3);
    for (int h = 0; h < hosts; ++h) {
      const std::string name(1, static_cast<char>('A' + h));
      const int gpus = static_cast<int>(rng() % 4);
      b.host(name, gpus);
      if (gpus >= 2 && rng() % 2 == 0)
        b.link(name + ".g0", name + ".g1", ir::LinkKind::nvlink, 50e9);
      if (h > 0)
        b.link(std::string(1, static_cast<char>('A' + h - 1)) + ".cpu", name + ".cpu",
               ir::LinkKind::net, 2.6e9);
    }
  };
}

TEST_CASE("migrations of random graphs keep every token and predict every pause and gap",
          "[passes][migrations][property]") {
  for (std::uint32_t seed = 1; seed <= 48; ++seed) {
    const int nodes = 4 + static_cast<int>(seed % 9);
    ir::Program p = seed % 2 == 0
                        ? test::random_program(seed, nodes).build()
                        : test::random_program(seed, nodes, 20, random_arch(seed)).build();
    if (p.arch.pes.size() < 2) continue;
    ir::Ig base = run_passes(p);
    std::mt19937 rng(seed);
    for (int move = 0; move < 2; ++move) {
      auto node = static_cast<ir::NodeId>(rng() % p.dfg.nodes.size());
      auto to = static_cast<ir::PeId>(rng() % p.arch.pes.size());
      if (to == p.mapping.pe_of[node]) to = static_cast<ir::PeId>((to + 1) % p.arch.pes.size());
      for (ShortPathPolicy policy : {ShortPathPolicy::pad, ShortPathPolicy::pause}) {
        Migration m = plan_migration(p, base, node, to, policy);
        for (ir::Strategy s : ir::kStrategies) {
          std::int64_t latency = 0;
          for (const ir::IgFiring& f : base[s].firings)
            latency = std::max<std::int64_t>(latency, f.latency);
          const std::int64_t iterations = latency + 6;
          INFO("seed " << seed << ", " << p.dfg.nodes[node].name << " -> " << p.arch.pes[to].name
                       << ", " << to_string(policy));
          for (std::int64_t j : {std::int64_t{0}, std::int64_t{1}, latency - 1, latency,
                                 iterations - 1, iterations + 3})
            check_run(p, base[s], m, s, std::max<std::int64_t>(j, 0), iterations);
        }
      }
    }
  }
}

TEST_CASE("schedule.txt's section names the entries and the cost of each alternative",
          "[passes][migrations]") {
  ir::Program p = migration_paper("B.g0").build();
  p.dfg.nodes[node_named(p, "dummy_gpu")].alternatives = {{*p.arch.find_pe("A.g0"), {}}};
  ir::Ig base = run_passes(p);
  Migrations all = plan_migrations(p, base, ShortPathPolicy::pause);
  REQUIRE(all.alternatives.size() == 1);
  std::string text = dump(all, p, base);
  CHECK(text.find("migration dummy_gpu : B.g0 -> A.g0 (shorter path: pause)\n") == 0);
  CHECK(text.find("  no-overlap: k 2 padding 0 delta 2 pause 2 gap 0 (iterations)") !=
        std::string::npos);
  CHECK(text.find("    new-only fire dummy_gpu@A.g0 from cycle 1 + 2 (delta)") !=
        std::string::npos);
  CHECK(text.find("    old-only fire dummy_gpu@B.g0 from cycle 2, stops at iteration j*") !=
        std::string::npos);
  CHECK(text.find("extra") != std::string::npos);
  CHECK(dump(all, p, base) == text);
}

TEST_CASE("neighbours' moves that change common entries get a joint alternative, on one host",
          "[passes][migrations]") {
  // The paper's chain on one host of two GPUs: dummy_gpu may move to A.g1, dummy_cpu2 to A.g0;
  // both moves change the transfer between them.
  ProgramBuilder b("dummy");
  b.type("Frame", ir::ElemType::f32, 64 * 64);
  test::add_generic_actors(b, "Frame");
  b.host("A", 2);
  b.node("producer", "Source", "A.cpu").node("dummy_cpu", "Map", "A.cpu");
  b.node("dummy_gpu", "Map", "A.g0").node("dummy_cpu2", "Map", "A.cpu");
  b.node("consumer", "Sink", "A.cpu");
  b.edge("producer.o", "dummy_cpu.i")
      .edge("dummy_cpu.o", "dummy_gpu.i")
      .edge("dummy_gpu.o", "dummy_cpu2.i")
      .edge("dummy_cpu2.o", "consumer.i");
  ir::Program p = b.build();
  p.dfg.nodes[node_named(p, "dummy_gpu")].alternatives = {{*p.arch.find_pe("A.g1"), {}}};
  p.dfg.nodes[node_named(p, "dummy_cpu2")].alternatives = {{*p.arch.find_pe("A.g0"), {}}};
  ir::Ig base = run_passes(p);
  Migrations all = plan_migrations(p, base, ShortPathPolicy::pad);
  REQUIRE(all.alternatives.size() == 3);
  CHECK(all.alternatives[0].parts.empty());
  CHECK(all.alternatives[1].parts.empty());
  const Migration& joint = all.alternatives[2];
  CHECK(joint.parts == std::vector<std::size_t>{0, 1});
  CHECK(joint.program.mapping.pe_of[node_named(p, "dummy_gpu")] == *p.arch.find_pe("A.g1"));
  CHECK(joint.program.mapping.pe_of[node_named(p, "dummy_cpu2")] == *p.arch.find_pe("A.g0"));
  CHECK(all.unplanned.empty());
  // The joint switches from the base like any alternative: every token once, on the simulator.
  for (ir::Strategy s : ir::kStrategies)
    for (std::int64_t j : {0, 1, 3, 7}) check_run(p, base[s], joint, s, j, 20);
  const std::string text = dump(all, p, base);
  CHECK(text.find("joint migration dummy_gpu:A.g1 + dummy_cpu2:A.g0 (shorter path: pad)\n") !=
        std::string::npos);
  CHECK(text.find("alternatives: 2 single, 1 joint\n") != std::string::npos);
  // --joints=0: the set is listed, and a run refuses the two moves together.
  Migrations none = plan_migrations(p, base, ShortPathPolicy::pad, 0);
  CHECK(none.alternatives.size() == 2);
  REQUIRE(none.unplanned.size() == 1);
  CHECK(none.unplanned[0] ==
        "dummy_gpu:A.g1 + dummy_cpu2:A.g0: more than 0 joint alternatives (--joints)");
  // On two hosts a line moves one node: no joint.
  ir::Program two = migration_paper("A.g0").build();
  two.dfg.nodes[node_named(two, "dummy_gpu")].alternatives = {{*two.arch.find_pe("A.g1"), {}}};
  two.dfg.nodes[node_named(two, "dummy_cpu2")].alternatives = {{*two.arch.find_pe("B.cpu"), {}}};
  ir::Ig two_base = run_passes(two);
  CHECK(plan_migrations(two, two_base, ShortPathPolicy::pad).alternatives.size() == 2);
}
