#include <catch2/catch.hpp>

#include "passes/buffer_depth.hpp"
#include "passes/fixtures.hpp"
#include "passes/ig_helpers.hpp"
#include "passes/latency.hpp"
#include "passes/simulate.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using ir::Strategy;

TEST_CASE("depth: double where a buffer crosses PEs with overlap, single otherwise",
          "[buffer_depth]") {
  ir::Program p = test::paper_example().build();
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  BufferDepths depths = buffer_depth(plan);
  for (ir::BufferId b = 0; b < plan.buffers.size(); ++b) {
    const PlannedBuffer& buf = plan.buffers[b];
    bool crosses = buf.in || !buf.out.empty();
    CAPTURE(buf.name);
    CHECK(depths[Strategy::overlap][b] == (crosses ? 2u : 1u));
    CHECK(depths[Strategy::no_overlap][b] == 1u);
  }
  CHECK(depths[Strategy::overlap][0] == 2);  // p.o@A.cpu sends to A.g0
  CHECK(dump(depths, plan).find("overlap d.o@A.g1 depth 1\n") != std::string::npos);
}

TEST_CASE("latency of P-I-I-C: double buffers with overlap, PE pairs without", "[latency]") {
  ir::Program p = test::piic().build();
  ir::Ig ig = run_passes(p);
  const ir::IgStrategy& with = ig[Strategy::overlap];
  const ir::IgStrategy& without = ig[Strategy::no_overlap];
  // p -> i1: 2 double buffers; i1 -> i2: 4 (A.g0, A.cpu, B.cpu, B.g0); i2 -> c: 2.
  CHECK(test::latency_of(p, with, "p") == 0);
  CHECK(test::latency_of(p, with, "i1") == 2);
  CHECK(test::latency_of(p, with, "i2") == 6);
  CHECK(test::latency_of(p, with, "c") == 8);
  // Without overlap: one cycle per pair of buffers on different PEs.
  CHECK(test::latency_of(p, without, "i1") == 1);
  CHECK(test::latency_of(p, without, "i2") == 4);
  CHECK(test::latency_of(p, without, "c") == 5);
  // Transfers: hop h of node m's output first moves a valid token at L(m) + h.
  for (const ir::IgStrategy* s : {&with, &without})
    for (const ir::IgTransfer& t : s->transfers) {
      const ir::IgBuffer& to = s->buffers[t.to];
      CHECK(t.first_cycle == s->firings[to.node].latency + to.hop);
    }
  // Without overlap the farthest hops go first: 3 steps for the 3-hop i1.b route.
  CHECK(without.transfer_steps == 3);
  for (const ir::IgTransfer& t : without.transfers) CHECK(t.step == 3 - without.buffers[t.to].hop);
  CHECK(with.transfer_steps == 1);
  for (const ir::IgTransfer& t : with.transfers) CHECK(t.step == 0);
  for (Strategy s : ir::kStrategies) {
    test::SimReport r = test::simulate(p, ig[s], 20);
    CHECK(r.errors.empty());
    CHECK(r.firings[test::node_named(p, "c")] == 20 - test::latency_of(p, ig[s], "c"));
  }
}

TEST_CASE("latency: a consumer on the producer's PE reads in the same cycle", "[latency]") {
  ir::Program p = test::paper_example().build();
  ir::Ig ig = run_passes(p);
  const ir::IgStrategy& with = ig[Strategy::overlap];
  // b's buffer is double (it sends to c1, c2) but d, on b's PE, reads it at once.
  CHECK(test::latency_of(p, with, "b") == 5);
  CHECK(test::latency_of(p, with, "d") == 5);
  CHECK(test::latency_of(p, with, "c1") == 5 + 3);
  CHECK(test::latency_of(p, with, "c2") == 5 + 4);
  CHECK(test::latency_of(p, ig[Strategy::no_overlap], "c2") == 3 + 3);
  for (Strategy s : ir::kStrategies) CHECK(test::simulate(p, ig[s], 24).errors.empty());
}
