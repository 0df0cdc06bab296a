/// \file
/// Composites and loops (sema/composites.hpp): each expands into the program its flat form would
/// give (names with indices appended and instances' names before them, placements inherited or
/// refined by a mapping, ports fanned out), and each mistake is reported where it was written.
#include <catch2/catch.hpp>

#include <string>

#include "sema_test_util.hpp"

using namespace dfgc;

namespace {

constexpr const char* kDecls =
    "param N = 4;\n"
    "type T = float[N];\n"
    "actor P { out T o; cpu \"p.hpp\"; }\n"
    "actor F { in T i; out T o; param int k = 1; param double g = 1; cpu \"f.hpp\"; }\n"
    "actor Two { in T i; out T a; out T b; cpu \"two.hpp\"; }\n"
    "actor Add { in T a; in T b; out T o; cpu \"add.hpp\"; }\n"
    "actor C { in T i0; in T i1; in T i2; cpu \"c.hpp\"; }\n"
    "actor K { in T i; cpu \"k.hpp\"; }\n"
    "arch a { host A { cpu c 8; } }\n";

// A chain of L filters, and a diamond of two chains of different lengths.
constexpr const char* kComposites =
    "composite Chain {\n"
    "  param L = 3;\n"
    "  param gain = 0.5;\n"
    "  in x;\n"
    "  out y;\n"
    "  for s in [0, L - 1] { node f[s] : F { k = s * 10; g = gain; } }\n"
    "  for s in [1, L - 1] { f[s - 1].o -> f[s].i; }\n"
    "  x -> f[0].i;\n"
    "  f[L - 1].o -> y;\n"
    "}\n"
    "composite Diamond {\n"
    "  param L;\n"
    "  in x;\n"
    "  out y;\n"
    "  node split : Two;\n"
    "  node left : Chain { L = L; }\n"
    "  node right : Chain { L = L + 1; gain = 2; }\n"
    "  node join : Add;\n"
    "  x -> split.i;\n"
    "  split.a -> left.x;\n"
    "  split.b -> right.x;\n"
    "  left.y -> join.a;\n"
    "  right.y -> join.b;\n"
    "  join.o -> y;\n"
    "}\n";

std::string dump_of(const std::string& text, const char* app) {
  return test::dump_of(std::string(kDecls) + text, app);
}

std::string diagnose(const std::string& text, const char* app = "x") {
  SemaOptions options;
  options.app = app;
  return test::diagnose(std::string(kDecls) + text, options);
}

// The diamond of L = 2 written out, every node on `pe` but those `right` places.
std::string flat_diamond(const std::string& pe, const std::string& right, const std::string& f1) {
  return "app x on a {\n"
         "  node s : P @ A.c0;\n"
         "  node d_split : Two @ " +
         pe +
         ";\n"
         "  node d_left_f0 : F @ " +
         pe +
         " { k = 0; g = 0.5; }\n"
         "  node d_left_f1 : F @ " +
         pe +
         " { k = 10; g = 0.5; }\n"
         "  node d_right_f0 : F @ " +
         right +
         " { k = 0; g = 2; }\n"
         "  node d_right_f1 : F @ " +
         f1 +
         " { k = 10; g = 2; }\n"
         "  node d_right_f2 : F @ " +
         right +
         " { k = 20; g = 2; }\n"
         "  node d_join : Add @ " +
         pe +
         ";\n"
         "  node k : K @ A.c0;\n"
         "  d_left_f0.o -> d_left_f1.i;\n"
         "  d_right_f0.o -> d_right_f1.i;\n"
         "  d_right_f1.o -> d_right_f2.i;\n"
         "  d_split.a -> d_left_f0.i;\n"
         "  d_split.b -> d_right_f0.i;\n"
         "  d_left_f1.o -> d_join.a;\n"
         "  d_right_f2.o -> d_join.b;\n"
         "  s.o -> d_split.i;\n"
         "  d_join.o -> k.i;\n"
         "}\n";
}

}  // namespace

TEST_CASE("an instance of a composite is the graph its nodes would be, written out", "[sema]") {
  const std::string app =
      "app x on a { node s : P @ A.c0; node d : Diamond @ A.c1 { L = 2; } node k : K @ A.c0;\n"
      "  s.o -> d.x; d.y -> k.i; }\n";
  CHECK(dump_of(kComposites + app, "x") == dump_of(flat_diamond("A.c1", "A.c1", "A.c1"), "x"));
}

