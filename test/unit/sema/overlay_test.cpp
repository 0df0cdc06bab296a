/// \file
/// Graphs written once and the apps that map them (sema/overlay.hpp): a mapping gives the program
/// its whole-app form would give, refines params, sets the batch, carries replicas and
/// alternatives.
#include <catch2/catch.hpp>

#include <string>

#include "sema_test_util.hpp"

using namespace dfgc;

namespace {

constexpr const char* kDecls =
    "param N = 4;\n"
    "type T = float[N];\n"
    "actor P { out T o; cpu \"p.hpp\"; }\n"
    "actor F { in T i; out T o; param int k = 1; param double s = 0; cpu \"f.hpp\"; }\n"
    "actor C { in T i; cpu \"c.hpp\"; }\n"
    "arch a { host A { cpu c 3; } }\n";

std::string dump_of(const std::string& text, const char* app) {
  return test::dump_of(std::string(kDecls) + text, app);
}

}  // namespace

TEST_CASE("a mapping of a graph is the program its whole app would be", "[sema]") {
  const std::string graph =
      "app g { node p : P; node f : F { k = 2; } node c : C; p.o -> f.i; f.o -> c.i delay 1; }\n";
  const std::string whole =
      "app x on a { node p : P @ A.c0; node f : F @ A.c1 { k = 2; } node c : C @ A.c2;\n"
      "  p.o -> f.i; f.o -> c.i delay 1; }\n";
  const std::string mapping = "app x : g on a { c @ A.c2; p @ A.c0; f @ A.c1; }\n";
  CHECK(dump_of(graph + mapping, "x") == dump_of(whole, "x"));
}

TEST_CASE("a mapping refines the graph's params and sets its batch", "[sema]") {
  const std::string graph =
      "app g { node p : P; node f : F { k = 2; } node c : C; p.o -> f.i; f.o -> c.i; batch 2; }\n";
  const std::string mappings =
      "app x : g on a { p @ A.c0; f @ A.c1 { s = 0.5; k = 3; } c @ A.c2; batch 4; }\n"
      "app y : g on a { p @ A.c0; f @ A.c1; c @ A.c2; }\n";
  CHECK(dump_of(graph + mappings, "x") ==
        dump_of("app x on a { node p : P @ A.c0; node f : F @ A.c1 { k = 3; s = 0.5; }\n"
                "  node c : C @ A.c2; p.o -> f.i; f.o -> c.i; batch 4; }\n",
                "x"));
  CHECK(dump_of(graph + mappings, "y") ==
        dump_of("app y on a { node p : P @ A.c0; node f : F @ A.c1 { k = 2; }\n"
                "  node c : C @ A.c2; p.o -> f.i; f.o -> c.i; batch 2; }\n",
                "y"));
}

TEST_CASE("a mapping's replicas and alternatives are the node's", "[sema]") {
  const std::string graph =
      "app g { node p : P; node f : F; node c : C; p.o -> f.i; f.o -> c.i; }\n";
  CHECK(dump_of(graph + "app x : g on a { p @ A.c0; f @ {A.c1, A.c2: 2}; c @ A.c0; }\n", "x") ==
        dump_of("app x on a { node p : P @ A.c0; node f : F @ {A.c1, A.c2: 2}; node c : C @ A.c0;\n"
                "  p.o -> f.i; f.o -> c.i; }\n",
                "x"));
  CHECK(dump_of(graph + "app x : g on a { p @ A.c0; f @ A.c1 migrates A.c2; c @ A.c0; }\n", "x") ==
        dump_of("app x on a { node p : P @ A.c0; node f : F @ A.c1 migrates A.c2;\n"
                "  node c : C @ A.c0; p.o -> f.i; f.o -> c.i; }\n",
                "x"));
}

TEST_CASE("a refined param is checked where the mapping writes it", "[sema]") {
  SemaOptions options;
  options.app = "x";
  CHECK(test::diagnose(std::string(kDecls) +
                           "app g { node p : P; node f : F; node c : C; p.o -> f.i; f.o -> c.i; }\n"
                           "app x : g on a { p @ A.c0; f @ A.c1 { k = 1; k = 2; } c @ A.c2; }\n",
                       options) ==
        "8:46: error: param 'k' is set twice in node 'f'\n"
        "  8:39: note: first set here\n");
}
