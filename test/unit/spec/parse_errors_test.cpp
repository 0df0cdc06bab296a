#include <catch2/catch.hpp>

#include <string>

#include "spec_test_util.hpp"

using namespace dfgc;
using dfgc::test::Parsed;

namespace {

struct Case {
  const char* source;
  const char* message;  ///< the only error expected
  const char* where;    ///< its line:col
};

/// Each mistake gives exactly one error, at the expected place.
void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    Parsed p(c.source);
    INFO("source: " << c.source << "\n" << p.diags.render());
    REQUIRE(p.errors().size() == 1);
    CHECK(p.errors()[0] == c.message);
    CHECK(p.where() == c.where);
  }
}

}  // namespace

TEST_CASE("top level and param errors", "[spec][parse-errors]") {
  check_cases({
      {"foo;",
       "expected 'import', 'param', 'runtime param', 'struct', 'type', 'actor', 'arch', 'app' or 'composite', found 'foo'",
       "1:1"},
      {"param N = 1;\n}", "extraneous closing brace ('}')", "2:1"},
      {"import x;", "expected a file name string after 'import', found 'x'", "1:8"},
      {"import \"a.dfg\"", "expected ';' after import declaration", "1:15"},
      {"runtime N = 1;", "expected 'param' after 'runtime', found 'N'", "1:9"},
      {"param = 1;", "expected a parameter name after 'param', found '='", "1:7"},
      {"param N 2;", "expected '=' after parameter name 'N', found '2'", "1:9"},
      {"param N = 2\nparam M = 3;", "expected ';' after param declaration", "1:12"},
      {"type = float[1];", "expected a type name after 'type', found '='", "1:6"},
      {"type M float[1];", "expected '=' after type name 'M', found 'float'", "1:8"},
      {"type M = [1];", "expected an element type name (float, int32, ...) after '=', found '['",
       "1:10"},
      {"type M = float N;", "expected '[' after element type 'float', found 'N'", "1:16"},
      {"type M = float[N;", "expected ']' after element count, found ';'", "1:17"},
      {"type M = float[N]", "expected ';' after type declaration", "1:18"},
  });
}

TEST_CASE("actor errors", "[spec][parse-errors]") {
  check_cases({
      {"actor { }", "expected an actor name after 'actor', found '{'", "1:7"},
      {"actor A;", "expected '{' after actor name 'A', found ';'", "1:8"},
      {"actor A { foo X a; }",
       "expected 'in', 'out', 'param', 'cpu', 'gpu', 'uses' or 'ends' in actor body, found 'foo'",
       "1:11"},
      {"actor A { in ; }", "expected a type name after 'in', found ';'", "1:14"},
      {"actor A { out X; }", "expected a port name after type 'X', found ';'", "1:16"},
      {"actor A { in X a b; }", "expected ';' after port declaration", "1:17"},
      {"actor A { param = 1; }",
       "expected a parameter type (int, int64, float, double or bool) after 'param', found '='",
       "1:17"},
      {"actor A { param int = 1; }", "expected a parameter name after type 'int', found '='",
       "1:21"},
      {"actor A { param int x 3; }", "expected '=' or ';' after parameter name 'x', found '3'",
       "1:23"},
      {"actor A { param int x = 3 }", "expected ';' after parameter declaration", "1:26"},
      {"actor A { cpu Foo; }", "expected a header file name string after 'cpu', found 'Foo'",
       "1:15"},
      {"actor A { gpu \"a.cuh\" A B; }", "expected ';' after implementation declaration", "1:24"},
      {"actor A { in X a;", "expected '}' at end of actor body", "1:18"},
  });
}

