/// \file
/// The warm-up (sema/warm_up.hpp): each node's first firings that see values from before the
/// stream, through windows, delays, rates and loops.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;

namespace {

const ir::Node& node(const test::Analysis& r, std::string_view name) {
  for (const ir::Node& n : r.program->dfg.nodes)
    if (n.name == name) return n;
  FAIL("no node " << name);
  return r.program->dfg.nodes.front();
}

const std::string kHead =
    "type T = float[1];\n"
    "actor Src { out T o; cpu \"s.hpp\"; }\n"
    "actor Fir { param int L = 4; param int R = 1; in T x rate R peek L; out T y; cpu \"f.hpp\"; }\n"
    "actor Map { in T x; out T y; cpu \"m.hpp\"; }\n"
    "actor Two { in T a; in T b; out T y; cpu \"t.hpp\"; }\n"
    "actor Sink { in T x; cpu \"k.hpp\"; }\n"
    "arch h { host X { cpu; } }\n";

}  // namespace

TEST_CASE("warm-up: windows add up along a chain, in each node's firings", "[sema][warm_up]") {
  // FMRadio's shape: a window of 64 at rate 5 with one token of delay (60 before the stream, 12
  // firings), a window of 2 (1 + 12), then windows of 64 (63 + 13).
  auto r =
      test::analyze(kHead +
                    "app x on h { node s : Src @ X.cpu; node lp : Fir @ X.cpu { L = 64; R = 5; };\n"
                    "  node d : Fir @ X.cpu { L = 2; }; node b : Fir @ X.cpu { L = 64; };\n"
                    "  node m : Map @ X.cpu; node k : Sink @ X.cpu;\n"
                    "  s.o -> lp.x delay 1 tokens; lp.y -> d.x; d.y -> b.x; b.y -> m.x; "
                    "m.y -> k.x; }\n");
  INFO(r->summary());
  REQUIRE(r->program);
  CHECK(node(*r, "s").warm_up == 0);
  CHECK(node(*r, "lp").warm_up == 12);
  REQUIRE(node(*r, "lp").warm_up_inputs.size() == 1);
  CHECK(node(*r, "lp").warm_up_inputs[0].before == 60);
  CHECK(node(*r, "d").warm_up == 13);
  CHECK(node(*r, "b").warm_up == 76);
  CHECK(node(*r, "m").warm_up == 76);  // no window of its own: its producer's warm-up firings
  CHECK(node(*r, "k").warm_up == 76);
  const ir::Dfg& g = r->program->dfg;
  CHECK(ir::warm_up_text(g, 1) == "warm-up 12 firings (x 60 before the stream)");
}

TEST_CASE("warm-up: values before the stream that are not whole firings say where windows start",
          "[sema][warm_up]") {
  // 59 before the stream at rate 5: firings 0 .. 11 see them, and firing 12's window starts at
  // the stream's token 1 (StreamIt's first firing would start at token 0).
  auto r =
      test::analyze(kHead +
                    "app x on h { node s : Src @ X.cpu; node lp : Fir @ X.cpu { L = 64; R = 5; };\n"
                    "  node k : Sink @ X.cpu; s.o -> lp.x; lp.y -> k.x; }\n");
  REQUIRE(r->program);
  CHECK(node(*r, "lp").warm_up == 12);
  CHECK(ir::warm_up_text(r->program->dfg, 1) ==
        "warm-up 12 firings (x 59 before the stream, windows from its token 1)");
  CHECK(node(*r, "k").warm_up == 12);
}

TEST_CASE("warm-up: the latest input counts; a delay outside a loop shifts the stream",
          "[sema][warm_up]") {
  auto r = test::analyze(kHead +
                         "app x on h { node s : Src @ X.cpu; node f : Fir @ X.cpu { L = 8; };\n"
                         "  node t : Two @ X.cpu; node k : Sink @ X.cpu;\n"
                         "  s.o -> f.x; f.y -> t.a; s.o -> t.b delay 3; t.y -> k.x; }\n");
  REQUIRE(r->program);
  CHECK(node(*r, "f").warm_up == 7);
  CHECK(node(*r, "t").warm_up == 7);  // a: 7 firings of f; b: 3 initial tokens
  REQUIRE(node(*r, "t").warm_up_inputs.size() == 2);
  CHECK(node(*r, "t").warm_up_inputs[1].before == 3);
}

TEST_CASE("warm-up: a loop's initial tokens are its state; a warm-up entering it goes round",
          "[sema][warm_up]") {
  auto r = test::analyze(kHead +
                         "app x on h { node s : Src @ X.cpu; node f : Fir @ X.cpu { L = 5; };\n"
                         "  node t : Two @ X.cpu; node m : Map @ X.cpu; node k : Sink @ X.cpu;\n"
                         "  s.o -> f.x; f.y -> t.a; m.y -> t.b delay 1; t.y -> m.x; t.y -> k.x; "
                         "}\n");
  INFO(r->summary());
  REQUIRE(r->program);
  CHECK(node(*r, "t").warm_up == 4);
  CHECK(node(*r, "m").warm_up == 4);
  CHECK(node(*r, "k").warm_up == 4);

  auto none = test::analyze(kHead +
                            "app x on h { node s : Src @ X.cpu; node t : Two @ X.cpu;\n"
                            "  node m : Map @ X.cpu; node k : Sink @ X.cpu;\n"
                            "  s.o -> t.a; m.y -> t.b delay 2; t.y -> m.x; t.y -> k.x; }\n");
  REQUIRE(none->program);
  for (const ir::Node& n : none->program->dfg.nodes) CHECK(n.warm_up == 0);
}

TEST_CASE("the graph's loops: the nodes of a loop share a part, every other node has its own",
          "[sema][warm_up][ir]") {
  auto r = test::analyze(kHead +
                         "app x on h { node s : Src @ X.cpu; node f : Fir @ X.cpu { L = 5; };\n"
                         "  node t : Two @ X.cpu; node m : Map @ X.cpu; node k : Sink @ X.cpu;\n"
                         "  s.o -> f.x; f.y -> t.a; m.y -> t.b delay 1; t.y -> m.x; t.y -> k.x; "
                         "}\n");
  REQUIRE(r->program);
  const ir::Dfg& g = r->program->dfg;
  const std::vector<std::uint32_t> part = g.loop_parts();
  REQUIRE(part.size() == 5);  // s f t m k
  CHECK(part[2] == part[3]);
  for (ir::NodeId a : {0u, 1u, 2u, 4u})
    for (ir::NodeId b : {0u, 1u, 2u, 4u})
      if (a != b) CHECK(part[a] != part[b]);
}
