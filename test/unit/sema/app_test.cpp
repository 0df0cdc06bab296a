/// \file
/// Choosing the app, and its nodes: actors, mappings and parameter values.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "sema_test_util.hpp"

using namespace dfgc;
using dfgc::test::diagnose;

namespace {

/// Lines 1 to 7: a type, three actors, an arch with a cpu and a gpu.
constexpr const char* kDecls =
    "param N = 4;\n"
    "type T = float[N];\n"
    "actor P { out T o; cpu \"p.hpp\"; }\n"
    "actor F { in T i; out T o; param int k = 1; param double s; gpu \"f.cuh\"; }\n"
    "actor C { in T i; cpu \"c.hpp\"; }\n"
    "arch a { host A { cpu; gpu g0 = 0; } link A.cpu <-> A.g0 pcie (25 GB/s); }\n"
    "arch b { host B { cpu; } }\n";

std::string app(const std::string& body, const std::string& head = "app x on a") {
  return std::string(kDecls) + head + " {\n" + body + "}\n";
}

}  // namespace

TEST_CASE("the app is the only one, or the one --app names", "[sema]") {
  std::string two = std::string(kDecls) +
                    "app one on b { node p : P @ B.cpu; node c : C @ B.cpu; p.o -> c.i; }\n"
                    "app two on b { node p : P @ B.cpu; node c : C @ B.cpu; p.o -> c.i; }\n";
  CHECK(diagnose(two) ==
        "error: the spec declares 2 apps (one, two); choose one with --app NAME\n"
        "  8:5-7: note: app 'one' is declared here\n"
        "  9:5-7: note: app 'two' is declared here\n");
  SemaOptions o;
  o.app = "twoo";
  CHECK(diagnose(two, o) == "error: --app twoo: no app named 'twoo'; did you mean 'two'?\n");
  o.app = "two";
  auto a = test::analyze(two, o);
  REQUIRE(a->program);
  CHECK(a->program->app_name == "two");
  CHECK(diagnose(kDecls) == "error: no app in spec; declare one with 'app NAME on ARCH { ... }'\n");
  CHECK(diagnose(two + "app one on a { }\n", o) ==
        "10:5-7: error: duplicate app 'one'\n"
        "  8:5-7: note: previous definition is here\n");
}

TEST_CASE("the app's arch must exist", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu;\n", "app x on aa")) ==
        "8:10-11: error: unknown arch 'aa'; did you mean 'a'?\n"
        "9:6: warning: output 'o' of node 'p' has no consumer; its tokens are dropped\n");
}

TEST_CASE("nodes name known actors and processing elements that can run them", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu;\nnode p : C @ A.cpu;\nnode f : Fx @ A.g0;\n"
                     "node g : F @ A.g1 { s = 1; }\nnode h : F @ B.cpu { s = 1; }\n"
                     "node i : F @ A.cpu { s = 2; }\nnode c : C @ A.g0;\n"
                     "p.o -> g.i; g.o -> h.i; h.o -> i.i; i.o -> c.i;\n")) ==
        "10:6: error: duplicate node 'p'\n"
        "  9:6: note: previous definition is here\n"
        "11:10-11: error: unknown actor 'Fx'; did you mean 'F'?\n"
        "12:16-17: error: host 'A' has no processing element 'g1'; did you mean 'g0'?\n"
        "  6:6: note: arch 'a' has processing elements A.cpu, A.g0\n"
        "13:14: error: arch 'a' has no host 'B'; did you mean 'A'?\n"
        "  6:6: note: arch 'a' has processing elements A.cpu, A.g0\n"
        "14:14-18: error: actor 'F' has no cpu implementation, but node 'i' is mapped to A.cpu "
        "(a cpu)\n"
        "  4:7: note: actor 'F' is declared here\n"
        "15:14-17: error: actor 'C' has no gpu implementation, but node 'c' is mapped to A.g0 "
        "(a gpu)\n"
        "  5:7: note: actor 'C' is declared here\n");
}

TEST_CASE("nodes set known parameters once, with values of the right type", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu;\n"
                     "node f : F @ A.g0 { kk = 2; k = 2; k = 3; s = 1.5; }\n"
                     "node g : F @ A.g0 { k = 2.5; s = true; }\n"
                     "node h : F @ A.g0 { k = 7; }\n"
                     "node c : C @ A.cpu;\n"
                     "p.o -> f.i; f.o -> g.i; g.o -> h.i; h.o -> c.i;\n")) ==
        "10:21-22: error: actor 'F' has no param 'kk'; did you mean 'k'?\n"
        "10:36: error: param 'k' is set twice in node 'f'\n"
        "  10:29: note: first set here\n"
        "11:25-27: error: cannot set int param 'k' to 2.5, a real number\n"
        "  4:38: note: 'k' is declared here as int\n"
        "11:34-37: error: cannot set double param 's' to true, a bool\n"
        "  4:58: note: 's' is declared here as double\n"
        "12:6: error: node 'h' must set param 's' of actor 'F', which has no default\n"
        "  4:58: note: 's' is declared here\n");
}

