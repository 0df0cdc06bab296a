/// \file
/// Edges, unconnected ports, cycles and the reachability of mapped edges through the links.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;
using dfgc::test::diagnose;

namespace {

/// Lines 1 to 9: types, actors, an arch where A.g0 can only send to A.cpu and B is unreachable.
constexpr const char* kDecls =
    "param N = 4;\n"
    "type T = float[N];\ntype Alias = float[4];\ntype U = int32[N];\n"
    "actor P { out T o; cpu \"p.hpp\"; }\n"
    "actor F { in T i; in Alias j; out T o; cpu \"f.hpp\"; gpu \"f.cuh\"; }\n"
    "actor C { in U i; cpu \"c.hpp\"; }\n"
    "actor D { in T i; cpu \"d.hpp\"; }\n"
    "arch a { host A { cpu; gpu g0 = 0; } host B { cpu; } link A.g0 -> A.cpu pcie (25 GB/s); }\n";

std::string app(const std::string& body) {
  return std::string(kDecls) + "app x on a {\n" + body + "}\n";
}

}  // namespace

TEST_CASE("edges join an output to an input of known nodes", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu; node f : F @ A.cpu; node d : D @ A.cpu;\n"
                     "p.o -> f.i; p.o -> f.j; f.o -> d.i;\n"
                     "q.o -> f.i;\n"
                     "p.oo -> d.i;\n"
                     "f.i -> d.i;\n"
                     "p.o -> f.o;\n")) ==
        "13:1: error: unknown node 'q'; did you mean 'p'?\n"
        "14:3-4: error: node 'p' (actor 'P') has no port 'oo'; did you mean 'o'?\n"
        "15:1-3: error: 'f.i' is an input port; an edge must start at an output\n"
        "16:8-10: error: 'f.o' is an output port; an edge must end at an input\n");
}

TEST_CASE("a broken edge does not make its nodes look unconnected", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu; node f : F @ A.cpu; node d : D @ A.cpu;\n"
                     "p.o -> f.ii; p.o -> f.j; f.o -> dd.i;\n")) ==
        "11:46: error: input 'i' of node 'd' is not connected\n"
        "12:10-11: error: node 'f' (actor 'F') has no port 'ii'; did you mean 'i'?\n"
        "12:33-34: error: unknown node 'dd'; did you mean 'd'?\n");
}

TEST_CASE("types of an edge's ends agree; an alias of the same shape does", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu; node f : F @ A.cpu; node c : C @ A.cpu;\n"
                     "p.o -> f.i; p.o -> f.j; f.o -> c.i;\n")) ==
        "12:29-30: error: type mismatch on edge f.o -> c.i: 'T' is float[N] (4 elements) but 'U' "
        "is int32[N] (4 elements)\n"
        "  6:35: note: 'f.o' has type 'T'\n"
        "  7:14: note: 'c.i' has type 'U'\n");
}

TEST_CASE("an input has one producer, an output consumers", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu; node f : F @ A.cpu; node g : F @ A.cpu;\n"
                     "p.o -> f.i; p.o -> f.j; p.o -> f.i; p.o -> g.j;\n")) ==
        "11:26: warning: output 'o' of node 'f' has no consumer; its tokens are dropped\n"
        "11:46: error: input 'i' of node 'g' is not connected\n"
        "11:46: warning: output 'o' of node 'g' has no consumer; its tokens are dropped\n"
        "12:32-34: error: input 'f.i' already has an edge; an input takes one producer\n"
        "  12:8-10: note: first edge into 'f.i' is here\n");
}

TEST_CASE("--Werror makes an unconsumed output an error", "[sema]") {
  auto a = test::parse(app("node p : P @ A.cpu;\n"));
  a->diags.set_warnings_as_errors(true);
  test::analyze(*a);
  CHECK_FALSE(a->program);
  CHECK(a->summary() ==
        "11:6: error: output 'o' of node 'p' has no consumer; its tokens are dropped [-Werror]\n");
}

