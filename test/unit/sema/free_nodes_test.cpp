/// \file
/// The language of `dfgc map`: free nodes (`@ any`, `@ any gpu`, `@ any cpu`, `@ B.*`), tunable
/// params (`param split = 20 in [1, 39];`) and GPU memory capacities.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;
using dfgc::test::diagnose;

namespace {

constexpr const char* kDecls =
    "param N = 4;\n"
    "param split = 2 in [1, N - 1];\n"
    "type T = float[N];\n"
    "actor P { out T o; cpu \"p.hpp\"; }\n"
    "actor F { in T i; out T o; param int k = 1; cpu \"f.hpp\"; gpu \"f.cuh\"; }\n"
    "actor G { in T i; out T o; gpu \"g.cuh\"; }\n"
    "actor C { in T i; cpu \"c.hpp\"; }\n"
    "arch a {\n"
    "  host A { cpu; gpu g0 = 0 (memory 2 GiB); gpu g1 = 1; }\n"
    "  host B { cpu; gpu g0 = 0; }\n"
    "  link A.cpu <-> A.g0 pcie (25 GB/s); link A.cpu <-> A.g1 pcie (25 GB/s);\n"
    "  link B.cpu <-> B.g0 pcie (25 GB/s); link A.cpu <-> B.cpu net (1 GB/s);\n"
    "}\n";

std::string app(const std::string& nodes) {
  return std::string(kDecls) + "app x on a {\n" + nodes +
         "  p.o -> f.i; f.o -> g.i; g.o -> c.i;\n}\n";
}

std::vector<std::string> candidates(const ir::Program& p, const std::string& node) {
  std::vector<std::string> names;
  for (const ir::Node& n : p.dfg.nodes)
    if (n.name == node)
      for (ir::PeId pe : n.candidates) names.push_back(p.arch.pes[pe].name);
  return names;
}

}  // namespace

TEST_CASE("free nodes get the PEs of their placement that their actor can run on", "[sema]") {
  std::string spec =
      app("  node p : P @ A.cpu;\n  node f : F @ B.*;\n  node g : G @ any;\n"
          "  node c : C @ any cpu;\n");
  SemaOptions o;
  o.allow_free_nodes = true;
  auto a = test::analyze(spec, o);
  INFO(a->summary());
  REQUIRE(a->program);
  const ir::Program& p = *a->program;
  CHECK(candidates(p, "p").empty());
  CHECK(candidates(p, "f") == std::vector<std::string>{"B.cpu", "B.g0"});
  CHECK(candidates(p, "g") == std::vector<std::string>{"A.g0", "A.g1", "B.g0"});
  CHECK(candidates(p, "c") == std::vector<std::string>{"A.cpu", "B.cpu"});
  CHECK(p.mapping.pe_of[1] == *p.arch.find_pe("B.cpu"));  // the first candidate, a placeholder
  CHECK(p.params[1].tune->min == 1);
  CHECK(p.params[1].tune->max == 3);
  CHECK(p.arch.pes[1].memory == std::int64_t{2} << 30);
  CHECK(!p.arch.pes[2].memory);
}

TEST_CASE("outside 'dfgc map' a free node is an error", "[sema]") {
  CHECK(diagnose(app("  node p : P @ A.cpu;\n  node f : F @ A.g0;\n  node g : G @ any gpu;\n"
                     "  node c : C @ A.cpu;\n")) ==
        "17:16-22: error: node 'g' is not mapped; run 'dfgc map' to choose its processing "
        "element\n");
}

TEST_CASE("a tunable param's value may be set by -D within its range", "[sema]") {
  std::string spec =
      app("  node p : P @ A.cpu;\n  node f : F @ A.g0 { k = split; }\n"
          "  node g : G @ A.g0;\n  node c : C @ A.cpu;\n");
  SemaOptions o;
  o.defines.push_back({"split", "3"});
  auto a = test::analyze(spec, o);
  REQUIRE(a->program);
  CHECK(a->program->dfg.nodes[1].params[0].literal == "3");
  o.defines.back().value = "4";
  CHECK(diagnose(spec, o) ==
        "error: -D split=4: value 4 of param 'split' is outside its range "
        "[1, 3]\n");
}
