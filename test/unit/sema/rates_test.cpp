/// \file
/// Rates: the repetition vector and the block types of the balance equations' solution.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;

namespace {

std::string chain(const std::string& rates_b, const std::string& rates_c) {
  return "param N = 4;\n"
         "type T = float[N];\n"
         "actor A { out T o; cpu \"a.hpp\"; }\n"
         "actor B { " +
         rates_b +
         " cpu \"b.hpp\"; }\n"
         "actor C { " +
         rates_c +
         " cpu \"c.hpp\"; }\n"
         "arch h { host X { cpu; } }\n"
         "app x on h { node a : A @ X.cpu; node b : B @ X.cpu; node c : C @ X.cpu;\n"
         "  a.o -> b.i; b.o -> c.i; }\n";
}

}  // namespace

TEST_CASE("rates: the least integer repetition vector and its blocks", "[sema][rates]") {
  // a -> b consumes 3 per firing, produces 2; c consumes 4: q = (6, 2, 1).
  auto r = test::analyze(chain("in T i rate 3; out T o rate 2;", "in T i rate 4;"));
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Dfg& g = r->program->dfg;
  CHECK(g.nodes[0].repetitions == 6);
  CHECK(g.nodes[1].repetitions == 2);
  CHECK(g.nodes[2].repetitions == 1);
  // Each edge carries one block a cycle: 6 tokens, then 4.
  CHECK(r->program->types[g.edges[0].type].name == "T_x6");
  CHECK(r->program->types[g.edges[0].type].count.value == 24);
  CHECK(r->program->types[g.edges[0].type].count.text == "N * 6");
  CHECK(r->program->types[g.edges[1].type].name == "T_x4");
  for (ir::EdgeId e = 0; e < g.edges.size(); ++e) {
    const ir::Edge& edge = g.edges[e];
    CHECK(g.block_type(edge.src, edge.src_port) == g.block_type(edge.dst, edge.dst_port));
  }
}

TEST_CASE("rates: without rates nothing changes", "[sema][rates]") {
  auto r = test::analyze(chain("in T i; out T o;", "in T i;"));
  REQUIRE(r->program);
  CHECK(r->program->types.size() == 1);
  for (const ir::Node& n : r->program->dfg.nodes) {
    CHECK(n.repetitions == 1);
    CHECK(n.block_types.empty());
  }
}