TEST_CASE("nodes carry one value per actor parameter, in the actor's order", "[sema]") {
  auto a =
      test::analyze(app("node p : P @ A.cpu;\nnode f : F @ A.g0 { s = 0.5; }\n"
                        "node g : F @ A.g0 { s = N; k = -N; }\nnode c : C @ A.cpu;\n"
                        "p.o -> f.i; f.o -> g.i; g.o -> c.i;\n"));
  REQUIRE(a->program);
  const auto& nodes = a->program->dfg.nodes;
  REQUIRE(nodes.size() == 4);
  REQUIRE(nodes[1].params.size() == 2);
  CHECK(nodes[1].params[0].name == "k");
  CHECK(nodes[1].params[0].literal == "1");
  CHECK(nodes[1].params[1].literal == "0.5");
  CHECK(nodes[2].params[0].literal == "-4");
  CHECK(nodes[2].params[1].literal == "4.0");
  CHECK(a->program->mapping.pe_of == std::vector<ir::PeId>{0, 1, 1, 0});
}

TEST_CASE("a node's param values carry the value sema evaluated, in the param's type",
          "[sema][params]") {
  const std::string spec =
      "param N = 0x10;\n"
      "type T = float[4];\n"
      "actor P { out T o; cpu \"p.hpp\"; }\n"
      "actor F { in T i; out T o; param int k = -N; param int64 l = 0x7fff_ffff_ffff_ffff;\n"
      "  param int64 m = -9223372036854775807 - 1; param float f = 1e-3; param double d = 2.5e3;\n"
      "  param float g = 0.1; param bool b = true; param double r = N / 3; cpu \"f.hpp\"; }\n"
      "actor C { in T i; cpu \"c.hpp\"; }\n"
      "arch a { host A { cpu; } }\n"
      "app x on a {\n"
      "  node p : P @ A.cpu;\n"
      "  node f : F @ A.cpu;\n"
      "  node h : F @ A.cpu { k = 0x2A * -1; l = 9007199254740993; f = -2.5e-1; d = -1;\n"
      "                       b = false; r = N / 3.0; }\n"
      "  node c : C @ A.cpu;\n"
      "  p.o -> f.i; f.o -> h.i; h.o -> c.i;\n"
      "}\n";
  auto value = [](const ir::Node& node, std::size_t i) {
    REQUIRE(i < node.params.size());
    return node.params[i].value;
  };
  SECTION("the defaults and the node's own values") {
    auto a = test::analyze(spec);
    REQUIRE(a->program);
    const ir::Node& f = a->program->dfg.nodes[1];
    CHECK(value(f, 0) == ir::ParamScalar{std::int64_t{-16}});
    CHECK(value(f, 1) == ir::ParamScalar{std::numeric_limits<std::int64_t>::max()});
    CHECK(value(f, 2) == ir::ParamScalar{std::numeric_limits<std::int64_t>::min()});
    CHECK(f.params[2].literal == "(-9223372036854775807 - 1)");
    CHECK(value(f, 3) == ir::ParamScalar{1e-3f});
    CHECK(value(f, 4) == ir::ParamScalar{2500.0});
    CHECK(value(f, 5) == ir::ParamScalar{0.1f});  // the float, not the double 0.1
    CHECK(value(f, 6) == ir::ParamScalar{true});
    CHECK(value(f, 7) == ir::ParamScalar{5.0});  // integer division, as written
    const ir::Node& h = a->program->dfg.nodes[2];
    CHECK(value(h, 0) == ir::ParamScalar{std::int64_t{-42}});
    CHECK(value(h, 1) == ir::ParamScalar{std::int64_t{9007199254740993}});
    CHECK(value(h, 3) == ir::ParamScalar{-0.25f});
    CHECK(value(h, 4) == ir::ParamScalar{-1.0});  // an integer given to a double
    CHECK(value(h, 6) == ir::ParamScalar{false});
    CHECK(value(h, 7) == ir::ParamScalar{16.0 / 3.0});
    // The actor's defaults carry theirs too.
    const ir::Actor& actor = a->program->dfg.actors[1];
    CHECK(actor.params[1].default_value ==
          ir::ParamScalar{std::numeric_limits<std::int64_t>::max()});
    CHECK(actor.params[5].default_value == ir::ParamScalar{0.1f});
  }
  SECTION("-D overrides the params the values depend on") {
    SemaOptions o;
    o.defines = {{"N", "-48"}};
    auto a = test::analyze(spec, o);
    REQUIRE(a->program);
    CHECK(value(a->program->dfg.nodes[1], 0) == ir::ParamScalar{std::int64_t{48}});
    CHECK(value(a->program->dfg.nodes[1], 7) == ir::ParamScalar{-16.0});
    CHECK(value(a->program->dfg.nodes[2], 7) == ir::ParamScalar{-16.0});
  }
}

TEST_CASE("to_double: a param value as a costs file holds it", "[sema][params]") {
  CHECK(ir::to_double(std::int64_t{-3}) == -3.0);
  CHECK(ir::to_double(0.1f) == 0.1);  // the float's shortest text, "0.1", read as a double
  CHECK(ir::to_double(1e10f) == 1e10);
  CHECK(ir::to_double(2.5) == 2.5);
  CHECK(ir::to_double(true) == 1.0);
  CHECK(ir::to_double(false) == 0.0);
}