TEST_CASE("arch errors", "[spec][parse-errors]") {
  check_cases({
      {"arch { }", "expected an architecture name after 'arch', found '{'", "1:6"},
      {"arch a host A {}", "expected '{' after arch name 'a', found 'host'", "1:8"},
      {"arch a { cpu; }", "expected 'host' or 'link' in arch body, found 'cpu'", "1:10"},
      {"arch a { host { cpu; } }", "expected a host name after 'host', found '{'", "1:15"},
      {"arch a { host A cpu; }", "expected '{' after host name 'A', found 'cpu'", "1:17"},
      {"arch a { host A { cpu } }", "expected ';' after 'cpu'", "1:22"},
      {"arch a { host A { tpu t = 0; } }", "expected 'cpu' or 'gpu' in host body, found 'tpu'",
       "1:19"},
      {"arch a { host A { gpu = 0; } }", "expected a GPU name after 'gpu', found '='", "1:23"},
      {"arch a { host A { gpu g0 0; } }", "expected '=' after GPU name 'g0', found '0'", "1:26"},
      {"arch a { host A { gpu g0 = 0 } }", "expected ';' after GPU declaration", "1:29"},
      {"arch a { host A { cpu; }", "expected '}' at end of arch body", "1:25"},
  });
}

TEST_CASE("link errors", "[spec][parse-errors]") {
  check_cases({
      {"arch a { link (1 B/s); }",
       "expected a processing element (host.pe) after 'link', found '('", "1:15"},
      {"arch a { link A <-> B.cpu x (1 B/s); }", "expected '.' after host name 'A', found '<->'",
       "1:17"},
      {"arch a { link A. <-> B.cpu x (1 B/s); }",
       "expected a processing element name after 'A.', found '<->'", "1:18"},
      {"arch a { link A.cpu - B.cpu x (1 B/s); }",
       "expected '<->' or '->' after 'A.cpu', found '-'", "1:21"},
      {"arch a { link A.cpu -> (1 B/s); }",
       "expected a processing element (host.pe) after '->', found '('", "1:24"},
      {"arch a { link A.cpu <-> B.cpu (1 B/s); }",
       "expected a link kind (pcie, nvlink, net or gpudirect) after 'B.cpu', found '('", "1:31"},
      {"arch a { link A.cpu <-> B.cpu net 1 B/s; }",
       "expected '(' after link kind 'net', found '1'", "1:35"},
      {"arch a { link A.cpu <-> B.cpu net (fast); }",
       "expected a bandwidth (e.g. 25 GB/s), found 'fast'", "1:36"},
      {"arch a { link A.cpu <-> B.cpu net (25); }",
       "expected a bandwidth unit (e.g. GB/s) after the number, found ')'", "1:38"},
      {"arch a { link A.cpu <-> B.cpu net (25 GB); }",
       "expected '/s' after 'GB' in bandwidth, found ')'", "1:41"},
      {"arch a { link A.cpu <-> B.cpu net (25 GB/h); }",
       "expected '/s' after 'GB' in bandwidth, found '/'", "1:41"},
      {"arch a { link A.cpu <-> B.cpu net (25 XB/s); }",
       "unknown bandwidth unit 'XB/s'; expected B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, "
       "Kb/s, Mb/s or Gb/s",
       "1:39"},
      {"arch a { link A.cpu <-> B.cpu net (0 GB/s); }", "link bandwidth must be greater than zero",
       "1:36"},
      {"arch a { link A.cpu <-> B.cpu net (1e300 TB/s); }", "link bandwidth is too large", "1:36"},
      {"arch a { link A.cpu <-> B.cpu net (1 GB/s,); }",
       "expected a latency (e.g. 5 us) after ',', found ')'", "1:43"},
      {"arch a { link A.cpu <-> B.cpu net (1 GB/s, 5); }",
       "expected a latency unit (ns, us, ms or s), found ')'", "1:45"},
      {"arch a { link A.cpu <-> B.cpu net (1 GB/s, 5 ps); }",
       "expected a latency unit (ns, us, ms or s), found 'ps'", "1:46"},
      {"arch a { link A.cpu <-> B.cpu net (1 GB/s, 5 us; }",
       "expected ')' after latency, found ';'", "1:48"},
      {"arch a { link A.cpu <-> B.cpu net (1 GB/s x); }",
       "expected ',' or ')' after bandwidth, found 'x'", "1:43"},
      {"arch a { link A.cpu <-> B.cpu net (1 GB/s) }", "expected ';' after link declaration",
       "1:43"},
  });
}

