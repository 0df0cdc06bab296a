#include <catch2/catch.hpp>

#include "spec_test_util.hpp"

using namespace dfgc;
using dfgc::test::Parsed;

TEST_CASE("the dump shows every construct in source order with line:col", "[spec][dump]") {
  Parsed p(R"(import "a\\b.dfg";
runtime param W = 0x10 + 16_777_216 * -(2 - 1);
type Matrix = float[min(W, 4) % 3];
actor Inc {
  gpu "inc.cuh" Inc;
  in Matrix a;
  param double scale = 2.0;
  param bool on;
  out Matrix b;
  cpu "inc_cpu.hpp";
}
arch two {
  link A.cpu -> A.g0 pcie (2.5 GB/s, 1.5 us);
  host A { cpu; gpu g0 = 0; }
}
app x on two {
  a.b -> c.d;
  node i1 : Inc @ A.g0 migrates A.g1, B.cpu { scale = 1e9; }
}
param N = 1;
)");
  REQUIRE(p.errors().empty());
  CHECK(ast::dump(*p.module, p.sm) ==
        "module t.dfg\n"
        "import \"a\\\\b.dfg\" @1:1\n"
        "runtime param W = 16 + (16777216 * -(2 - 1)) @2:1\n"
        "type Matrix = float[min(W, 4) % 3] @3:1\n"
        "actor Inc @4:1\n"
        "  gpu \"inc.cuh\" Inc @5:3\n"
        "  in Matrix a @6:3\n"
        "  param double scale = 2.0 @7:3\n"
        "  param bool on @8:3\n"
        "  out Matrix b @9:3\n"
        "  cpu \"inc_cpu.hpp\" @10:3\n"
        "arch two @12:1\n"
        "  link A.cpu -> A.g0 pcie 2500000000 B/s 1.5e-06 s @13:3\n"
        "  host A @14:3\n"
        "    cpu @14:12\n"
        "    gpu g0 = 0 @14:17\n"
        "app x on two @16:1\n"
        "  edge a.b -> c.d @17:7\n"
        "  node i1 : Inc @ A.g0 migrates A.g1, B.cpu @18:3\n"
        "    scale = 1000000000.0 @18:47\n"
        "param N = 1 @20:1\n");
}

namespace {

/// The dump of a file read from disk (the test runs from the repository root).
std::string dump_file(const char* path) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  auto file = sm.load_file(path);
  REQUIRE(file);
  auto module = parse_module(*file, sm, diags);
  return ast::dump(*module, sm);
}

}  // namespace

TEST_CASE("the dump of a sample is stable", "[spec][dump]") {
  std::string text = dump_file("samples/overlap/two_hosts.dfg");
  CHECK(
      text.starts_with("module samples/overlap/two_hosts.dfg\nimport \"overlap.dfg\" @3:1\n"
                       "arch two_hosts @5:1\n  host A @6:3\n    cpu @6:12\n"));
  CHECK(text.find("  link A.cpu <-> B.cpu net 2600000000 B/s 5e-06 s @10:3\n") !=
        std::string::npos);
  CHECK(
      text.find("app overlap_two_hosts : overlap on two_hosts @13:1\n  place p @ A.cpu @14:3\n") !=
      std::string::npos);
  CHECK(text.find("    nb_loop = 120 @15:15\n") != std::string::npos);
  CHECK(text.find("0x") == std::string::npos);
}

TEST_CASE("a graph's dump shows its nodes without placements", "[spec][dump]") {
  CHECK(dump_file("samples/overlap/overlap.dfg")
            .find("app overlap (graph) @30:1\n  node p : Producer @31:3\n") != std::string::npos);
}

TEST_CASE("a replica range is dumped with its free placement", "[spec][dump]") {
  const std::string text = dump_file("test/errors/mapping/map_replicas_weights.dfg");
  INFO(text);
  CHECK(text.find("node f : Filter @ any replicas in [1, 3] @15:3\n") != std::string::npos);
}

TEST_CASE("the dump shows composites, loops, indices and paths in source order", "[spec][dump]") {
  Parsed p(R"(composite Bank {
  param N = 4;
  param g;
  in x;
  out y;
  for i in [0, N - 1] { node f[i] : Fir { k = i; } x -> f[i].a; }
  f[N - 1].b -> y;
}
app g { node s : Src; node b : Bank { g = 2; } s.o -> b.x; b.y -> s.y[0]; }
app m : g on a {
  b @ A.c[1];
  for j in [0, 3] { b.f[j] @ A.c[j] migrates A.c[j + 1]; }
}
)");
  REQUIRE(p.errors().empty());
  CHECK(ast::dump(*p.module, p.sm) ==
        "module t.dfg\n"
        "composite Bank @1:1\n"
        "  param N = 4 @2:3\n"
        "  param g @3:3\n"
        "  in x @4:3\n"
        "  out y @5:3\n"
        "  for i in [0, N - 1] @6:3\n"
        "    node f[i] : Fir @6:25\n"
        "      k = i @6:43\n"
        "    edge x -> f[i].a @6:54\n"
        "  edge f[N - 1].b -> y @7:14\n"
        "app g (graph) @9:1\n"
        "  node s : Src @9:9\n"
        "  node b : Bank @9:23\n"
        "    g = 2 @9:39\n"
        "  edge s.o -> b.x @9:52\n"
        "  edge b.y -> s.y[0] @9:64\n"
        "app m : g on a @10:1\n"
        "  place b @ A.c[1] @11:3\n"
        "  for j in [0, 3] @12:3\n"
        "    place b.f[j] @ A.c[j] migrates A.c[j + 1] @12:21\n");
}

TEST_CASE("the dump shows a port group with its size", "[spec][dump]") {
  Parsed p("actor J { param int N = 2; in T x[N + 1] rate 2; out T y; cpu \"j.hpp\"; }\n");
  REQUIRE(p.errors().empty());
  CHECK(ast::dump(*p.module, p.sm).find("  in T x[N + 1] rate 2 @1:28\n") != std::string::npos);
}

TEST_CASE("the dump shows structs, their C++ names and their fields", "[spec][dump]") {
  Parsed p(R"(struct Hit { int8 flag; float amp[N * 2]; }
struct Pair = "rx::Pair" {
  uint16 a;
}
type Hits = Hit[<= 8];
)");
  REQUIRE(p.errors().empty());
  CHECK(ast::dump(*p.module, p.sm) ==
        "module t.dfg\n"
        "struct Hit @1:1\n"
        "  int8 flag @1:14\n"
        "  float amp[N * 2] @1:25\n"
        "struct Pair = \"rx::Pair\" @2:1\n"
        "  uint16 a @3:3\n"
        "type Hits = Hit[<= 8] @5:1\n");
}
