/// \file
/// Actor declarations: ports, parameters and their values, implementations and header paths.
#include <catch2/catch.hpp>

#include "sema/actors.hpp"
#include "sema_test_util.hpp"

using namespace dfgc;
using dfgc::test::diagnose;

namespace {

/// `actors` (starting on line 3) with a type T and an app that uses none of them.
std::string with_app(const std::string& actors) {
  return "param N = 4;\ntype T = float[N];\n" + actors +
         "\nactor P { out T o; cpu \"p.hpp\"; }\n"
         "actor C { in T i; cpu \"c.hpp\"; }\n"
         "arch a { host A { cpu; } }\n"
         "app x on a { node p : P @ A.cpu; node c : C @ A.cpu; p.o -> c.i; }\n";
}

const ir::Actor& first_actor(const test::Analysis& a) {
  REQUIRE(a.program);
  return a.program->dfg.actors.at(0);
}

}  // namespace

TEST_CASE("names inside an actor are unique and its types known", "[sema]") {
  CHECK(diagnose(with_app("actor F { in T a; out Tt b; in T a; param int k; param intt j;\n"
                          "  param bool k; cpu \"f.hpp\"; }\nactor F { cpu \"g.hpp\"; }")) ==
        "3:23-24: error: unknown type 'Tt'; did you mean 'T'?\n"
        "3:34: error: duplicate port 'a'\n"
        "  3:16: note: previous definition is here\n"
        "3:56-59: error: unknown param type 'intt'; expected int, int64, float, double or bool; "
        "did you mean 'int'?\n"
        "4:14: error: duplicate param 'k'\n"
        "  3:47: note: previous definition is here\n"
        "5:7: error: duplicate actor 'F'\n"
        "  3:7: note: previous definition is here\n");
}

TEST_CASE("implementations: at least one, one per kind, a header", "[sema]") {
  CHECK(diagnose(with_app(
            "actor E { in T a; }\nactor G { gpu \"g.cuh\"; cpu \"\" Gc; gpu \"h.cuh\"; }")) ==
        "3:7: error: actor 'E' has no implementation; add a line such as 'cpu \"E.hpp\" E;'\n"
        "4:28-29: error: empty header path\n"
        "4:35-37: error: actor 'G' has two gpu implementations\n"
        "  4:11-13: note: previous gpu implementation is here\n");
}

TEST_CASE("an implementation's class defaults to the actor's name", "[sema]") {
  auto a = test::analyze(with_app("actor F { cpu \"sub/f.hpp\"; gpu \"f.cuh\" FGpu; }"));
  const ir::Actor& f = first_actor(*a);
  REQUIRE(f.impls.size() == 2);
  CHECK(f.impls[0].class_name == "F");
  CHECK(f.impls[0].header == "sub/f.hpp");
  CHECK(f.impls[0].header_path == "sub/f.hpp");
  CHECK(f.impls[1].kind == ir::PeKind::gpu);
  CHECK(f.impls[1].class_name == "FGpu");
}

TEST_CASE("header paths are joined to the spec's directory, lexically", "[sema]") {
  CHECK(sema::header_path("samples/overlap/one_gpu.dfg", "actors/inc.cuh") ==
        "samples/overlap/actors/inc.cuh");
  CHECK(sema::header_path("samples/overlap/one_gpu.dfg", "./actors/../inc.cuh") ==
        "samples/overlap/inc.cuh");
  CHECK(sema::header_path("app.dfg", "../inc/a.hpp") == "../inc/a.hpp");
  CHECK(sema::header_path("/abs/app.dfg", "a.hpp") == "/abs/a.hpp");
  CHECK(sema::header_path("x/app.dfg", "/usr/include/a.hpp") == "/usr/include/a.hpp");
}

TEST_CASE("parameter defaults become C++ literals", "[sema]") {
  auto a = test::analyze(with_app(
      "actor F { param int i = -N * 2; param int64 l = -9223372036854775807 - 1;\n"
      "  param float f = 2.5; param float g = 100; param float h = 0.1; param double d = 1 / 4;\n"
      "  param double e = 1e300; param double r = 0.1 * 3; param bool b = false; param int u;\n"
      "  param double m = min(2, 0.5) + max(1, 2); cpu \"f.hpp\"; }"));
  const ir::Actor& f = first_actor(*a);
  REQUIRE(f.params.size() == 11);
  auto literal = [&](std::size_t i) { return f.params[i].default_literal.value_or("none"); };
  CHECK(literal(0) == "-8");
  CHECK(literal(1) == "(-9223372036854775807 - 1)");
  CHECK(literal(2) == "2.5f");
  CHECK(literal(3) == "100.0f");
  CHECK(literal(4) == "0.1f");
  CHECK(literal(5) == "0.0");  // integer division, as written
  CHECK(literal(6) == "1e+300");
  CHECK(literal(7) == "0.30000000000000004");
  CHECK(literal(8) == "false");
  CHECK(literal(9) == "none");
  CHECK(literal(10) == "2.5");
  CHECK(f.params[0].type == "int");
  CHECK(f.params[1].type == "int64");
}

TEST_CASE("real-valued parameters take min and max of mixed operands", "[sema]") {
  auto a = test::analyze(
      with_app("actor F { param double m = min(2, 0.5) + max(1, 2.5); cpu \"f.hpp\"; }"));
  CHECK(first_actor(*a).params.at(0).default_literal == "3.0");
}

TEST_CASE("parameter values must suit the parameter's type", "[sema]") {
  CHECK(diagnose(with_app(
            "actor F { param int k = 2.5; param bool v = 1; param int j = true; param int b = "
            "3000000000;\n"
            "  param float f = -1e300; param double x = true + 1; param double y = 2.5 % 2;\n"
            "  param double z = 1e308 * 10; param double q = 1 / 0.0; param int w = N / 0;\n"
            "  cpu \"f.hpp\"; }")) ==
        "3:25-27: error: cannot set int param 'k' to 2.5, a real number\n"
        "3:45: error: cannot set bool param 'v' to 1, an integer\n"
        "3:62-65: error: cannot set int param 'j' to true, a bool\n"
        "3:82-91: error: value 3000000000 is out of range for int param 'b'\n"
        "4:19-24: error: value -1e+300 is out of range for float param 'f'\n"
        "4:44-47: error: a bool cannot be used in arithmetic\n"
        "4:75: error: '%' needs integer operands\n"
        "5:26: error: overflow in real expression\n"
        "5:51: error: division by zero\n"
        "5:74: error: division by zero\n");
}

TEST_CASE("parameter values are fixed when dfgc runs", "[sema]") {
  CHECK(
      diagnose(with_app("runtime param W = 8;\nactor F { param int k = W + 1; cpu \"f.hpp\"; }")) ==
      "4:25: error: the value of param 'k' depends on runtime param 'W'; only token sizes may "
      "depend on runtime params\n"
      "  3:15: note: 'W' is declared here\n");
}