TEST_CASE("app errors", "[spec][parse-errors]") {
  check_cases({
      {"app on a { }", "expected ':', 'on' or '{' after 'app on', found 'a'", "1:8"},
      {"app { }", "expected an app name after 'app', found '{'", "1:5"},
      {"app x : { }", "expected the name of the graph that app 'x' maps after ':', found '{'",
       "1:9"},
      {"app x : g { }",
       "expected 'on' after 'app x : g' (a mapping of a graph names its architecture), found '{'",
       "1:11"},
      {"app x : g on y { p.o -> q.i; }",
       "expected a placement (node @ PE;) in app 'x', which maps graph 'g' (its nodes and edges are "
       "the graph's), found '->'",
       "1:22"},
      {"app x : g on y { p @ ; }",
       "expected a processing element (host.pe), 'any' or 'host.*' after '@', found ';'", "1:22"},
      {"app x { node p : P @ A.cpu; }",
       "node 'p' of graph 'x' has no placement: the apps that map the graph place it ('app NAME : "
       "x on ARCH { p @ PE; }')",
       "1:20"},
      {"app x { node p : P }", "expected ';' after node declaration", "1:19"},
      {"app x on { }", "expected an architecture name after 'on', found '{'", "1:10"},
      {"app x on y;", "expected '{' after 'app x on y', found ';'", "1:11"},
      {"app x on y { foo; }",
       "expected 'node', 'batch', 'for' or an edge (node.port -> node.port) in app body, found 'foo'",
       "1:14"},
      {"app x on y { 3; }",
       "expected 'node', 'batch', 'for' or an edge (node.port -> node.port) in app body, found '3'",
       "1:14"},
      {"app x on y { batch 4; batch 8; }",
       "app 'x' says 'batch' twice; one statement sets its iterations a cycle", "1:23"},
      {"app x on y { batch ; }", "expected an expression, found ';'", "1:20"},
      {"app x on y { batch 4 }", "expected ';' after batch", "1:21"},
      {"app x on y { node : P @ A.cpu; }", "expected a node name after 'node', found ':'", "1:19"},
      {"app x on y { node p P @ A.cpu; }", "expected ':' after node name 'p', found 'P'", "1:21"},
      {"app x on y { node p : @ A.cpu; }",
       "expected an actor or composite name after ':', found '@'", "1:23"},
      {"app x on y { node p : P A.cpu; }", "expected '@' after actor name 'P', found 'A'", "1:25"},
      {"app x on y { node p : P @ ; }",
       "expected a processing element (host.pe), 'any' or 'host.*' after '@', found ';'", "1:27"},
      {"app x on y { node p : P @ A.; }",
       "expected a processing element name or '*' after 'A.', found ';'", "1:29"},
      {"app x on y { node p : P @ any.; }",
       "expected a processing element name or '*' after 'any.', found ';'", "1:31"},
      {"param s = 1 in 1, 2];", "expected '[' after 'in' (the range of param 's'), found '1'",
       "1:16"},
      {"param s = 1 in [1 2];", "expected ',' between the ends of the range, found '2'", "1:19"},
      {"arch a { host A { cpu; gpu g = 0 (mem 1 GiB); } }",
       "expected 'memory' after '(' in GPU declaration, found 'mem'", "1:35"},
      {"arch a { host A { cpu; gpu g = 0 (memory 1 Gb); } }",
       "expected a memory unit (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found 'Gb'", "1:44"},
      {"arch a { host A { cpu; gpu g = 0 (memory 0 B); } }",
       "GPU memory must be at least one byte and finite", "1:42"},
      {"app x on y { node p : P @ A.cpu }", "expected ';' after node declaration", "1:32"},
      {"app x on y { node p : P @ A.cpu { 3 = 4; } }",
       "expected a parameter name in node parameter list, found '3'", "1:35"},
      {"app x on y { node p : P @ A.cpu { n 4; } }",
       "expected '=' after parameter name 'n', found '4'", "1:37"},
      {"app x on y { node p : P @ A.cpu { n = 4 } }", "expected ';' after parameter value", "1:40"},
      {"app x on y { node p : P @ A.cpu migrates; }",
       "expected a processing element (host.pe) after 'migrates', found ';'", "1:41"},
      {"app x on y { node p : P @ A.cpu migrates B.g0,; }",
       "expected a processing element (host.pe) after ',', found ';'", "1:47"},
      {"app x on y { node p : P @ A.cpu migrates B; }",
       "expected '.' after host name 'B', found ';'", "1:43"},
      {"app x on y { node p : P @ A.cpu migrates B.g0 B.g1; }",
       "expected ';' after node declaration", "1:46"},
      {"app x on y { p. -> q.a; }", "expected a port name after 'p.', found '->'", "1:17"},
      {"app x on y { p.m q.a; }", "expected '->' after 'p.m', found 'q'", "1:18"},
      {"app x on y { p.m -> ; }", "expected a port reference (node.port) after '->', found ';'",
       "1:21"},
      {"app x on y { p.m -> q; }", "expected '.' after node name 'q', found ';'", "1:22"},
      {"app x on y { p.m -> q.a -> r.b; }", "expected ';' after edge", "1:24"},
      {"app x on y { p.m -> q.a;", "expected '}' at end of app body", "1:25"},
  });
}

