#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "mapping/costs.hpp"
#include "mapping/fit.hpp"
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
  p.dfg.actors[1].params.push_back({"nb_loop", "int", "100", {}, std::int64_t{100}});
  p.dfg.nodes[1].params.push_back({"nb_loop", "100", {}, std::int64_t{100}});
  p.dfg.nodes[2].params.push_back({"nb_loop", "300", {}, std::int64_t{300}});
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
  "host_copies": {"A.g0 -> A.cpu": {"bandwidth_GB_s": 2, "latency_us": 0.5}},
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
  // A mapped token's host copy: 1 MB from A.g0's mapped memory in 0.5 + 500 us; none given for
  // the other direction, where a host copy costs nothing.
  CHECK(l.table->host_copy_time(piic().arch, 0, 1, 1000000) == Approx(500.5e-6));
  CHECK(l.table->host_copy_time(piic().arch, 0, 0, 1000000) == 0);
  CHECK(l.table->capacity[1] == std::int64_t{1} << 30);
  CHECK(l.table->overhead[ir::Strategy::overlap] == Approx(5e-5));
  CHECK(l.table->overhead[ir::Strategy::no_overlap] == Approx(2e-5));
  // No `cores`: the measured default, per host.
  REQUIRE(l.table->core_reads.size() == 1);
  CHECK(l.table->core_reads[0].latency == mapping::kCoreReadLatency);
  CHECK(l.table->core_reads[0].bandwidth == mapping::kCoreReadBandwidth);
}

TEST_CASE("core reads: a host's figures from `cores`, the default for the field not given",
          "[mapping][costs]") {
  std::string json = kGood;
  json.insert(json.rfind('}'), R"(, "cores": {"A": {"latency_us": 0.25}})");
  Loaded l(json);
  INFO(l.diags.render());
  REQUIRE(l.table);
  CHECK(l.table->core_reads[0].latency == Approx(0.25e-6));
  CHECK(l.table->core_reads[0].bandwidth == mapping::kCoreReadBandwidth);
  CHECK(l.table->core_read_time(piic().arch, 0, 1000) ==
        Approx(0.25e-6 + 1000 / mapping::kCoreReadBandwidth));
  // Another machine's host, named by the file's PE kinds: left out, not an error.
  const std::string other = R"({"actors": {"Producer": {"cpu": 1}, "Inc": {"gpu": 1},)"
                            R"( "Consumer": {"cpu": 1}}, "cores": {"B": {"latency_us": 9}},)"
                            R"( "pes": {"B.c4": {"kind": "cpu"}}})";
  Loaded o(other);
  INFO(o.diags.render());
  REQUIRE(o.table);
  CHECK(o.table->core_reads[0].latency == mapping::kCoreReadLatency);
}