TEST_CASE("self-loops and cycles without initial tokens can never fire", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu; node f : F @ A.cpu; node g : F @ A.cpu;\n"
                     "node h : F @ A.cpu; node d : D @ A.cpu;\n"
                     "p.o -> f.i; f.o -> g.i; g.o -> h.i; h.o -> f.j; h.o -> g.j; g.o -> d.i;\n"
                     "node s : F @ A.cpu;\np.o -> s.i; s.o -> s.j;\n")) ==
        "12:6: error: input 'j' of node 'h' is not connected\n"
        "13:41-42: error: cycle in the data-flow graph: f -> g -> h -> f carries no initial token, "
        "so none of its nodes can ever fire; it lacks 1 token (give one of its edges `delay 1`)\n"
        "  13:17-18: note: edge f.o -> g.i is on the cycle\n"
        "  13:29-30: note: edge g.o -> h.i is on the cycle\n"
        "13:53-54: error: cycle in the data-flow graph: g -> h -> g carries no initial token, so "
        "none of its nodes can ever fire; it lacks 1 token (give one of its edges `delay 1`)\n"
        "  13:29-30: note: edge g.o -> h.i is on the cycle\n"
        "15:17-18: error: edge from node 's' to itself carries no initial token, so the node waits "
        "for itself forever; give it one: `s.o -> s.j delay 1;`\n");
}

TEST_CASE("cycles with initial tokens are legal", "[sema]") {
  CHECK(diagnose(app("node p : P @ A.cpu; node f : F @ A.cpu; node g : F @ A.cpu;\n"
                     "node d : D @ A.cpu;\n"
                     "p.o -> f.i; f.o -> g.i; g.o -> f.j delay 2; p.o -> g.j; g.o -> d.i;\n"
                     "node s : F @ A.cpu;\np.o -> s.i; s.o -> s.j delay 1 = 3;\n")) == "");
}

TEST_CASE("every edge between PEs has a path of links", "[sema]") {
  CHECK(
      diagnose(app("node p : P @ A.cpu; node f : F @ A.g0; node g : F @ A.g0; node d : D @ B.cpu;\n"
                   "p.o -> f.i; p.o -> f.j; f.o -> g.i; f.o -> g.j; g.o -> d.i;\n")) ==
      "12:5-6: error: no path from A.cpu to A.g0 through the links of arch 'a'\n"
      "  9:6: note: arch 'a' is declared here\n"
      "12:17-18: error: no path from A.cpu to A.g0 through the links of arch 'a'\n"
      "  9:6: note: arch 'a' is declared here\n"
      "12:53-54: error: no path from A.g0 to B.cpu through the links of arch 'a'\n"
      "  9:6: note: arch 'a' is declared here\n");
}

TEST_CASE("sizes set at run time match only the same expression", "[sema]") {
  std::string decls =
      "runtime param W = 640;\ntype A = uint8[W];\ntype B = uint8[W];\ntype C = uint8[640];\n"
      "actor P { out A o; cpu \"p.hpp\"; }\nactor Q { in B i; cpu \"q.hpp\"; }\n"
      "actor R { in C i; cpu \"r.hpp\"; }\narch a { host A { cpu; } }\n";
  CHECK(diagnose(decls + "app x on a { node p : P @ A.cpu; node q : Q @ A.cpu; p.o -> q.i; }\n")
            .empty());
  CHECK(diagnose(decls + "app x on a { node p : P @ A.cpu; node r : R @ A.cpu; p.o -> r.i; }\n") ==
        "9:58-59: error: type mismatch on edge p.o -> r.i: 'A' is uint8[W] (640 elements by "
        "default) but 'C' is uint8[640] (640 elements)\n"
        "  5:15: note: 'p.o' has type 'A'\n"
        "  7:14: note: 'r.i' has type 'C'\n");
}