TEST_CASE("expression errors", "[spec][parse-errors]") {
  check_cases({
      {"param N = ;", "expected an expression, found ';'", "1:11"},
      {"param N = 1 + ;", "expected an expression, found ';'", "1:15"},
      {"param N = \"x\";", "expected an expression, found a string", "1:11"},
      {"param N = (1 + 2;", "expected ')' after expression, found ';'", "1:17"},
      {"param N = pow(2, 3);", "unknown function 'pow'; expected 'min' or 'max'", "1:11"},
      {"param N = min(2 3);", "expected ',' or ')' in call to 'min', found '3'", "1:17"},
      {"param N = max();", "expected an expression, found ')'", "1:15"},
  });
}

TEST_CASE("unmatched brackets point back at the opening one", "[spec][parse-errors]") {
  Parsed p("param N = (1 + 2;\nparam M = min(1 x);\ntype T = int32[4;\nactor A {\n");
  REQUIRE(p.diags.diagnostics().size() == 4);
  for (const Diagnostic& d : p.diags.diagnostics()) {
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message.starts_with("to match this '"));
  }
  CHECK(p.sm.line_col(p.diags.diagnostics()[0].notes[0].loc).col == 11);
  CHECK(p.diags.diagnostics()[1].notes[0].message == "to match this '('");
  CHECK(p.diags.diagnostics()[2].notes[0].message == "to match this '['");
  CHECK(p.diags.diagnostics()[3].notes[0].message == "to match this '{'");
  CHECK(p.sm.line_col(p.diags.diagnostics()[3].notes[0].loc).line == 4);
}

TEST_CASE("a '}' missing at the end of the file closes every open body", "[spec][parse-errors]") {
  Parsed p("app x on y { node p : P @ A.cpu { n = 4;");
  CHECK(p.errors() == std::vector<std::string>{"expected '}' at end of node parameter list",
                                               "expected '}' at end of app body"});
  CHECK(p.where(0) == "1:41");
  Parsed host("arch a { host A { cpu;");
  CHECK(host.errors() == std::vector<std::string>{"expected '}' at end of host body",
                                                  "expected '}' at end of arch body"});
}