TEST_CASE("a mapping places an instance, an inner instance and one node of it", "[sema]") {
  const std::string graph =
      "app g { node s : P; node d : Diamond { L = 2; } node k : K; s.o -> d.x; d.y -> k.i; }\n";
  const std::string mapping =
      "app x : g on a { s @ A.c0; d @ A.c1; d.right @ A.c2; d.right.f[1] @ A.c3; k @ A.c0; }\n";
  CHECK(dump_of(kComposites + graph + mapping, "x") ==
        dump_of(flat_diamond("A.c1", "A.c2", "A.c3"), "x"));
  // The expanded name places the node too.
  const std::string by_name =
      "app x : g on a { s @ A.c0; d @ A.c1; d_right @ A.c2; d_right_f1 @ A.c3; k @ A.c0; }\n";
  CHECK(dump_of(kComposites + graph + by_name, "x") ==
        dump_of(flat_diamond("A.c1", "A.c2", "A.c3"), "x"));
}

TEST_CASE("a mapping refines an instance's params, which changes its nodes", "[sema]") {
  const std::string graph =
      "app g { node s : P; node c : Chain; node k : K; s.o -> c.x; c.y -> k.i; }\n";
  const std::string mapping = "app x : g on a { s @ A.c0; c @ A.c1 { L = 2; } k @ A.c0; }\n";
  CHECK(dump_of(kComposites + graph + mapping, "x") ==
        dump_of("app x on a { node s : P @ A.c0;\n"
                "  node c_f0 : F @ A.c1 { k = 0; g = 0.5; } node c_f1 : F @ A.c1 { k = 10; g = "
                "0.5; }\n"
                "  node k : K @ A.c0; c_f0.o -> c_f1.i; s.o -> c_f0.i; c_f1.o -> k.i; }\n",
                "x"));
}

TEST_CASE("loops name nodes, PEs and ports by their indices", "[sema]") {
  const std::string looped =
      "app x on a {\n"
      "  node s : P @ A.c0;\n"
      "  for i in [0, 2] { node f[i] : F @ A.c[i + 1] migrates A.c[7 - i] { k = i * i; } }\n"
      "  node c : C @ A.c0;\n"
      "  for i in [0, 2] { s.o -> f[i].i; f[i].o -> c.i[i] delay i + 1; }\n"
      "}\n";
  const std::string flat =
      "app x on a {\n"
      "  node s : P @ A.c0;\n"
      "  node f0 : F @ A.c1 migrates A.c7 { k = 0; }\n"
      "  node f1 : F @ A.c2 migrates A.c6 { k = 1; }\n"
      "  node f2 : F @ A.c3 migrates A.c5 { k = 4; }\n"
      "  node c : C @ A.c0;\n"
      "  s.o -> f0.i; f0.o -> c.i0 delay 1; s.o -> f1.i; f1.o -> c.i1 delay 2;\n"
      "  s.o -> f2.i; f2.o -> c.i2 delay 3;\n"
      "}\n";
  CHECK(dump_of(looped, "x") == dump_of(flat, "x"));
  // A loop whose last value is before its first runs no time; loops nest.
  CHECK(dump_of(
            "app x on a { node s : P @ A.c0; for i in [1, 0] { node f[i] : F @ A.c1; }\n"
            "  for i in [0, 0] { for j in [0, 1] { node g[i][j] : K @ A.c[j]; s.o -> g[i][j].i; } "
            "} }\n",
            "x") == dump_of("app x on a { node s : P @ A.c0; node g00 : K @ A.c0;\n"
                            "  node g01 : K @ A.c1; s.o -> g00.i; s.o -> g01.i; }\n",
                            "x"));
}

