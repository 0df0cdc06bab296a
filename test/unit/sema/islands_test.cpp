/// \file
/// Islands: dynamic nodes grouped by their fifo edges, folded into one static node each, with
/// their rings' capacities stated or computed.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;

namespace {

/// Island p+q on c0 (p.y -> q.x stated at 5), island r on c1, between the static s and k.
const char* kSpec =
    "type B = int32[16];\n"
    "type C = int32[40];\n"
    "actor Src { out B o; out C w; cpu \"s.hpp\"; }\n"
    "actor Snk { in B i; in C v; cpu \"k.hpp\"; }\n"
    "actor P dynamic { in int32 x; out int32 y; cpu \"p.hpp\"; param int g = 1; }\n"
    "actor Q dynamic { in int32 x fifo 5; in int32 z; out int32 y; cpu \"q.hpp\"; }\n"
    "actor R dynamic { in int32 x; out int32 y; cpu \"r.hpp\"; }\n"
    "arch h { host X { cpu c 2; } }\n"
    "app x on h {\n"
    "  node s : Src @ X.c0;\n"
    "  node p : P @ X.c0 { g = 3; }\n"
    "  node r : R @ X.c1;\n"
    "  node q : Q @ X.c0;\n"
    "  node k : Snk @ X.c0;\n"
    "  s.o -> p.x;  p.y -> q.x;  s.o -> q.z;  s.w -> r.x;  r.y -> k.v;  q.y -> k.i;\n"
    "}\n";

}  // namespace

TEST_CASE("islands: one static node per connected set of dynamic nodes", "[sema][islands]") {
  auto r = test::analyze(kSpec);
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  const ir::Dfg& g = p.dfg;
  // Each island in place of its first member; the others gone.
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[0].name == "s");
  CHECK(g.nodes[1].name == "island_p");
  CHECK(g.nodes[2].name == "island_r");
  CHECK(g.nodes[3].name == "k");
  CHECK(p.arch.pes[p.mapping.pe_of[1]].name == "X.c0");
  CHECK(p.arch.pes[p.mapping.pe_of[2]].name == "X.c1");
  REQUIRE(p.islands.size() == 2);

  const ir::Island& a = p.islands[0];
  CHECK(a.node == 1);
  REQUIRE(a.members.size() == 2);
  CHECK(a.members[0].name == "p");
  CHECK(a.members[0].params[0].literal == "3");
  CHECK(a.members[1].name == "q");
  // Its actor's ports: the boundary edges in spec order.
  const ir::Actor& actor = g.actors[a.actor];
  CHECK(actor.island == 0u);
  REQUIRE(actor.ports.size() == 3);
  CHECK(actor.ports[0].name == "p_x");
  CHECK(actor.ports[1].name == "q_z");
  CHECK(actor.ports[2].name == "q_y");
  CHECK(actor.ports[2].dir == ir::PortDir::out);
  // Rings: the boundary ones at the tokens' size, the inner one as stated.
  REQUIRE(a.fifos.size() == 4);
  CHECK(a.fifos[0].capacity == 16);
  CHECK_FALSE(a.fifos[0].stated);
  CHECK(a.fifos[3].name == "p.y -> q.x");
  CHECK(a.fifos[3].capacity == 5);
  CHECK(a.fifos[3].stated);
  CHECK(a.fifos[3].src_member == 0u);
  CHECK(a.fifos[3].dst_member == 1u);
  CHECK(a.port_elements == std::vector<std::int64_t>{16, 16, 16});

  const ir::Island& b = p.islands[1];
  REQUIRE(b.fifos.size() == 2);
  CHECK(b.fifos[0].capacity == 40);
  CHECK(b.fifos[1].name == "r.y -> k.v");
  CHECK_FALSE(b.fifos[1].dst_member);

  // The edges, renumbered onto the islands' ports.
  REQUIRE(g.edges.size() == 5);
  CHECK(g.edges[0].dst == 1);
  CHECK(g.edges[0].dst_port == 0);
  CHECK(g.edges[4].src == 1);
  CHECK(g.edges[4].src_port == 2);
  CHECK(g.edges[4].dst == 3);
}

TEST_CASE("islands: an inner ring without a stated capacity holds the largest boundary token",
          "[sema][islands]") {
  std::string spec = kSpec;
  spec.replace(spec.find("fifo 5"), 6, "");
  auto r = test::analyze(spec);
  INFO(r->summary());
  REQUIRE(r->program);
  CHECK(r->program->islands[0].fifos[3].capacity == 16);
  CHECK_FALSE(r->program->islands[0].fifos[3].stated);
}