TEST_CASE("a node's times carry over to the PEs of their kind, this machine's or another's",
          "[mapping][costs]") {
  // i2 may run on A.g0 and A.g1. It was measured on A.g1 and on B.g5, a GPU of another machine
  // (a profile's "pes" names its kind); i1, pinned on A.g0, only on B.g5. The other machine's
  // link and memory are not this one's and are left alone.
  constexpr const char* kJson = R"({
    "actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}},
    "nodes": {
      "i1": {"B.g5": {"ms": 4, "at": {"nb_loop": 100}}},
      "i2": {"A.g1": {"ms": 2, "at": {"nb_loop": 300}}, "B.g5": {"ms": 6, "at": {"nb_loop": 300}},
             "B.c0": {"ms": 50, "at": {"nb_loop": 300}}}
    },
    "links": {"B.c0 -> B.g5": {"bandwidth_GB_s": 1, "latency_us": 0}},
    "pes": {"B.c0": {"kind": "cpu"}, "B.g5": {"kind": "gpu", "memory_GiB": 1},
            "A.g1": {"kind": "gpu"}}
  })";
  Loaded l(kJson);
  INFO(l.diags.render());
  REQUIRE(l.table);
  const auto& f = l.table->firing;
  CHECK(*f[1][1] == Approx(4e-3));                // i1 on A.g0: B.g5's, the one GPU it ran on
  CHECK(*f[2][2] == Approx(2e-3));                // i2 on A.g1: its own
  CHECK(*f[2][1] == Approx((2 + 6) / 2e3));       // i2 on A.g0: the mean of A.g1's and B.g5's
  CHECK(l.table->links[0][0].bandwidth == 25e9);  // the spec's: B's link is not A's
  CHECK(!l.table->capacity[1]);
  // A measurement at other params does not stand for the node.
  Loaded other(R"({
    "actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}, "Inc": {"gpu": 9}},
    "nodes": {"i1": {"B.g5": {"ms": 4, "at": {"nb_loop": 7}}}},
    "pes": {"B.g5": {"kind": "gpu"}}
  })");
  INFO(other.diags.render());
  REQUIRE(other.table);
  CHECK(*other.table->firing[1][1] == Approx(9e-3));  // the actor's kind entry
  // An actor's entry for the PE itself comes before a measurement on another PE.
  Loaded named(R"({
    "actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}, "Inc": {"A.g0": 5, "A.g1": 5}},
    "nodes": {"i1": {"B.g5": {"ms": 4}}},
    "pes": {"B.g5": {"kind": "gpu"}}
  })");
  INFO(named.diags.render());
  REQUIRE(named.table);
  CHECK(*named.table->firing[1][1] == Approx(5e-3));
  // A measurement out of range is reported once, though both of i2's GPUs borrow it.
  Loaded wrong(R"({
    "actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}, "Inc": {"gpu": 1}},
    "nodes": {"i2": {"B.g5": {"ms": "1e6 * nb_loop"}}},
    "pes": {"B.g5": {"kind": "gpu"}}
  })");
  INFO(wrong.diags.render());
  CHECK(!wrong.table);
  CHECK(wrong.diags.error_count() == 1);
  CHECK(wrong.first_error().starts_with("the firing time of node 'i2' on A.g0 is 3e+08 ms"));
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
       "unknown key 'actor'; expected actors, nodes, links, host_copies, cores, pes, "
       "cycle_overhead_ms or profile"},
      {"{\"cores\": {\"A\": {\"latency\": 1}}}",
       "unknown key 'latency' in a host's cores; expected bandwidth_GB_s or latency_us"},
      {"{\"host_copies\": {\"A.cpu -> A.g0\": {\"bw\": 1}}}",
       "unknown key 'bw' in a host copy; expected bandwidth_GB_s or latency_us"},
      {"{\"host_copies\": {\"A.g0 -> A.g1\": {\"latency_us\": 1}}}",
       "arch 'arch' has no link between 'A.g0' and 'A.g1'"},
      {"{\"actors\": {\"Incc\": {\"gpu\": 1}}}", "unknown actor 'Incc'; did you mean 'Inc'?"},
      {"{\"actors\": {\"Inc\": {\"tpu\": 1}}}",
       "unknown processing element or kind 'tpu'; expected cpu, gpu or a PE of arch 'arch'"},
      {"{\"pes\": {\"A.g0\": {\"kind\": \"tpu\"}}}", "a PE's 'kind' is \"cpu\" or \"gpu\""},
      {"{\"pes\": {\"A.g0\": {\"kind\": \"cpu\"}}}",
       "'A.g0' is a gpu in arch 'arch'; the costs file says it is a cpu"},
      {"{\"nodes\": {\"i2\": {\"Z.g0\": {\"ms\": 1}}}}",
       "unknown processing element 'Z.g0': a measurement on another machine's PE needs its kind, "
       "\"pes\": {\"Z.g0\": {\"kind\": ...}}; did you mean 'A.g0'?"},
      {"{\"actors\": {\"Inc\": {\"gpu\": -1}}}",
       "a firing time must be a non-negative number of milliseconds, at most 86400000 (a day)"},
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

