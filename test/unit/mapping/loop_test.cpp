// A feedback loop between two nodes that may each run on either GPU of one host. Split over the
// two GPUs the loads halve, but the loop's tokens then cross two NVLink transfers: 4 cycles with
// overlap. With one initial token the split cannot run and the search keeps the loop on one GPU,
// reporting the split it left out with the loop's numbers; with four it splits.
#include <catch2/catch.hpp>

#include "mapping/cost_model.hpp"
#include "mapping/quick_model.hpp"
#include "mapping/search.hpp"
#include "passes/insert_buffers.hpp"
#include "passes/latency.hpp"
#include "passes/program_builder.hpp"
#include "passes/schedule.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using dfgc::ir::Strategy;

namespace {

struct LoopProblem {
  ir::Program program;
  mapping::CostTable costs;
  ir::PeId g0 = 0, g1 = 0;
};

/// s -> f -> k on A.cpu and A.g*, with f.n -> g.i and g.o -> f.s carrying `delay` tokens; f and g
/// free on A.g0 and A.g1, 4 ms a firing on either, tokens of 4 KiB.
LoopProblem loop_problem(std::uint32_t delay) {
  test::ProgramBuilder b("loop");
  b.type("T", ir::ElemType::f32, 1024);
  b.host("A", 2, 12e9).link("A.g0", "A.g1", ir::LinkKind::nvlink, 50e9);
  b.actor("Src", "out T o")
      .actor("F", "in T i; in T s; out T o; out T n")
      .actor("G", "in T i; out T o");
  b.actor("Sink", "in T i");
  b.node("s", "Src", "A.cpu")
      .node("f", "F", "A.g0")
      .node("g", "G", "A.g0")
      .node("k", "Sink", "A.cpu");
  b.edge("s.o", "f.i").edge("f.o", "k.i").edge("f.n", "g.i").edge("g.o", "f.s", delay);
  LoopProblem r;
  r.program = b.build();
  ir::Program& p = r.program;
  for (const ir::Pe& pe : p.arch.pes)
    if (pe.kind == ir::PeKind::gpu)
      (pe.local_name == "g0" ? r.g0 : r.g1) = static_cast<ir::PeId>(&pe - p.arch.pes.data());
  for (ir::NodeId n : {ir::NodeId{1}, ir::NodeId{2}}) p.dfg.nodes[n].candidates = {r.g0, r.g1};
  const std::size_t pes = p.arch.pes.size();
  r.costs.firing.assign(p.dfg.nodes.size(), std::vector<std::optional<double>>(pes));
  for (std::size_t n = 0; n < p.dfg.nodes.size(); ++n)
    for (ir::PeId pe = 0; pe < pes; ++pe) r.costs.firing[n][pe] = n == 1 || n == 2 ? 4e-3 : 1e-4;
  for (const ir::Link& l : p.arch.links)
    r.costs.links.push_back(
        {mapping::LinkCost{l.bandwidth, 5e-6}, mapping::LinkCost{l.bandwidth, 5e-6}});
  r.costs.capacity.assign(pes, std::nullopt);
  r.costs.overhead = {{1e-4, 1e-4}};
  return r;
}

Latencies latency_of(const ir::Program& p) {
  return compute_latency(p.dfg, schedule(p.dfg, p.arch, p.mapping),
                         insert_buffers(p.dfg, p.arch, p.mapping));
}

mapping::SearchOptions exact() {
  mapping::SearchOptions o;
  o.method = mapping::SearchOptions::Method::exact;
  return o;
}

}  // namespace

TEST_CASE("a tight loop stays on one GPU; the split it rules out is reported with its numbers",
          "[mapping][loops]") {
  LoopProblem r = loop_problem(1);
  auto found = mapping::search(r.program, r.costs, exact());
  REQUIRE(!found.best.empty());
  const mapping::Candidate& best = found.best.front();
  CHECK(best.pe_of[1] == best.pe_of[2]);  // f and g together
  // Every mapping the search keeps runs: the passes find its loop covered.
  for (const mapping::Candidate& c : found.best) {
    ir::Program m = mapping::with_mapping(r.program, c.pe_of);
    CHECK(c.pe_of[1] == c.pe_of[2]);
    CHECK(!uncovered_strategy(latency_of(m)));
  }
  // The split has the lower loads but its loop takes 4 cycles with overlap on 1 token.
  REQUIRE(found.loop_refused == 2);  // f, g on g0, g1 and on g1, g0
  REQUIRE(found.loop_best);
  const mapping::LoopRefusal& x = *found.loop_best;
  CHECK(x.candidate.pe_of[1] != x.candidate.pe_of[2]);
  CHECK(x.candidate.period < best.period);
  CHECK(x.strategy == Strategy::overlap);
  CHECK(x.loop.cycles() == 4);
  CHECK(x.loop.tokens == 1);
  CHECK(x.loop.transfers() == 2);
  CHECK(x.loop.edges.size() == 2);
  CHECK(x.bound == Approx(4 * x.candidate.period));
  CHECK(x.bound > best.period);  // the loop bound makes the split lose
  // The cost model, on the implementation graph, agrees with the quick model's loads.
  ir::Program split = mapping::with_mapping(r.program, x.candidate.pe_of);
  auto latency = latency_of(split);
  REQUIRE(uncovered_strategy(latency) == Strategy::overlap);
  CHECK(latency[Strategy::overlap].uncovered->cycles() == 4);
}

TEST_CASE("a loop with the tokens its split takes is split", "[mapping][loops]") {
  LoopProblem r = loop_problem(4);
  auto found = mapping::search(r.program, r.costs, exact());
  REQUIRE(!found.best.empty());
  const mapping::Candidate& best = found.best.front();
  CHECK(best.pe_of[1] != best.pe_of[2]);
  CHECK(found.loop_refused == 0);
  CHECK(!found.loop_best);
  // Half the local mapping's period, give or take the transfers and the overhead.
  LoopProblem local = loop_problem(4);
  std::vector<ir::PeId> together = best.pe_of;
  together[2] = together[1];
  ir::Program m = mapping::with_mapping(local.program, together);
  double local_period = mapping::predict(m, run_passes(m), local.costs)[Strategy::overlap].period;
  CHECK(best.period < 0.6 * local_period);
  // Without overlap the loop takes 2 cycles (a transfer each way): 4 tokens cover it too.
  mapping::SearchOptions o = exact();
  o.strategy = Strategy::no_overlap;
  auto no = mapping::search(r.program, r.costs, o);
  REQUIRE(!no.best.empty());
  CHECK(no.best.front().pe_of[1] != no.best.front().pe_of[2]);
}