TEST_CASE("islands: a free dynamic node is refused where dfgc map would place it",
          "[sema][islands]") {
  std::string spec = kSpec;
  spec.replace(spec.find("node r : R @ X.c1;"), 18, "node r : R @ any cpu;");
  SemaOptions o;
  o.allow_free_nodes = true;
  auto r = test::analyze(spec, o);
  CHECK_FALSE(r->program);
  CHECK(
      r->summary().find(
          "node 'r' of dynamic actor 'R' is free; a node of a dynamic actor is pinned to a CPU") !=
      std::string::npos);
}

TEST_CASE("islands: a fifo edge between two CPUs joins two islands by a bounded static edge",
          "[sema][islands]") {
  auto r = test::analyze(
      "type B = int32[16];\n"
      "actor Src { out B o; cpu \"s.hpp\"; }\n"
      "actor Snk { in B i; cpu \"k.hpp\"; }\n"
      "actor P dynamic { in int32 x; out int32 y; cpu \"p.hpp\"; }\n"
      "actor Q dynamic { in int32 x fifo 24; out int32 y; cpu \"q.hpp\"; }\n"
      "arch h { host X { cpu c 2; } }\n"
      "app x on h { node s : Src @ X.c0; node p : P @ X.c0; node q : Q @ X.c1; node k : Snk @ X.c1;\n"
      "  s.o -> p.x;  p.y -> q.x;  q.y -> k.i; }\n");
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  REQUIRE(p.islands.size() == 2);
  REQUIRE(p.dfg.edges.size() == 3);
  const ir::Edge& cross = p.dfg.edges[1];
  CHECK(p.dfg.nodes[cross.src].name == "island_p");
  CHECK(p.dfg.nodes[cross.dst].name == "island_q");
  const ir::TokenType& t = p.types[cross.type];
  CHECK(t.name == "Fifo_p_y");
  CHECK(t.bounded);
  CHECK(t.count.value == 24);  // as stated on q.x
  CHECK(p.islands[0].port_bounded == std::vector<bool>{false, true});
  CHECK(p.islands[1].port_bounded == std::vector<bool>{true, false});
  CHECK(p.islands[0].port_between == std::vector<bool>{false, true});
  CHECK(p.islands[1].port_between == std::vector<bool>{true, false});
  CHECK(p.islands[1].fifos[0].stated);
}

TEST_CASE("islands: dynamic nodes on a GPU form an island whose actor has a gpu implementation",
          "[sema][islands]") {
  auto r = test::analyze(
      "type B = int32[16];\n"
      "actor Src { out B o; cpu \"s.hpp\"; }\n"
      "actor Snk { in B i; cpu \"k.hpp\"; }\n"
      "actor P dynamic { in int32 x; out int32 y; cpu \"p.hpp\"; gpu \"p.cuh\" PGpu; }\n"
      "arch h { host X { cpu; gpu g0 = 0; } link X.cpu <-> X.g0 pcie (25 GB/s); }\n"
      "app x on h {\n"
      "  node s : Src @ X.cpu;\n"
      "  node p : P @ X.g0;\n"
      "  node q : P @ X.g0;\n"
      "  node k : Snk @ X.cpu;\n"
      "  s.o -> p.x;  p.y -> q.x;  q.y -> k.i;\n"
      "}\n");
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  REQUIRE(p.islands.size() == 1);
  const ir::Island& island = p.islands[0];
  CHECK(p.arch.pes[island.pe].name == "X.g0");
  CHECK(island.members.size() == 2);
  const ir::Actor& actor = p.dfg.actors[island.actor];
  REQUIRE(actor.impls.size() == 1);
  CHECK(actor.impls[0].kind == ir::PeKind::gpu);
  CHECK(actor.impls[0].header == "dfg_islands/island_p.cuh");
  CHECK(p.arch.pes[p.mapping.pe_of[island.node]].name == "X.g0");
}

