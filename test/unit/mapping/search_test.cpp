#include <catch2/catch.hpp>

#include <limits>

#include "mapping/search.hpp"
#include "passes/pipeline.hpp"
#include "random_problems.hpp"

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
