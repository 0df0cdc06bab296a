#include <catch2/catch.hpp>

#include "spec_test_util.hpp"

using namespace dfgc;
using dfgc::test::Parsed;

namespace {

std::string expr_string(const ast::Expr& e) {
  switch (e.kind) {
    case ast::Expr::Kind::integer: return std::to_string(e.int_value);
    case ast::Expr::Kind::real: return "r" + std::to_string(e.real_value);
    case ast::Expr::Kind::name: return e.name;
    case ast::Expr::Kind::unary: return std::string("(") + e.op + expr_string(*e.operands[0]) + ")";
    case ast::Expr::Kind::binary:
      return "(" + expr_string(*e.operands[0]) + " " + e.op + " " + expr_string(*e.operands[1]) +
             ")";
    case ast::Expr::Kind::call: {
      std::string s = e.name + "(";
      for (std::size_t i = 0; i < e.operands.size(); ++i)
        s += (i ? ", " : "") + expr_string(*e.operands[i]);
      return s + ")";
    }
  }
  return "?";
}

/// Parses `param X = <text>;` and prints the tree of the expression.
std::string parse_expr(const std::string& text) {
  Parsed p("param X = " + text + ";");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->params.size() == 1);
  return expr_string(*p.module->params[0].value);
}

}  // namespace

TEST_CASE("imports and params", "[spec][parser]") {
  Parsed p("import \"arch/x.dfg\";\nparam N = 2048;\nruntime param W = 640;\n");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->imports.size() == 1);
  CHECK(p.module->imports[0].path == "arch/x.dfg");
  CHECK(p.module->imports[0].loc.offset == 0);
  CHECK(p.module->imports[0].path_loc.offset == 7);
  REQUIRE(p.module->params.size() == 2);
  CHECK(p.module->params[0].name.name == "N");
  CHECK_FALSE(p.module->params[0].runtime);
  CHECK(p.module->params[0].value->int_value == 2048);
  CHECK(p.module->params[1].runtime);
  CHECK(p.module->params[1].loc.offset == 37);
  CHECK(p.module->params[1].name.loc.offset == 51);
}

TEST_CASE("types", "[spec][parser]") {
  Parsed p("type Matrix = float[N * N];");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->types.size() == 1);
  const ast::TypeDecl& t = p.module->types[0];
  CHECK(t.name.name == "Matrix");
  CHECK(t.elem.name == "float");
  CHECK(t.elem.loc.offset == 14);
  CHECK(expr_string(*t.count) == "(N * N)");
  CHECK(t.count->loc.offset == 22);
  CHECK_FALSE(t.bounded);
}

TEST_CASE("bounded types: '<=' before the capacity", "[spec][parser]") {
  Parsed p("type Packet = uint8[<= 2 * MAXB];");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->types.size() == 1);
  const ast::TypeDecl& t = p.module->types[0];
  CHECK(t.bounded);
  CHECK(expr_string(*t.count) == "(2 * MAXB)");
  CHECK(t.count->loc.offset == 25);  // a binary expression is located at its operator
}

TEST_CASE("actors: ports, params, implementations; keywords as names", "[spec][parser]") {
  Parsed p(R"(actor Inc {
  in Matrix in;
  out Matrix b;
  param int nb_loop = 100;
  param bool verbose;
  cpu "actors/inc_cpu.hpp" IncCpu;
  gpu "actors/inc.cuh";
})");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->actors.size() == 1);
  const ast::ActorDecl& a = p.module->actors[0];
  CHECK(a.name.name == "Inc");
  REQUIRE(a.ports.size() == 2);
  CHECK(a.ports[0].dir == ast::PortDecl::Dir::in);
  CHECK(a.ports[0].type.name == "Matrix");
  CHECK(a.ports[0].name.name == "in");
  CHECK(a.ports[1].dir == ast::PortDecl::Dir::out);
  REQUIRE(a.params.size() == 2);
  CHECK(a.params[0].type.name == "int");
  CHECK(a.params[0].name.name == "nb_loop");
  CHECK(a.params[0].default_value->int_value == 100);
  CHECK_FALSE(a.params[1].default_value);
  REQUIRE(a.impls.size() == 2);
  CHECK(a.impls[0].kind.name == "cpu");
  CHECK(a.impls[0].header == "actors/inc_cpu.hpp");
  CHECK(a.impls[0].class_name->name == "IncCpu");
  CHECK(a.impls[1].kind.name == "gpu");
  CHECK_FALSE(a.impls[1].class_name);
}

