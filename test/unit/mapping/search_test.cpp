#include <catch2/catch.hpp>

#include <limits>
#include <set>
#include <string>

#include "mapping/search.hpp"
#include "random_problems.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using dfgc::ir::Strategy;

namespace {

/// The best score over every mapping of the free nodes, each built with the passes.
double brute_force(const test::RandomProblem& r, const mapping::SearchOptions& o) {
  const ir::Program& p = r.program;
  std::vector<ir::NodeId> free;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
    if (!p.dfg.nodes[n].candidates.empty()) free.push_back(n);
  std::vector<std::size_t> digit(free.size(), 0);
  double best = std::numeric_limits<double>::infinity();
  for (;;) {
    std::vector<ir::PeId> pe_of = p.mapping.pe_of;
    for (std::size_t i = 0; i < free.size(); ++i)
      pe_of[free[i]] = p.dfg.nodes[free[i]].candidates[digit[i]];
    ir::Program m = mapping::with_mapping(p, pe_of);
    auto pred = mapping::predict(m, run_passes(m), r.costs)[o.strategy];
    bool ok = !o.max_latency_cycles || pred.latency_cycles <= *o.max_latency_cycles;
    double score = o.objective == mapping::Objective::period ? pred.period
                   : o.objective == mapping::Objective::latency
                       ? pred.latency
                       : static_cast<double>(pred.peak_memory);
    if (ok) best = std::min(best, score);
    std::size_t i = 0;
    while (i < free.size() && ++digit[i] == p.dfg.nodes[free[i]].candidates.size()) digit[i++] = 0;
    if (i == free.size()) break;
  }
  return best;
}

}  // namespace

TEST_CASE("exact search finds the brute-force optimum", "[mapping][search]") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    auto r = test::random_problem({.nodes = 4 + static_cast<int>(seed % 3),
                                   .pes = 3 + static_cast<int>(seed % 2),
                                   .seed = seed});
    for (auto objective :
         {mapping::Objective::period, mapping::Objective::latency, mapping::Objective::memory}) {
      for (Strategy s : ir::kStrategies) {
        mapping::SearchOptions o;
        o.objective = objective;
        o.strategy = s;
        o.method = mapping::SearchOptions::Method::exact;
        auto found = mapping::search(r.program, r.costs, o);
        INFO("seed " << seed << " objective " << static_cast<int>(objective) << " strategy "
                     << ir::to_string(s));
        REQUIRE(found.exact);
        REQUIRE(!found.best.empty());
        CHECK(found.best.front().score == Approx(brute_force(r, o)).epsilon(1e-12));
        for (std::size_t i = 1; i < found.best.size(); ++i)
          CHECK(found.best[i - 1].score <= found.best[i].score);
      }
    }
  }
}

TEST_CASE("a latency bound is respected and can make the search give up", "[mapping][search]") {
  auto r = test::random_problem({.nodes = 6, .pes = 4, .seed = 3});
  mapping::SearchOptions o;
  o.method = mapping::SearchOptions::Method::exact;
  o.max_latency_cycles = 3;
  auto found = mapping::search(r.program, r.costs, o);
  REQUIRE(!found.best.empty());
  for (const auto& c : found.best) CHECK(c.latency_cycles <= 3);
  CHECK(found.best.front().score == Approx(brute_force(r, o)).epsilon(1e-12));
  o.max_latency_cycles = 0;  // source and sink are on different hosts: impossible
  CHECK(mapping::search(r.program, r.costs, o).best.empty());
}

TEST_CASE("a GPU's memory capacity rules mappings out", "[mapping][search]") {
  auto r = test::random_problem({.nodes = 6, .pes = 4, .seed = 5});
  mapping::SearchOptions o;
  o.method = mapping::SearchOptions::Method::exact;
  auto free = mapping::search(r.program, r.costs, o);
  REQUIRE(!free.best.empty());
  // Cap every GPU below what the best mapping needs there.
  ir::Program best = mapping::with_mapping(r.program, free.best.front().pe_of);
  auto pred = mapping::predict(best, run_passes(best), r.costs)[Strategy::overlap];
  for (ir::PeId pe = 0; pe < best.arch.pes.size(); ++pe)
    if (best.arch.pes[pe].kind == ir::PeKind::gpu && pred.memory[pe] > 0)
      r.costs.capacity[pe] = pred.memory[pe] - 1;
  auto capped = mapping::search(r.program, r.costs, o);
  REQUIRE(!capped.best.empty());
  CHECK(capped.best.front().pe_of != free.best.front().pe_of);
  CHECK(capped.best.front().score >= free.best.front().score);
}

