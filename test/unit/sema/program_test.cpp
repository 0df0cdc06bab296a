/// \file
/// The program built for the samples, and robustness on partial syntax trees.
#include <catch2/catch.hpp>

#include "sema_test_util.hpp"

using namespace dfgc;

TEST_CASE("the two-host sample builds the expected program", "[sema]") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto spec = load_spec("samples/overlap/two_hosts.dfg", sources, diags);
  REQUIRE(spec);
  SemaOptions options;
  options.spec_file = "samples/overlap/two_hosts.dfg";
  auto program = analyze(*spec, options, sources, diags);
  INFO(diags.render());
  REQUIRE(program);
  CHECK(program->spec_file == "samples/overlap/two_hosts.dfg");
  CHECK(program->dfg.actors[1].impls[1].header_path == "samples/overlap/actors/inc.cuh");
  CHECK(ir::dump(*program) ==
        "app overlap_two_hosts on two_hosts\n"
        "param N = 2048\n"
        "type Matrix = float[N * N]  // 4194304 elements, 16777216 bytes\n"
        "actor Producer\n"
        "  out Matrix m\n"
        "  cpu \"actors/producer.hpp\" Producer\n"
        "actor Inc\n"
        "  in Matrix a mappable\n"
        "  out Matrix b mappable\n"
        "  param int nb_loop = 100\n"
        "  cpu \"actors/inc_cpu.hpp\" IncCpu\n"
        "  gpu \"actors/inc.cuh\" Inc\n"
        "actor Consumer\n"
        "  in Matrix m\n"
        "  cpu \"actors/consumer.hpp\" Consumer\n"
        "arch two_hosts\n"
        "  host A\n"
        "  host B\n"
        "  pe A.cpu cpu\n"
        "  pe A.g0 gpu device 0\n"
        "  pe B.cpu cpu\n"
        "  pe B.g0 gpu device 0\n"
        "  link A.cpu <-> A.g0 pcie (25 GB/s, 0 s)\n"
        "  link B.cpu <-> B.g0 pcie (25 GB/s, 0 s)\n"
        "  link A.cpu <-> B.cpu net (2.6 GB/s, 5 us)\n"
        "node p : Producer @ A.cpu\n"
        "node i1 : Inc @ A.g0 nb_loop=120\n"
        "node i2 : Inc @ B.g0 nb_loop=100\n"
        "node c : Consumer @ B.cpu\n"
        "edge p.m -> i1.a : Matrix\n"
        "edge i1.b -> i2.a : Matrix\n"
        "edge i2.b -> c.m : Matrix\n");
}

TEST_CASE("every sample with an app is a valid program", "[sema]") {
  for (const char* path :
       {"samples/overlap/cpu_only.dfg", "samples/overlap/one_gpu.dfg",
        "samples/overlap/two_gpus.dfg", "samples/overlap/two_hosts.dfg",
        "samples/fir_bank/one_core.dfg", "samples/fir_bank/cores.dfg",
        "samples/fir_bank/two_hosts.dfg", "samples/iir/cpu_only.dfg",
        "samples/iir/loop_two_hosts_cpu.dfg", "samples/multirate/cpu_only.dfg"}) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    auto spec = load_spec(path, sources, diags);
    REQUIRE(spec);
    auto program = analyze(*spec, {}, sources, diags);
    INFO(path << "\n" << diags.render());
    CHECK(program);
    CHECK(diags.diagnostics().empty());
  }
}

TEST_CASE("a partial syntax tree is analysed without crashing", "[sema]") {
  auto a = test::parse(
      "param N = min(2, 3);\ntype T = float[N];\n"
      "actor P { out T o; param int k = 1; cpu \"p.hpp\" Pc; }\nactor C { in T i; cpu \"c.hpp\"; "
      "}\n"
      "arch a { host A { cpu; gpu g0 = 0; } link A.cpu <-> A.g0 pcie (1 GB/s); }\n"
      "app x on a { node p : P @ A.cpu { k = 2; } node c : C @ A.g0; p.o -> c.i; }\n");
  ast::Module& m = *a->spec->modules.back();
  // What a parser recovering from errors may leave: missing expressions and empty names.
  m.params[0].value->name = "mni";
  m.types[0].count = nullptr;
  m.actors[0].ports[0].type.name.clear();
  m.actors[0].params[0].default_value = nullptr;
  m.actors[0].params[0].type.name.clear();
  m.actors[0].impls[0].class_name->name.clear();
  m.actors[1].name.name.clear();
  m.archs[0].hosts[0].pes[1].ordinal = nullptr;
  m.archs[0].links[0].b.pe.name.clear();
  m.apps[0].nodes[0].params[0].value = nullptr;
  m.apps[0].nodes[1].actor.name.clear();
  m.apps[0].edges[0].dst.port.name.clear();
  a->diags.error({}, "the parser's error");
  test::analyze(*a);
  CHECK_FALSE(a->program);
  CHECK(a->summary() == "error: the parser's error\n");
}
