#include <catch2/catch.hpp>

#include "passes/fixtures.hpp"
#include "passes/schedule.hpp"

using namespace dfgc;
using test::ProgramBuilder;

namespace {
std::vector<std::string> names(const ir::Program& p, const std::vector<ir::NodeId>& nodes) {
  std::vector<std::string> result;
  for (ir::NodeId n : nodes) result.push_back(p.dfg.nodes[n].name);
  return result;
}
}  // namespace

TEST_CASE("a node is scheduled once all its predecessors are, ties in spec order", "[schedule]") {
  ProgramBuilder b;
  b.type("T", ir::ElemType::i32, 1);
  test::add_generic_actors(b, "T");
  b.host("A", 1);
  // Declared consumers first: the order must still follow the dependencies.
  b.node("j", "Join", "A.cpu").node("m", "Map", "A.g0").node("s2", "Source", "A.cpu");
  b.node("s1", "Source", "A.g0").node("k", "Sink", "A.cpu");
  b.edge("s1.o", "m.i").edge("m.o", "j.x").edge("s2.o", "j.y").edge("j.o", "k.i");
  ir::Program p = b.build();
  Schedule s = schedule(p.dfg, p.arch, p.mapping);
  CHECK(names(p, s.order) == std::vector<std::string>{"s2", "s1", "m", "j", "k"});
  CHECK(names(p, s.per_pe[0]) == std::vector<std::string>{"s2", "j", "k"});
  CHECK(names(p, s.per_pe[1]) == std::vector<std::string>{"s1", "m"});
  CHECK(s.index[0] == 3);
  CHECK(s.position[0] == 1);
  CHECK(dump(s, p).substr(0, 26) == "0 s2 @ A.cpu\n1 s1 @ A.g0\n2");
}

TEST_CASE("the paper example's schedule", "[schedule]") {
  ir::Program p = test::paper_example().build();
  Schedule s = schedule(p.dfg, p.arch, p.mapping);
  CHECK(names(p, s.order) ==
        std::vector<std::string>{"p", "a", "b", "c1", "c2", "d", "e", "f", "c3"});
  CHECK(names(p, s.per_pe[2]) == std::vector<std::string>{"b", "d", "e", "f"});
}
