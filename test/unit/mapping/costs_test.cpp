#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "mapping/costs.hpp"
#include "passes/program_builder.hpp"

using namespace dfgc;
using dfgc::test::ProgramBuilder;

namespace {

/// P-I-I-C on one host with two GPUs; Inc has a param nb_loop (i1: 100, i2: 300).
ir::Program piic() {
  ProgramBuilder b("piic");
  b.type("Matrix", ir::ElemType::f32, 1 << 20);
  b.actor("Producer", "out Matrix m");
  b.actor("Inc", "in Matrix a; out Matrix b");
  b.actor("Consumer", "in Matrix m");
  b.host("A", 2, 25e9);
  b.node("p", "Producer", "A.cpu").node("i1", "Inc", "A.g0").node("i2", "Inc", "A.g1");
  b.node("c", "Consumer", "A.cpu");
  b.edge("p.m", "i1.a").edge("i1.b", "i2.a").edge("i2.b", "c.m");
  ir::Program p = b.build();
  p.dfg.actors[1].params.push_back({"nb_loop", "int", "100", {}});
  p.dfg.nodes[1].params.push_back({"nb_loop", "100", {}});
  p.dfg.nodes[2].params.push_back({"nb_loop", "300", {}});
  p.dfg.nodes[2].candidates = {1, 2};
  return p;
}

struct Loaded {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::optional<mapping::CostFile> file;
  std::optional<mapping::CostTable> table;

  explicit Loaded(const std::string& json, const ir::Program& p = piic()) {
    auto path = std::filesystem::temp_directory_path() / "dfgc_costs_test.json";
    std::ofstream(path) << json;
    file = mapping::load_costs(path.string(), sources, diags);
    if (file) table = mapping::resolve_costs(*file, p, diags);
  }
  std::string first_error() const {
    return diags.diagnostics().empty() ? "" : diags.diagnostics().front().message;
  }
};

constexpr const char* kGood = R"({
  "actors": {
    "Producer": {"cpu": 1.5},
    "Inc": {"gpu": {"ms": 0.5, "per": {"nb_loop": 0.01}}, "A.g1": {"ms": "2 * max(nb_loop, 10) / 100"}},
    "Consumer": {"cpu": {"ms": "0.25"}}
  },
  "nodes": {"i1": {"A.g0": {"ms": 3.25}}},
  "links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 5, "latency_us": 10}},
  "pes": {"A.g0": {"memory_GiB": 1}},
  "cycle_overhead_ms": {"overlap": 0.05, "no-overlap": 0.02}
})";

}  // namespace

TEST_CASE("a costs file resolves to firing times, links, memory, overhead", "[mapping][costs]") {
  Loaded l(kGood);
  INFO(l.diags.render());
  REQUIRE(l.table);
  const auto& f = l.table->firing;
  CHECK(*f[0][0] == Approx(1.5e-3));
  CHECK(*f[1][1] == Approx(3.25e-3));             // the node's own (measured) entry
  CHECK(*f[2][1] == Approx((0.5 + 3.0) * 1e-3));  // kind entry: 0.5 + 0.01 * 300
  CHECK(*f[2][2] == Approx(6e-3));                // the PE's entry beats the kind's
  CHECK(!f[1][2]);                                // i1 is pinned: only its PE is resolved
  CHECK(*f[3][0] == Approx(0.25e-3));
  CHECK(l.table->links[0][0].bandwidth == 5e9);  // A.cpu -> A.g0 overridden
  CHECK(l.table->links[0][0].latency == Approx(10e-6));
  CHECK(l.table->links[0][1].bandwidth == 25e9);  // the other direction keeps the spec's
  CHECK(l.table->capacity[1] == std::int64_t{1} << 30);
  CHECK(l.table->overhead[ir::Strategy::overlap] == Approx(5e-5));
  CHECK(l.table->overhead[ir::Strategy::no_overlap] == Approx(2e-5));
}

TEST_CASE("costs file errors", "[mapping][costs]") {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {"{\"actors\": {\"Inc\": {\"gpu\": 1}",
       "invalid JSON: syntax error while parsing object - "
       "unexpected end of input; expected '}'"},
      {"[1]", "a costs file holds a JSON object"},
      {"{\"profile\": 3}", "'profile' must be a JSON object"},
      {"{\"actor\": {}}",
       "unknown key 'actor'; expected actors, nodes, links, pes, cycle_overhead_ms or profile"},
      {"{\"actors\": {\"Incc\": {\"gpu\": 1}}}", "unknown actor 'Incc'; did you mean 'Inc'?"},
      {"{\"actors\": {\"Inc\": {\"tpu\": 1}}}",
       "unknown processing element or kind 'tpu'; expected cpu, gpu or a PE of arch 'arch'"},
      {"{\"actors\": {\"Inc\": {\"gpu\": -1}}}", "a firing time must be a non-negative number"},
      {"{\"actors\": {\"Inc\": {\"gpu\": \"2 * (nb_loop\"}}}", "in formula: expected ')'"},
      {"{\"actors\": {\"Inc\": {\"gpu\": \"2 * nb_lop\"}}}",
       "actor 'Inc' has no param 'nb_lop'; did you mean 'nb_loop'?"},
      {"{\"actors\": {\"Inc\": {\"gpu\": {\"ms\": 1, \"per\": {\"n\": 1}}}}}",
       "'per' names param 'n', which actor 'Inc' does not have"},
      {"{\"links\": {\"A.g0 -> A.g1\": {\"bandwidth_GB_s\": 1}}}",
       "arch 'arch' has no link between 'A.g0' and 'A.g1'"},
      {"{\"actors\": {\"Producer\": {\"cpu\": 1}, \"Consumer\": {\"cpu\": 1}}}",
       "no firing time for actor 'Inc' on A.g0 (a gpu), where node 'i1' may run; add "
       "\"actors\": {\"Inc\": {\"gpu\": ...}}"},
  };
  for (const Case& c : cases) {
    Loaded l(c.json);
    INFO(c.json << "\n" << l.diags.render());
    CHECK(!l.table);
    CHECK(l.first_error() == c.message);
  }
}
