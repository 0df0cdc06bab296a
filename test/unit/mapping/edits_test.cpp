/// \file
/// `dfgc map --apply`'s edits (mapping/edits.hpp) of placements written once for several nodes:
/// in a loop, or an instance's for the nodes of its composite.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "mapping/edits.hpp"
#include "sema/sema.hpp"
#include "spec/parser.hpp"

using namespace dfgc;

namespace {

constexpr const char* kSpec =
    "param N = 4;\n"
    "type T = float[N];\n"
    "actor P { out T o; cpu \"p.hpp\"; }\n"
    "actor F { in T i; out T o; cpu \"f.hpp\"; }\n"
    "actor K { in T i; cpu \"k.hpp\"; }\n"
    "arch a { host A { cpu c 4; } }\n"
    "app x on a {\n"
    "  node s : P @ A.c0;\n"
    "  for i in [0, 1] { node f[i] : F @ any cpu; }\n"
    "  node k : K @ A.c0;\n"
    "  s.o -> f0.i; f0.o -> f1.i; f1.o -> k.i;\n"
    "}\n";

struct Fixture {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::unique_ptr<Spec> spec;
  std::optional<ir::Program> program;

  Fixture() {
    const std::string path = "/tmp/dfgc_edits_test.dfg";
    std::ofstream(path) << kSpec;
    spec = load_spec(path, sources, diags);
    SemaOptions options;
    options.spec_file = path;
    options.allow_free_nodes = true;
    program = analyze(*spec, options, sources, diags);
  }
  /// pe_of with f0 on `f0` and f1 on `f1`.
  std::vector<ir::PeId> pe_of(ir::PeId f0, ir::PeId f1) const {
    std::vector<ir::PeId> out = program->mapping.pe_of;
    out[1] = f0;
    out[2] = f1;
    return out;
  }
};

}  // namespace

TEST_CASE("a loop's free placement is rewritten when its nodes run on one PE", "[mapping][apply]") {
  Fixture fx;
  INFO(fx.diags.render());
  REQUIRE(fx.program);
  std::vector<mapping::SplitPlacement> split;
  auto edits =
      mapping::mapping_edits(*fx.spec, *fx.program, fx.pe_of(2, 2), {}, fx.sources, &split);
  CHECK(split.empty());
  REQUIRE(edits.size() == 1);
  CHECK(edits[0].text == "A.c2");
  CHECK(mapping::edited_lines(edits, fx.sources) ==
        std::vector<std::string>{"  for i in [0, 1] { node f[i] : F @ A.c2; }"});
}

TEST_CASE("a loop's free placement is left alone when its nodes run apart", "[mapping][apply]") {
  Fixture fx;
  REQUIRE(fx.program);
  std::vector<mapping::SplitPlacement> split;
  auto edits =
      mapping::mapping_edits(*fx.spec, *fx.program, fx.pe_of(1, 3), {}, fx.sources, &split);
  CHECK(edits.empty());
  REQUIRE(split.size() == 1);
  CHECK(split[0].message ==
        "/tmp/dfgc_edits_test.dfg:9:37: 'any cpu' places 2 nodes on different PEs (f0 @ A.c1, "
        "f1 @ A.c3); write one placement per node");
  CHECK(split[0].lines == std::vector<std::string>{"  f0 @ A.c1;", "  f1 @ A.c3;"});
}
