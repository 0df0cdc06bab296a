#include <catch2/catch.hpp>

#include <sstream>

#include "passes/build_ig.hpp"
#include "passes/fixtures.hpp"
#include "stages/stages.hpp"

using namespace dfgc;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

/// Lines removed plus lines added by a minimal (LCS) diff.
std::size_t diff_size(const std::string& a, const std::string& b) {
  std::vector<std::string> x = lines(a), y = lines(b);
  std::vector<std::vector<std::size_t>> lcs(x.size() + 1,
                                            std::vector<std::size_t>(y.size() + 1, 0));
  for (std::size_t i = x.size(); i-- > 0;)
    for (std::size_t j = y.size(); j-- > 0;)
      lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  return x.size() + y.size() - 2 * lcs[0][0];
}

}  // namespace

TEST_CASE("schedule.txt of P-I-I-C", "[render]") {
  ir::Program p = test::piic().build();
  std::string text = ir::render_schedule(p, run_passes(p));
  CHECK(
      text.starts_with("# schedule of app overlap on arch; bytes at the params' defaults\n"
                       "schedule 0 p : Producer @ A.cpu\n"
                       "schedule 1 i1 : Inc @ A.g0\n"));
  CHECK(text.find(
            "\nstrategy overlap transfer steps 1\npe A.cpu\n"
            "  buffer i1.b@A.cpu bytes 16777216 depth 2 colour 0\n"
            "  buffer p.m@A.cpu bytes 16777216 depth 2 colour 1\n"
            "  colour 0 slots 2 bytes 16777216: i1.b@A.cpu\n"
            "  colour 1 slots 2 bytes 16777216: p.m@A.cpu\n"
            "  transfer i1.b@A.cpu -> i1.b@B.cpu net 2.6 GB/s bytes 16777216 step 0 from cycle 4\n"
            "  transfer p.m@A.cpu -> p.m@A.g0 pcie 25 GB/s bytes 16777216 step 0 from cycle 1\n"
            "  fire 0 p latency 0\n"
            "  memory 67108864 -> 67108864 bytes, 2 colours\n") != std::string::npos);
  CHECK(text.find("\nstrategy no-overlap transfer steps 3\n") != std::string::npos);
  CHECK(
      text.find(
          "  transfer i1.b@A.g0 -> i1.b@A.cpu pcie 25 GB/s bytes 16777216 step 2 from cycle 2\n") !=
      std::string::npos);
}

TEST_CASE("runtime sizes show their expression", "[render]") {
  ir::Program p = test::paper_example().build();
  std::string text = ir::render_schedule(p, run_passes(p));
  CHECK(text.find("  buffer p.o@A.cpu bytes 4194304 (W * H * 4) depth 2 colour ") !=
        std::string::npos);
  CHECK(text.find("  delay ") == std::string::npos);
}

TEST_CASE("two runs give byte-identical outputs", "[render]") {
  for (ir::Program p : {test::paper_example().build(), test::random_program(7, 200).build()}) {
    ir::Program copy = p;
    ir::Ig first = run_passes(p), second = run_passes(copy);
    CHECK(ir::render_schedule(p, first) == ir::render_schedule(copy, second));
    CHECK(ir::render_dot(p, first) == ir::render_dot(copy, second));
  }
}

TEST_CASE("a one-line mapping change gives a small diff", "[render]") {
  test::ProgramBuilder b = test::paper_example();
  ir::Program before = b.build();
  ir::Program after = b.map("c3", "A.g0").build();
  std::size_t changed = diff_size(ir::render_schedule(before, run_passes(before)),
                                  ir::render_schedule(after, run_passes(after)));
  // The schedule line (2), then per strategy: the last hop of f.o's route (2), its buffer and
  // colour and c3's firing leaving A.g2 (3) and joining A.g0 (3), both PEs' memory lines (4), and
  // A.g0's other colour renumbered (4): 2 + 2 x 16.
  CHECK(changed == 34);
}

TEST_CASE("graph.dot draws PEs as clusters, buffers and transfers apart", "[render]") {
  ir::Program p = test::piic().build();
  std::string dot = ir::render_dot(p, run_passes(p));
  CHECK(dot.starts_with("digraph \"overlap\" {\n"));
  CHECK(dot.find("  subgraph \"cluster_overlap\" {\n") != std::string::npos);
  CHECK(dot.find("    subgraph \"cluster_no-overlap_B.g0\" {\n") != std::string::npos);
  CHECK(dot.find("      \"overlap:i1\" [shape=box, label=\"i1 : Inc\\n(1, 2)\"];\n") !=
        std::string::npos);
  CHECK(dot.find("      \"overlap:p.m@A.g0\" [shape=ellipse, label=\"p.m@A.g0\\n2 x 16777216 B, "
                 "colour 1\"];\n") != std::string::npos);
  CHECK(dot.find(
            "  \"overlap:i1.b@A.cpu\" -> \"overlap:i1.b@B.cpu\" [style=bold, label=\"net\"];\n") !=
        std::string::npos);
  CHECK(dot.find("  \"overlap:p.m@A.g0\" -> \"overlap:i1\" [label=\"a\"];\n") != std::string::npos);
  CHECK(dot.back() == '\n');
}

TEST_CASE("each pass prints its result for --dump-after", "[render]") {
  test::ProgramBuilder b = test::paper_example();
  ir::Program p = b.map("e", "B.g2").build();
  Schedule order = schedule(p.dfg, p.arch, p.mapping);
  BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
  BufferDepths depths = buffer_depth(plan);
  Latencies latencies = compute_latency(p.dfg, order, plan);
  DelayLines delays = resync_inputs(p, plan, latencies);
  BufferColouring colours = color_buffers(p, order, plan, depths, latencies, delays);
  CHECK(dump(latencies, p, plan).find("no-overlap f latency 9\n") != std::string::npos);
  CHECK(dump(latencies, p, plan).find("overlap e.o@A.cpu -> e.o@A.g1 step 0 from cycle 12\n") !=
        std::string::npos);
  CHECK(dump(delays, plan) ==
        "overlap f.y.delay@A.g1 <- d.o@A.g1 cycles 8 aliased, slots 9\n"
        "no-overlap f.y.delay@A.g1 <- d.o@A.g1 cycles 6 aliased, slots 7\n");
  CHECK(dump(colours, p).find("overlap d.o@A.g1 colour ") != std::string::npos);
  CHECK(dump(colours, p).find("no-overlap B.g2 memory 8388608 -> 8388608 bytes, 2 colours\n") !=
        std::string::npos);
}