TEST_CASE("architectures: hosts, processing elements, links with units", "[spec][parser]") {
  Parsed p(R"(arch two_hosts {
  host A { cpu; gpu g0 = 0; gpu g1 = 1; }
  host B { cpu; }
  link A.cpu <-> A.g0 pcie (25 GB/s);
  link A.g0 -> A.g1 nvlink (300 GB/s, 2 us);
  link A.cpu <-> B.cpu net (2.6 GB/s, 5 us);
})");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->archs.size() == 1);
  const ast::ArchDecl& a = p.module->archs[0];
  REQUIRE(a.hosts.size() == 2);
  REQUIRE(a.hosts[0].pes.size() == 3);
  CHECK(a.hosts[0].pes[0].kind.name == "cpu");
  CHECK(a.hosts[0].pes[0].name.name == "cpu");
  CHECK_FALSE(a.hosts[0].pes[0].ordinal);
  CHECK(a.hosts[0].pes[2].kind.name == "gpu");
  CHECK(a.hosts[0].pes[2].name.name == "g1");
  CHECK(a.hosts[0].pes[2].ordinal->int_value == 1);
  REQUIRE(a.links.size() == 3);
  CHECK(a.links[0].a.host.name == "A");
  CHECK(a.links[0].a.pe.name == "cpu");
  CHECK(a.links[0].b.pe.name == "g0");
  CHECK(a.links[0].bidirectional);
  CHECK(a.links[0].kind.name == "pcie");
  CHECK(a.links[0].bandwidth == 25e9);
  CHECK_FALSE(a.links[0].latency);
  CHECK_FALSE(a.links[1].bidirectional);
  CHECK(a.links[1].latency == Approx(2e-6));
  CHECK(a.links[2].bandwidth == Approx(2.6e9));
  CHECK(a.links[2].bandwidth_loc.offset > a.links[2].loc.offset);
}

TEST_CASE("bandwidth and latency units", "[spec][parser]") {
  auto link = [](const std::string& args) {
    Parsed p("arch a { link A.cpu <-> A.g0 pcie (" + args + "); }");
    INFO(args);
    REQUIRE(p.errors().empty());
    const ast::LinkDecl& l = p.module->archs.at(0).links.at(0);
    return std::make_pair(l.bandwidth, l.latency.value_or(-1));
  };
  CHECK(link("1 B/s").first == 1);
  CHECK(link("1 KB/s").first == 1e3);
  CHECK(link("1 MB/s").first == 1e6);
  CHECK(link("1 GB/s").first == 1e9);
  CHECK(link("1 TB/s").first == 1e12);
  CHECK(link("1 KiB/s").first == 1024);
  CHECK(link("1 MiB/s").first == 1048576);
  CHECK(link("2 GiB/s").first == 2147483648.0);
  CHECK(link("8 Kb/s").first == 1e3);
  CHECK(link("8 Mb/s").first == 1e6);
  CHECK(link("10 Gb/s").first == 1.25e9);
  CHECK(link("25GB/s").first == 25e9);
  CHECK(link("1 B/s, 3 ns").second == Approx(3e-9));
  CHECK(link("1 B/s, 3 us").second == Approx(3e-6));
  CHECK(link("1 B/s, 1.5 ms").second == Approx(1.5e-3));
  CHECK(link("1 B/s, 2 s").second == 2);
  CHECK(link("1 B/s, 0 s").second == 0);
}

TEST_CASE("apps: nodes with parameters, edges; keywords as node names", "[spec][parser]") {
  Parsed p(R"(app overlap on two_hosts {
  node p  : Producer @ A.cpu;
  node i1 : Inc      @ A.g0 { nb_loop = 120; scale = 2.5; }
  node node : Inc @ B.g0 {};
  node c  : Consumer @ B.cpu
  ;
  p.m -> i1.a;  i1.b -> node.a;
  node.b -> c.m;
})");
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->apps.size() == 1);
  const ast::AppDecl& a = p.module->apps[0];
  CHECK(a.name.name == "overlap");
  CHECK(a.arch.name == "two_hosts");
  REQUIRE(a.nodes.size() == 4);
  CHECK(a.nodes[0].name.name == "p");
  CHECK(a.nodes[0].actor.name == "Producer");
  CHECK(a.nodes[0].pe.host.name == "A");
  CHECK(a.nodes[0].pe.pe.name == "cpu");
  REQUIRE(a.nodes[1].params.size() == 2);
  CHECK(a.nodes[1].params[0].name.name == "nb_loop");
  CHECK(a.nodes[1].params[0].value->int_value == 120);
  CHECK(a.nodes[1].params[1].value->real_value == 2.5);
  CHECK(a.nodes[2].name.name == "node");
  REQUIRE(a.edges.size() == 3);
  CHECK(a.edges[0].src.node.name == "p");
  CHECK(a.edges[0].src.port.name == "m");
  CHECK(a.edges[0].dst.node.name == "i1");
  CHECK(a.edges[0].dst.port.name == "a");
  CHECK(a.edges[1].dst.node.name == "node");
  CHECK(a.edges[2].src.node.name == "node");
  // An edge's location is its arrow.
  CHECK(p.sm.line_col(a.edges[0].loc).col == 7);
}

