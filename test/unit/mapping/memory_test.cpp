// Byte counts past 2^63 - 1: the colouring, the memory report and dfgc map's bound saturate
// instead of wrapping (ir/byte_count.hpp).
#include <catch2/catch.hpp>

#include "ir/byte_count.hpp"
#include "mapping/search.hpp"
#include "passes/color_buffers.hpp"
#include "passes/program_builder.hpp"
#include "stages/stages.hpp"

using namespace dfgc;
using dfgc::ir::Strategy;
using dfgc::test::ProgramBuilder;

namespace {

constexpr std::int64_t kMax = ir::kMaxByteCount;
constexpr std::int64_t k2to62 = std::int64_t{1} << 62;

/// P-I-C on one host, the incrementer free between the two GPUs, tokens of `bytes` bytes.
ir::Program pic(std::int64_t bytes) {
  ProgramBuilder b("pic");
  b.type("Blob", ir::ElemType::u8, bytes);
  b.actor("Producer", "out Blob m");
  b.actor("Inc", "in Blob a; out Blob b");
  b.actor("Consumer", "in Blob m");
  b.host("A", 2);
  b.node("p", "Producer", "A.cpu").node("i", "Inc", "A.g0").node("c", "Consumer", "A.cpu");
  b.edge("p.m", "i.a").edge("i.b", "c.m");
  ir::Program p = b.build();
  p.dfg.nodes[1].candidates = {1, 2};
  return p;
}

mapping::CostTable costs_of(const ir::Program& p) {
  mapping::CostTable t;
  for (std::size_t n = 0; n < p.dfg.nodes.size(); ++n)
    t.firing.emplace_back(p.arch.pes.size(), 1e-3);
  for (const ir::Link& l : p.arch.links)
    t.links.push_back({mapping::LinkCost{l.bandwidth, 0}, mapping::LinkCost{l.bandwidth, 0}});
  t.capacity.assign(p.arch.pes.size(), std::nullopt);
  return t;
}

}  // namespace

TEST_CASE("byte counts saturate at 2^63 - 1 instead of wrapping", "[mapping][memory]") {
  CHECK(ir::add_bytes(1, 2) == 3);
  CHECK(ir::add_bytes(kMax - 1, 1) == kMax);
  CHECK(ir::add_bytes(kMax, 1) == kMax);
  CHECK(ir::add_bytes(k2to62, k2to62) == kMax);
  CHECK(ir::mul_bytes(3, 4) == 12);
  CHECK(ir::mul_bytes(0, kMax) == 0);
  CHECK(ir::mul_bytes(2, k2to62) == kMax);
  CHECK(ir::mul_bytes(4, k2to62) == kMax);  // 2^64 wraps to 0
  CHECK(ir::mul_bytes(kMax, kMax) == kMax);
  CHECK(!ir::saturated(kMax - 1));
  CHECK(ir::byte_count_text(12) == "12");
  CHECK(ir::byte_count_text(kMax) == "at least 9223372036854775807");
}

TEST_CASE("the colouring's byte counts saturate", "[mapping][memory]") {
  InterferenceGraph g;
  g.add("a", k2to62, 4);  // 2^64 bytes alone
  g.add("b", k2to62, 1);
  g.add("c", 1, 1);
  g.add_conflict(0, 1);
  g.add_conflict(0, 2);
  g.add_conflict(1, 2);
  CHECK(allocated_bytes(g, {0, 1, 2}) == kMax);
  Colouring d = dsatur(g);
  CHECK(d.count == 3);
  CHECK(d.bytes == kMax);
  CHECK(exact_colouring(g, ColouringGoal::fewest_bytes).bytes == kMax);
}

TEST_CASE("a PE's memory past 2^63 - 1 bytes is reported saturated", "[mapping][memory]") {
  ir::Program p = pic(k2to62);
  ir::Ig ig = run_passes(p);
  for (Strategy s : ir::kStrategies) {
    INFO(ir::to_string(s));
    const ir::MemoryReport& cpu = ig[s].memory[0];
    CHECK(cpu.before == kMax);
    CHECK(cpu.after == kMax);
  }
  CHECK(ir::render_schedule(p, ig).find("memory at least 9223372036854775807 -> at least "
                                        "9223372036854775807 bytes") != std::string::npos);
  mapping::Prediction pred = mapping::predict(p, ig, costs_of(p));
  CHECK(pred[Strategy::overlap].peak_memory == kMax);
  CHECK(pred[Strategy::overlap].memory[1] == kMax);  // A.g0: the double buffers of i
}

TEST_CASE("--max-memory rules out a mapping whose memory saturates", "[mapping][memory]") {
  ir::Program p = pic(k2to62);
  mapping::SearchOptions o;
  o.max_memory = std::int64_t{1} << 30;
  CHECK(mapping::search(p, costs_of(p), o).best.empty());
  // The same program with small tokens fits.
  ir::Program small = pic(1024);
  CHECK(!mapping::search(small, costs_of(small), o).best.empty());
}
