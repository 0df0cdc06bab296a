/// \file
/// Replicas: the copies a replica set asks for, the unfolded nodes, their PEs and the unfolded
/// edges with their initial tokens.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;

namespace {

std::string spec(const std::string& placement, const std::string& app_extra = "",
                 const std::string& loop = "") {
  return "type T = float[4];\n"
         "actor S { out T o; cpu \"s.hpp\"; }\n"
         "actor F { in T i; in T s; out T o; out T n; cpu \"f.hpp\"; }\n"
         "actor K { in T i; cpu \"k.hpp\"; }\n"
         "arch h { host X { cpu c 3; } }\n"
         "app x on h { " +
         app_extra + " node s : S @ " + placement +
         "; node f : F @ X.c0; node k : K @ X.c0;\n"
         "  s.o -> f.i; f.o -> k.i; f.n -> f.s delay " +
         (loop.empty() ? "1" : loop) + "; }\n";
}

}  // namespace

TEST_CASE("replicas: weights 2:1 unfold into three copies of every node", "[sema][replicas]") {
  auto r = test::analyze(spec("{X.c1: 2, X.c2}"));
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  CHECK(p.copies == 3);
  CHECK(p.batch == 3);  // no batch: a cycle runs one iteration per copy
  REQUIRE(p.dfg.nodes.size() == 9);
  // Node-major: s#0 s#1 s#2 f#0 ...; the replicated copies dealt 2:1, the others at home.
  CHECK(p.dfg.nodes[0].name == "s#0");
  CHECK(p.dfg.nodes[2].origin == "s");
  CHECK(p.dfg.nodes[2].copy == 2);
  CHECK(p.dfg.nodes[2].replicated);
  CHECK_FALSE(p.dfg.nodes[3].replicated);
  CHECK(p.arch.pes[p.mapping.pe_of[0]].name == "X.c1");
  CHECK(p.arch.pes[p.mapping.pe_of[1]].name == "X.c1");
  CHECK(p.arch.pes[p.mapping.pe_of[2]].name == "X.c2");
  for (ir::NodeId n = 3; n < 9; ++n) CHECK(p.arch.pes[p.mapping.pe_of[n]].name == "X.c0");
  // The loop of delay 1: f#0 -> f#1 and f#1 -> f#2 within the cycle, f#2 -> f#0 one cycle late.
  std::vector<std::string> loop;
  for (const ir::Edge& e : p.dfg.edges)
    if (e.dst_port == 1)
      loop.push_back(p.dfg.nodes[e.src].name + "->" + p.dfg.nodes[e.dst].name + ":" +
                     std::to_string(e.delay));
  CHECK(loop == std::vector<std::string>{"f#0->f#1:0", "f#1->f#2:0", "f#2->f#0:1"});
}

TEST_CASE("replicas: a batch is dealt in blocks, delays count a copy's blocks",
          "[sema][replicas]") {
  // batch 8 over two copies: each copy runs 4 iterations a cycle; delay 8 is 2 blocks.
  auto r = test::analyze(spec("{X.c1, X.c2}", "batch 8;", "8"));
  INFO(r->summary());
  REQUIRE(r->program);
  const ir::Program& p = *r->program;
  CHECK(p.copies == 2);
  CHECK(p.batch == 8);
  CHECK(p.copy_batch() == 4);
  CHECK(p.dfg.nodes[0].repetitions == 4);
  std::vector<std::string> loop;
  for (const ir::Edge& e : p.dfg.edges)
    if (e.dst_port == 1)
      loop.push_back(p.dfg.nodes[e.src].name + "->" + p.dfg.nodes[e.dst].name + ":" +
                     std::to_string(e.delay));
  // D = 2 blocks over C = 2 copies: copy j feeds copy j, one cycle late.
  CHECK(loop == std::vector<std::string>{"f#0->f#0:1", "f#1->f#1:1"});
}

TEST_CASE("replicas: a program without a replica set is not unfolded", "[sema][replicas]") {
  auto r = test::analyze(spec("X.c1"));
  REQUIRE(r->program);
  CHECK(r->program->copies == 1);
  CHECK(r->program->dfg.nodes.size() == 3);
  CHECK(r->program->dfg.nodes[0].origin.empty());
}