TEST_CASE("nodes with alternatives after 'migrates'", "[spec][parser]") {
  Parsed p(R"(app x on y {
  node n : Inc @ B.g0 migrates B.g1, A.g0;
  node m : Inc @ A.cpu migrates B.cpu { loops = 2; }
  node migrates : Inc @ A.cpu;
})");
  REQUIRE(p.errors().empty());
  const ast::AppDecl& a = p.module->apps[0];
  REQUIRE(a.nodes.size() == 3);
  REQUIRE(a.nodes[0].alternatives.size() == 2);
  CHECK(a.nodes[0].alternatives[0].host.name == "B");
  CHECK(a.nodes[0].alternatives[0].pe.name == "g1");
  CHECK(a.nodes[0].alternatives[1].host.name == "A");
  CHECK(a.nodes[0].alternatives[1].pe.name == "g0");
  CHECK(p.sm.line_col(a.nodes[0].alternatives[1].loc).col == 38);
  REQUIRE(a.nodes[1].alternatives.size() == 1);
  CHECK(a.nodes[1].params.size() == 1);
  CHECK(a.nodes[2].name.name == "migrates");
  CHECK(a.nodes[2].alternatives.empty());
}

TEST_CASE("expression precedence and associativity", "[spec][parser]") {
  CHECK(parse_expr("1 + 2 * 3") == "(1 + (2 * 3))");
  CHECK(parse_expr("1 - 2 - 3") == "((1 - 2) - 3)");
  CHECK(parse_expr("a / b % c * d") == "(((a / b) % c) * d)");
  CHECK(parse_expr("(1 + 2) * 3") == "((1 + 2) * 3)");
  CHECK(parse_expr("-a * +b") == "((-a) * (+b))");
  CHECK(parse_expr("- -1") == "(-(-1))");
  CHECK(parse_expr("min(N, 2 * M) + max(1)") == "(min(N, (2 * M)) + max(1))");
  CHECK(parse_expr("0x10 * 1_000") == "(16 * 1000)");
  CHECK(parse_expr("2.5") == "r2.500000");
}

TEST_CASE("expression locations: operators for unary and binary", "[spec][parser]") {
  Parsed p("param X = a + -b;");
  const ast::Expr& e = *p.module->params.at(0).value;
  CHECK(e.loc.offset == 12);
  CHECK(e.operands[0]->loc.offset == 10);
  CHECK(e.operands[1]->loc.offset == 14);
  CHECK(e.operands[1]->operands[0]->loc.offset == 15);
}

TEST_CASE("the samples parse without errors", "[spec][parser]") {
  for (const char* name : {"overlap", "cpu_only", "one_gpu", "two_gpus", "two_hosts"}) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    auto file = sm.load_file(std::string(DFGC_SOURCE_DIR) + "/samples/overlap/" + name + ".dfg");
    REQUIRE(file);
    auto module = parse_module(*file, sm, diags);
    INFO(diags.render());
    CHECK_FALSE(diags.has_errors());
  }
}

TEST_CASE("an empty file and a file of comments are empty modules", "[spec][parser]") {
  Parsed empty("");
  CHECK(empty.errors().empty());
  CHECK(empty.module->actors.empty());
  Parsed comments("// nothing\n/* here */\n");
  CHECK(comments.errors().empty());
}

TEST_CASE("an actor names the CUDA libraries it uses", "[spec][parser]") {
  const std::string text =
      "actor Fft { in T a; gpu \"fft.cuh\"; uses cufft, curand;\n  uses cublas; }";
  Parsed p(text);
  REQUIRE(p.errors().empty());
  const ast::ActorDecl& a = p.module->actors[0];
  REQUIRE(a.uses.size() == 3);
  CHECK(a.uses[0].name == "cufft");
  CHECK(a.uses[1].name == "curand");
  CHECK(a.uses[2].name == "cublas");
  CHECK(a.uses[2].loc.offset == text.find("cublas"));
}