TEST_CASE("costs file numbers are finite and sane; nothing is silently zero or ignored",
          "[mapping][costs]") {
  struct Case {
    const char* json;
    const char* message;
  };
  const char* const kPiic = R"("Producer": {"cpu": 1}, "Consumer": {"cpu": 1})";
  const Case cases[] = {
      {R"({"actors": {"Inc": {"gpu": 1e308}}})",
       "a firing time must be a non-negative number of milliseconds, at most 86400000 (a day)"},
      {R"({"actors": {"Inc": {"gpu": 86400001}}})",
       "a firing time must be a non-negative number of milliseconds, at most 86400000 (a day)"},
      {R"({"actors": {"Inc": {"gpu": {}}}})",
       "a firing time object needs 'ms' (a number of milliseconds or a formula)"},
      {R"({"actors": {"Inc": {"gpu": {"per": {"nb_loop": 1}}}}})",
       "a firing time object needs 'ms' (a number of milliseconds or a formula)"},
      {R"({"actors": {"Inc": {"gpu": {"ms": 1, "per": {"nb_loop": 1e300}}}}})",
       "a cost per unit must be a non-negative number of milliseconds, at most 86400000 (a day)"},
      {R"({"links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 1e-300}}})",
       "a bandwidth must be a positive number of GB/s from 1e-9 (a byte per second) to 1e6"},
      {R"({"links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 1e308}}})",
       "a bandwidth must be a positive number of GB/s from 1e-9 (a byte per second) to 1e6"},
      {R"({"links": {"A.cpu -> A.g0": {"latency_us": 1e300}}})",
       "a latency must be a non-negative number of microseconds, at most 86400000000 (a day)"},
      {R"({"pes": {"A.g0": {"memory_GiB": 1e300}}})",
       "a memory size must be a positive number of GiB, at most 1073741824 (2^60 bytes)"},
      {R"({"cycle_overhead_ms": 1e300})",
       "the cycle overhead must be a non-negative number of milliseconds, at most 86400000 (a "
       "day)"},
      {R"({"actors": {"Inc": {"gpu": 1, "gpu": 2}}})",
       "duplicate key 'gpu'; an object gives a key once"},
      {R"({"actors": {"Inc": {"gpu": 1}}, "actors": {}})",
       "duplicate key 'actors'; an object gives a key once"},
  };
  for (const Case& c : cases) {
    Loaded l(c.json);
    INFO(c.json << "\n" << l.diags.render());
    CHECK(!l.table);
    CHECK(l.first_error() == c.message);
  }
  // Formulas: a value past a day (or not finite) is refused once evaluated at the node's params.
  for (const char* formula :
       {"1e300 * nb_loop * nb_loop", "1e6 * nb_loop", "1 / (nb_loop - 100)"}) {
    Loaded l(std::string(R"({"actors": {)") + kPiic + R"(, "Inc": {"gpu": ")" + formula + "\"}}}");
    INFO(formula << "\n" << l.diags.render());
    CHECK(!l.table);
    CHECK(l.first_error().starts_with("the firing time of node 'i"));
    CHECK(
        l.first_error().ends_with("ms; it must be a non-negative number of milliseconds, at "
                                  "most 86400000 (a day)"));
  }
  // -0 reads as 0.
  Loaded zero(std::string(R"({"actors": {)") + kPiic + R"(, "Inc": {"gpu": "0 * -1"}}})");
  INFO(zero.diags.render());
  REQUIRE(zero.table);
  CHECK(!std::signbit(*zero.table->firing[1][1]));
}

TEST_CASE("an actor without a firing time on a PE its node may use: an error at its entry",
          "[mapping][costs]") {
  Loaded l(R"({"actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1},
               "Inc": {"A.g0": 1}}})");
  REQUIRE(!l.table);
  CHECK(l.first_error() ==
        "no firing time for actor 'Inc' on A.g1 (a gpu), where node 'i2' may "
        "run; add \"actors\": {\"Inc\": {\"gpu\": ...}}");
  CHECK(l.diags.diagnostics().front().loc.offset == 75);  // "Inc"
}

namespace {

/// Several costs files merged in order, fitted against `p`, then resolved.
struct Fitted {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::optional<mapping::CostFile> file;
  std::optional<mapping::FitResult> fit;
  std::optional<mapping::CostTable> table;