TEST_CASE("mistakes in composites and loops are reported where they are written", "[sema]") {
  const std::string base = "app x on a { node s : P @ A.c0; node k : K @ A.c0; ";
  CHECK(diagnose("composite Q { node q : Q; }\n" + base + "node c : Q @ A.c1; }\n") ==
        "10:24: error: composite 'Q' contains itself: Q -> Q\n"
        "  10:11: note: 'Q' is declared here\n");
  CHECK(diagnose("composite Q { param L; in x; out y; node f : F; x -> f.i; f.o -> y; }\n" + base +
                 "node c : Q @ A.c1 { M = 2; } s.o -> c.x; c.y -> k.i; }\n") ==
        "11:72: error: composite 'Q' has no param 'M'; did you mean 'L'?\n"
        "  10:11: note: 'Q' is declared here\n");
  CHECK(diagnose("composite Q { param L; in x; out y; node f : F; x -> f.i; f.o -> y; }\n" + base +
                 "node c : Q @ A.c1; s.o -> c.x; c.y -> k.i; }\n") ==
        "11:57: error: node 'c' does not set param 'L' of composite 'Q', which has no default (add "
        "'{ L = ...; }')\n"
        "  10:21: note: 'L' is declared here\n");
  CHECK(diagnose("composite Q { in x; out y; node f : F; x -> f.i; }\n" + base +
                 "node c : Q @ A.c1; s.o -> c.x; }\n") ==
        "10:25: error: output 'y' of composite 'Q' has no producer: connect it in the body "
        "('node.port -> y;')\n"
        "  11:57: note: in this instance\n");
  CHECK(diagnose("composite Q { in x; out y; node f : F; x -> g.i; f.o -> y; }\n" + base +
                 "node c : Q @ A.c1; s.o -> c.x; c.y -> k.i; }\n") ==
        "10:45: error: composite 'Q' has no node 'g'; did you mean 'f'?\n");
  CHECK(diagnose("composite Q { in x; out y; node f : F; x -> y; }\n" + base +
                 "node c : Q @ A.c1; }\n") ==
        "10:42-43: error: edge x -> y joins two ports of composite 'Q'; an edge of a composite has "
        "a node at one end at least\n");
  CHECK(
      diagnose("composite Q { in x; out y; node f : F; x -> f.i delay 1; f.o -> y; }\n" + base +
               "node c : Q @ A.c1; s.o -> c.x; c.y -> k.i; }\n") ==
      "10:49-53: error: an edge to or from a port of composite 'Q' carries no delay; put it on the "
      "edge between the nodes, inside the composite or outside\n");
  CHECK(diagnose("composite Q { in x; out y; node f : F; x -> f.i; f.o -> y; f.o -> y; }\n" + base +
                 "node c : Q @ A.c1; s.o -> c.x; c.y -> k.i; }\n") ==
        "10:67: error: output 'y' of composite 'Q' has two producers\n"
        "  10:50-52: note: the first\n");
  CHECK(diagnose("composite Q { in x; out y; node f : F; x -> f.i; f.o -> y; }\n" + base +
                 "node c : Q @ A.c1; s.o -> c.x; c.z -> k.i; }\n") ==
        "11:85: error: node 'c' is an instance of composite 'Q', which has no output 'z'; did you "
        "mean 'y'?\n"
        "  10:11: note: 'Q' is declared here\n");
  CHECK(diagnose(base + "for i in [0, 1] { node f : F @ A.c1; } }\n") ==
        "10:75: error: node 'f' is declared once for each value of the loop around it; give its "
        "name the loop's variable as an index ('f[i]')\n");
  CHECK(diagnose("composite Q { in x; node f : K; x -> f.i; }\n"
                 "app x on a { node s : P @ A.c0; node c : Q @ A.c1; node c_f : K @ A.c1;\n"
                 "  s.o -> c.x; s.o -> c_f.i; }\n") ==
        "11:57-59: error: duplicate node 'c_f'\n"
        "  10:26: note: previous definition is here\n");
  CHECK(
      diagnose(base + "node f[1 - 2] : F @ A.c1; }\n") ==
      "10:59-63: error: index -1 of 'f' is negative; a node or PE is named by its indices' values "
      "appended to its name (f-1 would not be a name)\n");
  CHECK(diagnose(base + "for i in [0, 2.5] { node f[i] : F @ A.c1; } }\n") ==
        "10:65-67: error: real number 2.5 in an integer expression; sizes, params and gpu ordinals "
        "are integers\n");
  CHECK(diagnose("composite F { in x; }\n" + base + "}\n") ==
        "10:11: error: composite 'F' has the name of an actor: a node's ':' names one or the "
        "other\n"
        "  4:7: note: previous declaration is here\n");
}

TEST_CASE("a loop too long for the expansion is refused without overflow", "[sema]") {
  CHECK(diagnose("app x on a { node s : P @ A.c0;\n"
                 "  for i in [-9223372036854775807, 9223372036854775807] { node f[i] : K @ A.c1; "
                 "s.o -> f[i].i; } }\n") ==
        "11:7: error: loop 'for i in [-9223372036854775807, 9223372036854775807]' runs more than "
        "1048576 times\n");
}
