// Runs every pass on a generated graph of 2,000 nodes mapped at random over 16 PEs (4 hosts, each
// a CPU and 3 GPUs) and prints the time each pass takes, best of a few runs.
//   passes_bench [nodes] [runs]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "passes/build_ig.hpp"
#include "passes/fixtures.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Timings {
  std::vector<std::pair<const char*, double>> passes;  // name, milliseconds

  template <typename F>
  auto time(const char* name, F&& f) {
    auto start = Clock::now();
    auto result = f();
    passes.emplace_back(name,
                        std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    return result;
  }
  double total() const {
    double sum = 0;
    for (const auto& [name, ms] : passes) sum += ms;
    return sum;
  }
};

/// What one run produced, so that the output shows the work done.
struct Sizes {
  std::size_t buffers = 0, transfers = 0, delay_lines = 0, schedule_lines = 0;
};

Timings run_once(const dfgc::ir::Program& p, Sizes& sizes) {
  using namespace dfgc;
  Timings t;
  Schedule order = t.time("schedule", [&] { return schedule(p.dfg, p.arch, p.mapping); });
  BufferPlan plan =
      t.time("insert_buffers", [&] { return insert_buffers(p.dfg, p.arch, p.mapping); });
  BufferDepths depths = t.time("buffer_depth", [&] { return buffer_depth(plan); });
  Latencies latencies = t.time("latency", [&] { return compute_latency(p.dfg, order, plan); });
  DelayLines delays = t.time("resync_inputs", [&] { return resync_inputs(p, plan, latencies); });
  BufferColouring colours = t.time(
      "color_buffers", [&] { return color_buffers(p, order, plan, depths, latencies, delays); });
  ir::Ig ig = t.time("build_ig",
                     [&] { return build_ig(p, order, plan, depths, latencies, delays, colours); });
  std::string text = t.time("render_schedule", [&] { return ir::render_schedule(p, ig); });
  sizes.buffers = ig[ir::Strategy::overlap].buffers.size();
  sizes.transfers = ig[ir::Strategy::overlap].transfers.size();
  sizes.delay_lines =
      ig[ir::Strategy::overlap].copies.size() + ig[ir::Strategy::no_overlap].copies.size();
  sizes.schedule_lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const int nodes = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  dfgc::ir::Program p = dfgc::test::random_program(1, nodes).build();
  std::printf("graph: %zu nodes, %zu edges, %zu PEs\n", p.dfg.nodes.size(), p.dfg.edges.size(),
              p.arch.pes.size());
  Timings best;
  Sizes sizes;
  for (int r = 0; r < runs; ++r) {
    Timings t = run_once(p, sizes);
    if (r == 0 || t.total() < best.total()) best = t;
  }
  for (const auto& [name, ms] : best.passes) std::printf("%-16s %9.3f ms\n", name, ms);
  std::printf("%-16s %9.3f ms  (best of %d)\n", "total", best.total(), runs);
  std::printf(
      "IG: %zu buffer nodes and %zu transfers (overlap), %zu delay lines (both), "
      "schedule.txt %zu lines\n",
      sizes.buffers, sizes.transfers, sizes.delay_lines, sizes.schedule_lines);
  return 0;
}