TEST_CASE("islands: a fifo edge between a CPU and a GPU of one host is a mapped ring",
          "[sema][islands]") {
  auto r = test::analyze(
      "type B = int32[16];\n"
      "actor Src { out B o; cpu \"s.hpp\"; }\n"
      "actor Snk { in B i; cpu \"k.hpp\"; }\n"
      "actor P dynamic { in int32 x; out int32 y; cpu \"p.hpp\"; gpu \"p.cuh\" PGpu; }\n"
      "arch h { host X { cpu; gpu g0 = 0; } link X.cpu <-> X.g0 pcie (25 GB/s); }\n"
      "app x on h {\n"
      "  node s : Src @ X.cpu;\n"
      "  node p : P @ X.cpu;\n"
      "  node q : P @ X.g0;\n"
      "  node k : Snk @ X.cpu;\n"
      "  s.o -> p.x;  p.y -> q.x;  q.y -> k.i;\n"
      "}\n");
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  REQUIRE(p.islands.size() == 2);
  // The static edge between the islands only orders them: one element, never written.
  const ir::Edge& cross = p.dfg.edges[1];
  CHECK(p.dfg.nodes[cross.src].name == "island_p");
  CHECK(p.dfg.nodes[cross.dst].name == "island_q");
  const ir::TokenType& t = p.types[cross.type];
  CHECK(t.name == "Mapped_p_y");
  CHECK(t.order_only);
  CHECK_FALSE(t.bounded);
  CHECK(t.count.value == 1);
  // Both islands hold the ring, as a mapped boundary port without an adapter.
  CHECK(p.islands[0].port_mapped == std::vector<bool>{false, true});
  CHECK(p.islands[1].port_mapped == std::vector<bool>{true, false});
  CHECK(p.islands[0].port_between == std::vector<bool>{false, false});
  CHECK(p.islands[0].fifos[1].mapped);
  CHECK(p.islands[0].fifos[1].name == "p.y -> q.x");
  CHECK(p.islands[1].fifos[0].mapped);
  CHECK(p.islands[1].fifos[0].capacity == 16);  // a token an iteration; the plan multiplies it
  CHECK_FALSE(p.islands[1].fifos[1].mapped);
}

TEST_CASE("islands: a GPU island shares rings with no other GPU", "[sema][islands]") {
  auto r = test::analyze(
      "type B = int32[16];\n"
      "actor Src { out B o; cpu \"s.hpp\"; }\n"
      "actor Snk { in B i; cpu \"k.hpp\"; }\n"
      "actor P dynamic { in int32 x; out int32 y; cpu \"p.hpp\"; gpu \"p.cuh\" PGpu; }\n"
      "arch h { host X { cpu; gpu g0 = 0; gpu g1 = 1; } link X.cpu <-> X.g0 pcie (25 GB/s);\n"
      "  link X.cpu <-> X.g1 pcie (25 GB/s); }\n"
      "app x on h {\n"
      "  node s : Src @ X.cpu;\n"
      "  node p : P @ X.g0;\n"
      "  node q : P @ X.g1;\n"
      "  node k : Snk @ X.cpu;\n"
      "  s.o -> p.x;  p.y -> q.x;  q.y -> k.i;\n"
      "}\n");
  CHECK_FALSE(r->program);
  CHECK(r->summary().find("fifo edge p.y -> q.x joins dynamic nodes on X.g0 and X.g1; an island "
                          "on a GPU shares rings only with the CPUs of its host") !=
        std::string::npos);
}

TEST_CASE("islands: static edges of bounded types into and out of an island", "[sema][islands]") {
  auto r = test::analyze(
      "type P = int32[<= 16];\n"
      "type Q = int32[<= 32];\n"
      "actor Src { out P o; cpu \"s.hpp\"; }\n"
      "actor Snk { in Q i; cpu \"k.hpp\"; }\n"
      "actor D dynamic { in int32 x; out int32 y; cpu \"d.hpp\"; }\n"
      "arch h { host X { cpu; } }\n"
      "app x on h { node s : Src @ X.cpu; node d : D @ X.cpu; node k : Snk @ X.cpu;\n"
      "  s.o -> d.x;  d.y -> k.i; }\n");
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  REQUIRE(p.islands.size() == 1);
  CHECK(p.islands[0].port_bounded == std::vector<bool>{true, true});
  CHECK(p.islands[0].port_between == std::vector<bool>{false, false});
  CHECK(p.islands[0].port_elements == std::vector<std::int64_t>{16, 32});
  CHECK(p.islands[0].fifos[0].capacity == 16);
  CHECK(p.islands[0].fifos[1].capacity == 32);
}