TEST_CASE("block implementations and initial tokens filled by a member function",
          "[spec][parser][rates]") {
  Parsed p(R"(actor A {
  in T x rate 2;
  cpu "a.hpp" A block;
  gpu "a.cuh" block;
}
app y on x {
  a.o -> a.i delay 2 = fill();
  a.o -> a.j delay 1 = max(N, 2);
  a.o -> a.k delay 1 = 0.5;
})");
  REQUIRE(p.errors().empty());
  const ast::ActorDecl& a = p.module->actors[0];
  REQUIRE(a.impls.size() == 2);
  CHECK(a.impls[0].class_name->name == "A");
  CHECK(a.impls[0].block);
  CHECK_FALSE(a.impls[1].class_name);  // `gpu "a.cuh" block;`: the actor's own class
  CHECK(a.impls[1].block);
  const auto& edges = p.module->apps[0].edges;
  REQUIRE(edges.size() == 3);
  REQUIRE(edges[0].initial_method);
  CHECK(edges[0].initial_method->name == "fill");
  CHECK_FALSE(edges[0].initial);
  CHECK_FALSE(edges[1].initial_method);  // min and max stay functions of the expression
  CHECK(expr_string(*edges[1].initial) == "max(N, 2)");
  CHECK_FALSE(edges[2].initial_method);
}

TEST_CASE("a port declared mappable, after its rate", "[spec][parser]") {
  const std::string text = R"(actor A {
  in T x rate 2 mappable;
  out T y mappable;
  out T z;
  gpu "a.cuh";
}
actor B { in T mappable; gpu "b.cuh"; })";
  Parsed p(text);
  REQUIRE(p.errors().empty());
  const ast::ActorDecl& a = p.module->actors[0];
  REQUIRE(a.ports.size() == 3);
  CHECK(a.ports[0].mappable);
  CHECK(a.ports[0].mappable_loc.offset == text.find("mappable"));
  CHECK(expr_string(*a.ports[0].rate) == "2");
  CHECK(a.ports[1].mappable);
  CHECK_FALSE(a.ports[2].mappable);
  CHECK(ast::dump(*p.module, p.sm).find("in T x rate 2 mappable") != std::string::npos);
  // `mappable` is a contextual word: here it is the port's name.
  REQUIRE(p.module->actors[1].ports.size() == 1);
  CHECK(p.module->actors[1].ports[0].name.name == "mappable");
  CHECK_FALSE(p.module->actors[1].ports[0].mappable);
}

TEST_CASE("dynamic actors and fifo ports", "[spec][parser]") {
  Parsed p(
      "actor Add dynamic { in int32 a fifo 8; in int32 b; out int32 s; cpu \"add.hpp\"; }\n"
      "actor dynamic { in T dynamic; }\n");  // `dynamic` is contextual: also a name
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->actors.size() == 2);
  const ast::ActorDecl& a = p.module->actors[0];
  REQUIRE(a.dynamic);
  CHECK(a.dynamic->offset == 10);
  REQUIRE(a.ports.size() == 3);
  REQUIRE(a.ports[0].fifo);
  CHECK(a.ports[0].fifo->int_value == 8);
  CHECK(a.ports[0].fifo_loc.offset == 31);
  CHECK_FALSE(a.ports[1].fifo);
  CHECK_FALSE(a.ports[2].rate);
  const ast::ActorDecl& b = p.module->actors[1];
  CHECK(b.name.name == "dynamic");
  CHECK_FALSE(b.dynamic);
  CHECK(b.ports[0].name.name == "dynamic");
}

TEST_CASE("a parallel action's counts on an implementation", "[spec][parser]") {
  Parsed p(
      "actor Idct dynamic { in int32 in; out int32 out;\n"
      "  gpu \"idct.cuh\" Idct parallel (in 64, out N * 64); }\n"
      "actor Own dynamic { in int32 x; gpu \"own.cuh\" parallel (x 1); }\n"  // the actor's class
      "actor parallel { cpu \"p.hpp\" parallel; }\n");  // `parallel` is contextual: also a name
  REQUIRE(p.errors().empty());
  REQUIRE(p.module->actors.size() == 3);
  const ast::ImplDecl& idct = p.module->actors[0].impls[0];
  REQUIRE(idct.parallel);
  REQUIRE(idct.class_name);
  CHECK(idct.class_name->name == "Idct");
  REQUIRE(idct.counts.size() == 2);
  CHECK(idct.counts[0].port.name == "in");
  CHECK(idct.counts[0].count->int_value == 64);
  CHECK(idct.counts[1].port.name == "out");
  CHECK(expr_string(*idct.counts[1].count) == "(N * 64)");
  const ast::ImplDecl& own = p.module->actors[1].impls[0];
  REQUIRE(own.parallel);
  CHECK_FALSE(own.class_name);
  REQUIRE(own.counts.size() == 1);
  const ast::ImplDecl& named = p.module->actors[2].impls[0];
  CHECK_FALSE(named.parallel);
  REQUIRE(named.class_name);
  CHECK(named.class_name->name == "parallel");
}