TEST_CASE("a link's missing ')' points at its '('", "[spec][parse-errors]") {
  Parsed p("arch a { link A.cpu <-> B.cpu net (1 GB/s x); }");
  REQUIRE(p.diags.diagnostics().size() == 1);
  REQUIRE(p.diags.diagnostics()[0].notes.size() == 1);
  CHECK(p.sm.line_col(p.diags.diagnostics()[0].notes[0].loc).col == 35);
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[spec][parse-errors]") {
  const std::string message = "expression is too deeply nested (more than 256 levels)";
  auto errors_of = [](const std::string& expr) {
    return Parsed("param N = " + expr + ";").errors();
  };
  std::string parens(100000, '(');
  CHECK(errors_of(parens + "1") == std::vector<std::string>{message});
  CHECK(errors_of(std::string(100000, '-') + "1") == std::vector<std::string>{message});
  std::string calls;
  for (int i = 0; i < 1000; ++i) calls += "min(";
  CHECK(errors_of(calls + "1") == std::vector<std::string>{message});
  std::string chain = "1";
  for (int i = 0; i < 100000; ++i) chain += "+1";
  CHECK(errors_of(chain) == std::vector<std::string>{message});
  std::string deep_unary = "-(" + std::string(255, '-') + "1)";
  CHECK(errors_of(deep_unary) == std::vector<std::string>{message});
  std::string deep_args = "min(1";
  for (int i = 0; i < 256; ++i) deep_args += "+1";
  CHECK(errors_of(deep_args + ")") == std::vector<std::string>{message});
  // Just below the limits is fine.
  CHECK(errors_of(std::string(200, '(') + "1" + std::string(200, ')')).empty());
  std::string long_chain = "1";
  for (int i = 0; i < 255; ++i) long_chain += "*1";
  CHECK(errors_of(long_chain).empty());
  // Many braces cost no recursion.
  Parsed braces(std::string(100000, '{') + std::string(100000, '}'));
  CHECK(braces.diags.has_errors());
}

TEST_CASE("recovery: independent mistakes are all reported", "[spec][parse-errors]") {
  Parsed p(R"(param N = ;
type Matrix = float[N * N];
actor Inc {
  in Matrix a
  out Matrix b;
  foo bar;
  param int nb = 1 2;
  gpu "inc.cuh" Inc;
}
arch a {
  host A { cpu; gpu g0 = ; }
  link A.cpu <-> A.g0 pcie (25 XB/s);
}
app x on a {
  node p : Inc @ A.g0 { nb = ; }
  p.b -> p.a;
  q.b q.a;
}
)");
  CHECK(
      p.errors() ==
      std::vector<std::string>{
          "expected an expression, found ';'",
          "expected ';' after port declaration",
          "expected 'in', 'out', 'param', 'cpu', 'gpu', 'uses' or 'ends' in actor body, found 'foo'",
          "expected ';' after parameter declaration",
          "expected an expression, found ';'",
          "unknown bandwidth unit 'XB/s'; expected B/s, KB/s, MB/s, GB/s, TB/s, "
          "KiB/s, MiB/s, GiB/s, Kb/s, Mb/s or Gb/s",
          "expected an expression, found ';'",
          "expected '->' after 'q.b', found 'q'",
      });
  // What parsed well is kept.
  REQUIRE(p.module->types.size() == 1);
  REQUIRE(p.module->actors.size() == 1);
  CHECK(p.module->actors[0].ports.size() == 2);
  CHECK(p.module->actors[0].impls.size() == 1);
  REQUIRE(p.module->archs.size() == 1);
  CHECK(p.module->archs[0].hosts[0].pes.size() == 1);
  REQUIRE(p.module->apps.size() == 1);
  CHECK(p.module->apps[0].nodes.size() == 1);
  CHECK(p.module->apps[0].edges.size() == 1);
}

TEST_CASE("recovery: a missing '}' is noticed at the next declaration", "[spec][parse-errors]") {
  Parsed p(
      "actor A {\n  in X a;\n\nactor B { out X b; }\napp x on y { node n : B @ H.cpu;\n"
      "param N = 1;\n");
  CHECK(p.errors() == std::vector<std::string>{"expected '}' at end of actor body",
                                               "expected '}' at end of app body"});
  CHECK(p.where(0) == "4:1");
  CHECK(p.module->actors.size() == 2);
  CHECK(p.module->params.size() == 1);
  // A node or host named like a keyword is still an edge or a reference, not a declaration.
  Parsed edge("app x on y {\n  node app : A @ H.cpu;\n  app.o -> app.i;\n}\n");
  CHECK(edge.errors().empty());
}