TEST_CASE("the searches are deterministic", "[mapping][search]") {
  auto r = test::random_problem({.nodes = 12, .pes = 5, .seed = 9});
  for (auto method :
       {mapping::SearchOptions::Method::exact, mapping::SearchOptions::Method::heuristic}) {
    mapping::SearchOptions o;
    o.method = method;
    auto a = mapping::search(r.program, r.costs, o);
    auto b = mapping::search(r.program, r.costs, o);
    REQUIRE(a.best.size() == b.best.size());
    for (std::size_t i = 0; i < a.best.size(); ++i) {
      CHECK(a.best[i].pe_of == b.best[i].pe_of);
      CHECK(a.best[i].score == b.best[i].score);
    }
    CHECK(a.evaluated == b.evaluated);
  }
}

TEST_CASE("any cpu spreads nodes over the cores of a host, which fire at once",
          "[mapping][search]") {
  // src @ A.c0 feeds four filters free on any of A's four cpus; a sink @ A.c0 reads them all.
  test::ProgramBuilder b("bank");
  b.type("T", ir::ElemType::f32, 1 << 16);
  b.actor("Src", "out T o")
      .actor("Fir", "in T x; out T y")
      .actor("Sink", "in T a; in T b; in T c; in T d");
  b.host("A", 0, 25e9, 4);
  b.node("src", "Src", "A.c0");
  for (const char* f : {"f0", "f1", "f2", "f3"}) b.node(f, "Fir", "A.c0");
  b.node("sink", "Sink", "A.c0");
  for (const char* f : {"f0", "f1", "f2", "f3"}) b.edge("src.o", std::string(f) + ".x");
  b.edge("f0.y", "sink.a").edge("f1.y", "sink.b").edge("f2.y", "sink.c").edge("f3.y", "sink.d");
  ir::Program p = b.build();
  const std::size_t pes = p.arch.pes.size();
  for (ir::NodeId n = 1; n <= 4; ++n)
    for (ir::PeId pe = 0; pe < pes; ++pe) p.dfg.nodes[n].candidates.push_back(pe);
  mapping::CostTable costs;
  costs.firing.assign(p.dfg.nodes.size(), std::vector<std::optional<double>>(pes, 1e-4));
  for (ir::NodeId n = 1; n <= 4; ++n) costs.firing[n].assign(pes, 4e-3);
  costs.capacity.assign(pes, std::nullopt);
  costs.overhead = {{1e-5, 1e-5}};
  for (auto method :
       {mapping::SearchOptions::Method::exact, mapping::SearchOptions::Method::heuristic}) {
    for (Strategy s : ir::kStrategies) {
      CAPTURE(static_cast<int>(method), ir::to_string(s));
      mapping::SearchOptions o;
      o.strategy = s;
      o.method = method;
      auto found = mapping::search(p, costs, o);
      REQUIRE(!found.best.empty());
      const mapping::Candidate& best = found.best.front();
      // One filter a core: the period is one filter and the pinned nodes on A.c0, not four.
      std::set<ir::PeId> used;
      for (ir::NodeId n = 1; n <= 4; ++n) used.insert(best.pe_of[n]);
      CHECK(used.size() == 4);
      CHECK(best.period == Approx(4e-3 + 2e-4 + 1e-5));
      // The filters read src's block in place and the sink theirs: no transfer, one cycle each.
      ir::Program chosen = mapping::with_mapping(p, best.pe_of);
      ir::Ig ig = run_passes(chosen);
      CHECK(ig[s].transfers.empty());
      CHECK(best.latency_cycles == 2);
      // The host's memory is counted once, under its first cpu.
      auto pred = mapping::predict(chosen, ig, costs)[s];
      std::int64_t total = 0;
      for (const ir::MemoryReport& m : ig[s].memory) total += m.after;
      CHECK(pred.memory[0] == total);
      for (ir::PeId pe = 1; pe < pes; ++pe) CHECK(pred.memory[pe] == 0);
    }
  }
}