  Fitted(const std::vector<std::string>& jsons, const ir::Program& p = piic()) {
    for (std::size_t i = 0; i < jsons.size(); ++i) {
      auto path = std::filesystem::temp_directory_path() /
                  ("dfgc_costs_fit_test_" + std::to_string(i) + ".json");
      std::ofstream(path) << jsons[i];
      auto next = mapping::load_costs(path.string(), sources, diags);
      if (!next) return;
      if (!file)
        file = std::move(next);
      else
        mapping::merge_costs(*file, std::move(*next));
    }
    fit = mapping::fit_costs(*file, p, diags);
    if (fit) table = mapping::resolve_costs(*file, p, diags);
  }
  std::string first_error() const {
    return diags.diagnostics().empty() ? "" : diags.diagnostics().front().message;
  }
};

constexpr const char* kLinearInc = R"({
  "actors": {
    "Producer": {"cpu": 1}, "Consumer": {"cpu": 1},
    "Inc": {"gpu": {"ms": "a + b * nb_loop", "fit": ["a", "b"]}}
  }
})";

}  // namespace

TEST_CASE("fitted costs: two measurements determine two coefficients", "[mapping][costs][fit]") {
  Fitted f({kLinearInc, R"({"nodes": {
    "i1": {"A.g0": {"ms": 2.0, "at": {"nb_loop": 100}}},
    "i2": {"A.g1": {"ms": 4.0, "at": {"nb_loop": 300}}}}})"});
  INFO(f.diags.render());
  REQUIRE(f.table);
  REQUIRE(f.fit->coefficients.size() == 2);
  CHECK(f.fit->coefficients[0].first == "a");
  CHECK(f.fit->coefficients[0].second == Approx(1.0));
  CHECK(f.fit->coefficients[1].second == Approx(0.01));
  CHECK(f.fit->measurements == 2);
  CHECK(mapping::describe_fit(*f.fit) ==
        "fitted a = 1 ms, b = 0.01 ms from 2 measurements (exact)");
  CHECK(*f.table->firing[1][1] == Approx(2e-3));  // i1's own measurement (at its nb_loop)
  CHECK(*f.table->firing[2][2] == Approx(4e-3));  // i2's own measurement on A.g1
  CHECK(*f.table->firing[2][1] == Approx(4e-3));  // i2 on A.g0: the fitted formula, 1 + 0.01 * 300

  // With other params a measurement no longer stands for its node: the formula does.
  ir::Program moved = piic();
  moved.dfg.nodes[1].params[0].literal = "200";
  moved.dfg.nodes[1].params[0].value = std::int64_t{200};
  Fitted g({kLinearInc, R"({"nodes": {
    "i1": {"A.g0": {"ms": 2.0, "at": {"nb_loop": 100}}},
    "i2": {"A.g1": {"ms": 4.0, "at": {"nb_loop": 300}}}}})"},
           moved);
  INFO(g.diags.render());
  REQUIRE(g.table);
  CHECK(*g.table->firing[1][1] == Approx(3e-3));  // 1 + 0.01 * 200
}

TEST_CASE("fitted costs: a coefficient of -0 prints as 0", "[mapping][costs][fit]") {
  mapping::FitResult fit;
  fit.coefficients = {{"a", -0.0}, {"b", 0.01}};
  fit.measurements = 2;
  CHECK(mapping::describe_fit(fit) == "fitted a = 0 ms, b = 0.01 ms from 2 measurements (exact)");
}

