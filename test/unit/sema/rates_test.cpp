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

TEST_CASE("a rate or window of an actor's params is each node's own", "[sema][rates]") {
  const std::string decls =
      "type T = float[1];\n"
      "type P = uint8[<= 8];\n"
      "actor A { out T o; cpu \"a.hpp\"; }\n"
      "actor D { param int R = 2; param int W = 2; in T i rate R peek W; out T o; cpu \"d.hpp\"; "
      "}\n"
      "actor C { in T i; cpu \"c.hpp\"; }\n"
      "arch h { host X { cpu; } }\n";
  auto r = test::analyze(decls +
                         "app x on h { node a : A @ X.cpu; node d1 : D @ X.cpu;\n"
                         "  node d2 : D @ X.cpu { R = 3; W = 5; } node d3 : D @ X.cpu { R = 3; W = "
                         "5; }\n"
                         "  node c : C @ X.cpu; a.o -> d1.i; d1.o -> d2.i; d2.o -> d3.i; d3.o -> "
                         "c.i; }\n");
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Dfg& g = r->program->dfg;
  // d1 runs the actor at its defaults; d2 and d3 share one copy at rate 3, window 5.
  REQUIRE(g.actors.size() == 4);
  CHECK(g.nodes[1].actor == 1);
  CHECK(g.nodes[2].actor == 3);
  CHECK(g.nodes[3].actor == 3);
  CHECK(g.actors[3].name == "D");
  CHECK(g.actors[3].ports[0].rate == 3);
  CHECK(g.actors[3].ports[0].history == 2);
  CHECK(g.actors[3].ports[0].history_value == "0");
  CHECK(g.actors[1].ports[0].rate == 2);
  CHECK(g.actors[1].ports[0].history == 0);
  // a fires 2 x 3 x 3 times, d1 9, d2 3, d3 once.
  CHECK(g.nodes[0].repetitions == 18);
  CHECK(g.nodes[1].repetitions == 9);
  CHECK(g.nodes[2].repetitions == 3);
  CHECK(g.nodes[3].repetitions == 1);
  // A node's values out of range, at the port with a note at the node.
  CHECK(test::diagnose(decls + "app x on h { node a : A @ X.cpu; node d : D @ X.cpu { R = 0; }\n"
                               "  node c : C @ X.cpu; a.o -> d.i; d.o -> c.i; }\n") ==
        "4:57: error: port 'i' has rate 0 for node 'd'; a firing moves 1 to 1048576 tokens "
        "through a port\n"
        "  7:39: note: node 'd' is declared here (R = 0, W = 2)\n");
  CHECK(test::diagnose(decls + "app x on h { node a : A @ X.cpu; node d : D @ X.cpu { R = 4; }\n"
                               "  node c : C @ X.cpu; a.o -> d.i; d.o -> c.i; }\n") ==
        "4:64: error: port 'i' peeks 2 tokens for node 'd', and its rate is 4; a firing sees at "
        "least the tokens it consumes and at most 1048576\n"
        "  7:39: note: node 'd' is declared here (R = 4, W = 2)\n");
}

TEST_CASE("a port group's size is each node's own", "[sema][groups]") {
  const std::string decls =
      "type T = float[1];\n"
      "actor A { out T o; cpu \"a.hpp\"; }\n"
      "actor J { param int N = 2; in T x[N] rate 2; out T y rate 2 * N; cpu \"j.hpp\"; }\n"
      "actor C { in T i; cpu \"c.hpp\"; }\n"
      "arch h { host X { cpu; } }\n";
  auto r =
      test::analyze(decls +
                    "app x on h { node a : A @ X.cpu; node j2 : J @ X.cpu;\n"
                    "  node j3 : J @ X.cpu { N = 3; } node c : C @ X.cpu; node d : C @ X.cpu;\n"
                    "  for k in [0, 1] { a.o -> j2.x[k]; } for k in [0, 2] { a.o -> j3.x[k]; }\n"
                    "  j2.y -> c.i; j3.y -> d.i; }\n");
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Dfg& g = r->program->dfg;
  // j2 runs J at its defaults (x0, x1); j3 a copy with three ports, x0 .. x2, then y.
  REQUIRE(g.actors.size() == 4);
  CHECK(g.nodes[1].actor == 1);
  CHECK(g.nodes[2].actor == 3);
  const ir::Actor& three = g.actors[3];
  CHECK(three.name == "J");
  REQUIRE(three.ports.size() == 4);
  for (std::uint32_t k = 0; k < 3; ++k) {
    CHECK(three.ports[k].name == "x" + std::to_string(k));
    CHECK(three.ports[k].group == "x");
    CHECK(three.ports[k].group_index == k);
    CHECK(three.ports[k].rate == 2);  // each port of the group has the group's rate
  }
  CHECK(three.ports[3].name == "y");
  CHECK(three.ports[3].group.empty());
  CHECK(three.ports[3].rate == 6);
  CHECK(three.group_ports("x") == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(g.actors[1].group_ports("x") == std::vector<std::uint32_t>{0, 1});
  // a fires twice an iteration; each J once, each sink 4 and 6 times.
  CHECK(g.nodes[0].repetitions == 2);
  CHECK(g.nodes[3].repetitions == 4);
  CHECK(g.nodes[4].repetitions == 6);
  // A node's size out of range, at the group with a note at the node and its values.
  CHECK(test::diagnose(decls + "app x on h { node a : A @ X.cpu; node j : J @ X.cpu { N = 2000; }\n"
                               "  node c : C @ X.cpu; a.o -> j.x[0]; j.y -> c.i; }\n") ==
        "3:35: error: port group 'x' has 2000 ports for node 'j'; a group has 1 to 1024\n"
        "  6:39: note: node 'j' is declared here (N = 2000)\n");
}
