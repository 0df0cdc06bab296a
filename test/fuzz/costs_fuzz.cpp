/// \file
/// libFuzzer target for the costs files of `dfgc map` (docs/costs.md): any bytes, read as one
/// in-memory costs file, must give diagnostics or a cost table, never a crash, a hang, an
/// exception, a sanitizer report or a leak. What reads is checked as `dfgc map` checks it: the
/// JSON (json_document.hpp), then the fit of `fit` coefficients and the resolution against a
/// fixed program, P-I-I-C on one host with two GPUs (i2 free, Inc with a param).
#include <cstddef>
#include <cstdint>
#include <string>

#include "mapping/costs.hpp"
#include "mapping/fit.hpp"
#include "passes/program_builder.hpp"

namespace {

dfgc::ir::Program piic() {
  dfgc::test::ProgramBuilder b("piic");
  b.type("Matrix", dfgc::ir::ElemType::f32, 1 << 20);
  b.actor("Producer", "out Matrix m");
  b.actor("Inc", "in Matrix a; out Matrix b");
  b.actor("Consumer", "in Matrix m");
  b.host("A", 2, 25e9);
  b.node("p", "Producer", "A.cpu").node("i1", "Inc", "A.g0").node("i2", "Inc", "A.g1");
  b.node("c", "Consumer", "A.cpu");
  b.edge("p.m", "i1.a").edge("i1.b", "i2.a").edge("i2.b", "c.m");
  dfgc::ir::Program p = b.build();
  p.dfg.actors[1].params.push_back({"nb_loop", "int", "100", {}});
  p.dfg.nodes[1].params.push_back({"nb_loop", "100", {}});
  p.dfg.nodes[2].params.push_back({"nb_loop", "300", {}});
  p.dfg.nodes[2].candidates = {1, 2};
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const dfgc::ir::Program program = piic();
  dfgc::SourceManager sources;
  dfgc::DiagnosticEngine diags(sources);
  std::uint32_t file =
      sources.add_buffer("fuzz.json", std::string(reinterpret_cast<const char*>(data), size));
  auto costs = dfgc::mapping::read_costs(file, sources, diags);
  if (costs && dfgc::mapping::fit_costs(*costs, program, diags))
    (void)dfgc::mapping::resolve_costs(*costs, program, diags);
  (void)diags.render();
  return 0;
}