TEST_CASE("fitted costs: least squares on relative errors over several profiles",
          "[mapping][costs][fit]") {
  // Three profiles of i1 at three nb_loop values: 1 + 0.01 x with +-1% noise.
  Fitted f({kLinearInc, R"({"nodes": {"i1": {"A.g0": {"ms": 1.515, "at": {"nb_loop": 50}}}}})",
            R"({"nodes": {"i1": {"A.g0": {"ms": 1.98, "at": {"nb_loop": 100}}}}})",
            R"({"nodes": {"i1": {"A.g0": {"ms": 5.05, "at": {"nb_loop": 400}}}}})"});
  INFO(f.diags.render());
  REQUIRE(f.table);
  CHECK(f.fit->measurements == 3);
  CHECK(f.fit->coefficients[0].second == Approx(1.0).epsilon(0.05));
  CHECK(f.fit->coefficients[1].second == Approx(0.01).epsilon(0.05));
  CHECK(f.fit->rms_relative > 0);
  CHECK(f.fit->max_relative < 0.02);
  CHECK(mapping::describe_fit(*f.fit).find("from 3 measurements (rms error") != std::string::npos);
  CHECK(*f.table->firing[1][1] == Approx(1.98e-3));  // i1 (nb_loop 100) was measured at 100
  CHECK(*f.table->firing[2][1] == Approx(4e-3).epsilon(0.05));  // i2 (300): the formula
}

TEST_CASE("merged costs files: measurements add up, later entries replace earlier ones",
          "[mapping][costs]") {
  Fitted f({R"({"actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}, "Inc": {"gpu": 5}},
               "links": {"A.cpu <-> A.g0": {"bandwidth_GB_s": 1}},
               "cycle_overhead_ms": 0.5})",
            R"({"actors": {"Inc": {"gpu": 7}}, "nodes": {"i1": {"A.g0": {"ms": 3}}},
               "links": {"A.cpu <-> A.g0": {"bandwidth_GB_s": 2}},
               "cycle_overhead_ms": {"overlap": 0.25}})"});
  INFO(f.diags.render());
  REQUIRE(f.table);
  CHECK(*f.table->firing[1][1] == Approx(3e-3));  // the measurement (no `at`: always)
  CHECK(*f.table->firing[2][2] == Approx(7e-3));  // the later actor entry
  CHECK(f.table->links[0][0].bandwidth == 2e9);
  CHECK(f.table->overhead[ir::Strategy::overlap] == Approx(0.25e-3));
  CHECK(f.table->overhead[ir::Strategy::no_overlap] == Approx(0.5e-3));  // the later file has none
  CHECK(f.fit->coefficients.empty());
}

TEST_CASE("the ranks' profiles of one run merge the same in either order", "[mapping][costs]") {
  // Two hosts' profiles (profile.host): each its own nodes, both an overhead, and a link that both
  // give (a rank that did not leave out what it sent): the smaller overhead, the slower link.
  const std::string a = R"({"profile": {"host": "A", "strategy": "overlap"},
      "actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}, "Inc": {"gpu": 5}},
      "nodes": {"i1": {"A.g0": {"ms": 3}}},
      "links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 0.5, "latency_us": 4}},
      "cycle_overhead_ms": {"overlap": 0.75}})";
  const std::string b = R"({"profile": {"host": "B", "strategy": "overlap"},
      "nodes": {"i2": {"A.g1": {"ms": 6}}},
      "links": {"A.cpu -> A.g0": {"bandwidth_GB_s": 2, "latency_us": 9}},
      "cycle_overhead_ms": {"overlap": 0.25}})";
  Fitted ab({a, b}), ba({b, a});
  INFO(ab.diags.render() << ba.diags.render());
  REQUIRE(ab.table);
  REQUIRE(ba.table);
  for (const Fitted* f : {&ab, &ba}) {
    CHECK(*f->table->firing[1][1] == Approx(3e-3));
    CHECK(*f->table->firing[2][2] == Approx(6e-3));
    CHECK(f->table->links[0][0].bandwidth == 0.5e9);
    CHECK(f->table->links[0][0].latency == Approx(9e-6));
    CHECK(f->table->overhead[ir::Strategy::overlap] == Approx(0.25e-3));
  }
  CHECK(ab.file->profile_host == ba.file->profile_host);
  // An estimate given after the profiles still overrides them.
  Fitted later({a, b, R"({"cycle_overhead_ms": {"overlap": 1}})"});
  REQUIRE(later.table);
  CHECK(later.table->overhead[ir::Strategy::overlap] == Approx(1e-3));
}