TEST_CASE("recovery: nothing more is said at text the lexer rejected", "[spec][parse-errors]") {
  CHECK(Parsed("param N = $16;").errors() == std::vector<std::string>{"unexpected character '$'"});
  CHECK(Parsed("param N = 16 $;\nparam M = 1;").errors() ==
        std::vector<std::string>{"unexpected character '$'"});
  CHECK(Parsed("actor A {\n  gpu \"a.cuh A;\n}\n").errors() ==
        std::vector<std::string>{"missing terminating '\"' character"});
  Parsed arrow("app x on y {\n  p.m \xE2\x86\x92 c.m;\n  c.o -> p.i;\n}\n");
  CHECK(arrow.errors().size() == 1);
  CHECK(arrow.module->apps.at(0).edges.size() == 1);
}

TEST_CASE("recovery: a missing ';' before a new line skips nothing", "[spec][parse-errors]") {
  Parsed p("param N = 1\nparam M = 2\ntype T = int8[N]\nactor A { in T a\n out T b\n}\n");
  CHECK(p.errors().size() == 5);
  CHECK(p.module->params.size() == 2);
  CHECK(p.module->types.size() == 1);
  CHECK(p.module->actors.at(0).ports.size() == 2);
}

TEST_CASE("after 20 errors the parser stops", "[spec][parse-errors]") {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "foo;\n";
  Parsed p(text);
  REQUIRE(p.errors().size() == 21);
  CHECK(p.errors()[19].starts_with("expected 'import'"));
  CHECK(p.errors()[20] == "too many errors; stopping");
  CHECK(p.where(20) == "21:1");
  // The limit counts lexer errors too, and the rendered output keeps it last.
  Parsed lexical(std::string(40, '$'));
  CHECK(lexical.errors().size() == 21);
  CHECK(lexical.diags.render().ends_with(
      "error: too many errors; stopping\n$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$\n"
      "                    ^\n21 errors generated.\n"));
}

TEST_CASE("malformed composites and loops", "[spec]") {
  check_cases({
      {"composite { }", "expected a composite name after 'composite', found '{'", "1:11"},
      {"composite C;", "expected '{' after 'composite C', found ';'", "1:12"},
      {"composite C { in ; }",
       "expected a port name after 'in' (the composite's ports name no type: they take their "
       "nodes' ports' types), found ';'",
       "1:18"},
      {"composite C { param = 2; }", "expected a param name after 'param', found '='", "1:21"},
      {"composite C { foo; }",
       "expected 'param', 'in', 'out', 'node', 'for' or an edge (node.port -> node.port, or a port "
       "of the composite: x -> node.port) in composite 'C', found 'foo'",
       "1:15"},
      {"composite C { for i in [0, 1] { in x; } }",
       "expected 'node', 'for' or an edge (node.port -> node.port, or a port of the composite: x "
       "-> node.port) in composite 'C', found 'in'",
       "1:33"},
      {"composite C { node f : F @ A.c0; }",
       "node 'f' of composite 'C' has no placement: an app places the composite's nodes through "
       "the instance ('node b : C @ A.c1;', all on one PE) or one by one in a mapping ('b.f @ "
       "A.c1;')",
       "1:26"},
      {"app x on y { for i [0, 1] { } }", "expected 'in [FIRST, LAST]' after 'for i', found '['",
       "1:20"},
      {"app x on y { for i in [0, 1] node f : F @ A.c0; }",
       "expected '{' after 'for i in [...]', found 'node'", "1:30"},
      {"app x on y { for i in [0, 1] { batch 2; } }",
       "expected 'node', 'for' or an edge (node.port -> node.port) in app body, found 'batch'",
       "1:32"},
      {"app x on y { node f[1 : F @ A.c0; }", "expected ']' after an index, found ':'", "1:23"},
      {"app x on y { node f : F @ A.c[1][2]; }",
       "processing element 'A.c' takes one index ('A.c[i]' is c<i>)", "1:34"},
      {"app m : g on y { b.f[0]. @ A.c0; }",
       "expected a node name after '.' (a node of a composite: bank.f), found '@'", "1:26"},
  });
}