TEST_CASE("fitted costs errors", "[mapping][costs][fit]") {
  struct Case {
    std::vector<std::string> jsons;
    const char* message;
  };
  const std::string i1_at_100 = R"({"nodes": {"i1": {"A.g0": {"ms": 2, "at": {"nb_loop": 100}}}}})";
  const Case cases[] = {
      {{kLinearInc},
       "no measurement determines 'a': give the costs of a run where a node of actor 'Inc' on "
       "gpu was measured (--profile FILE, then --costs FILE)"},
      {{kLinearInc, i1_at_100},
       "the 1 measurement of 'Inc' on gpu cannot tell 'b' apart from the other coefficients (a, "
       "b); measure nodes at more param values"},
      {{kLinearInc, i1_at_100, i1_at_100},
       "the 2 measurements of 'Inc' on gpu cannot tell 'b' apart from the other coefficients "
       "(a, b); measure nodes at more param values"},
      {{R"({"actors": {"Inc": {"gpu": {"ms": "a * b + nb_loop", "fit": ["a", "b"]}}}})", i1_at_100,
        R"({"nodes": {"i2": {"A.g1": {"ms": 4, "at": {"nb_loop": 300}}}}})"},
       "this formula is not linear in its fitted coefficients (a, b); dfgc fits them by linear "
       "least squares"},
      {{R"({"actors": {"Inc": {"gpu": {"ms": "a * nb_loop", "fit": ["a", "c"]}}}})"},
       "'fit' names 'c', which the formula of actor 'Inc' on gpu does not use"},
      {{R"({"actors": {"Inc": {"gpu": {"ms": "nb_loop * 2", "fit": ["nb_loop"]}}}})", i1_at_100},
       "'fit' names 'nb_loop', a param of actor 'Inc'; a fitted coefficient needs a name of its "
       "own"},
      {{R"({"actors": {"Inc": {"gpu": {"ms": "a", "fit": "a"}}}})"},
       "'fit' must be a non-empty array of coefficient names"},
      {{R"({"actors": {"Inc": {"gpu": {"ms": "a", "fit": ["a", "a"]}}}})"},
       "'fit' names 'a' twice"},
      {{R"({"actors": {"Inc": {"gpu": {"fit": ["a"]}}}})"},
       "'fit' needs an 'ms' formula that uses the fitted names"},
      {{R"({"nodes": {"i1": {"A.g0": {"ms": 1, "fit": ["a"]}}}})"},
       "'fit' belongs in an actor's entry (\"actors\"): it names the coefficients of the actor's "
       "formula that measurements of its nodes determine"},
      {{R"({"actors": {"Inc": {"gpu": {"ms": 1, "at": {"nb_loop": 1}}}}})"},
       "'at' belongs in a node's measurement (\"nodes\"): it gives the node's params when it was "
       "measured"},
      {{R"({"nodes": {"i1": {"A.g0": {"ms": 1, "at": {"nb_loop": "many"}}}}})"},
       "'at' gives param 'nb_loop' a number"},
      {{kLinearInc, R"({"nodes": {"i1": {"A.g0": {"ms": 1, "at": {"loops": 3}}}}})"},
       "the measurement of node 'i1' on A.g0 gives no value of param 'nb_loop' in 'at', which "
       "the fitted formula of actor 'Inc' uses"},
      {{kLinearInc,
        R"({"nodes": {"i1": {"A.g0": {"ms": "2 * nb_loop", "at": {"nb_loop": 100}}}}})"},
       "a measurement of node 'i1' on A.g0 is an equation of the fitted formula of actor 'Inc'; it "
       "must be a number of milliseconds"},
      {{R"({"actors": {"Producer": {"cpu": 1}, "Consumer": {"cpu": 1}, "Inc": {"gpu": 1}},
           "nodes": {"i1": {"A.g0": {"ms": 1, "at": {"loops": 3}}}}})"},
       "'at' names param 'loops', which actor 'Inc' does not have"},
  };
  for (const Case& c : cases) {
    Fitted f(c.jsons);
    INFO(c.jsons.front() << "\n" << f.diags.render());
    CHECK(!f.table);
    CHECK(f.first_error() == c.message);
  }
}
