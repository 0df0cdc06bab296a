// The FIR bank in sequence, for comparison with the generated programs: the same actor classes,
// fired source, filters, sink, one iteration after the other on one thread. Prints the sink's
// checksum line, which every mapping's program must print too.
//   g++ -std=c++20 -O2 -I ../../runtime/include reference.cpp -o reference
//   ./reference ITERATIONS N
#include <array>
#include <cstdlib>
#include <vector>

#include "actors/fir_bank.hpp"

int main(int argc, char** argv) {
  const long long iterations = argc > 1 ? std::atoll(argv[1]) : 100;
  const std::size_t n = argc > 2 ? static_cast<std::size_t>(std::atoll(argv[2])) : 65536;
  const std::size_t one[] = {n};
  const std::size_t nine[] = {n, n, n, n, n, n, n, n, n};
  dfg::Context source_ctx, sink_ctx;
  source_ctx.set_node(nullptr, 1, one, 1);
  sink_ctx.set_node(nullptr, 1, nine, 8);
  std::array<dfg::Context, fir_bank::kBands> fir_ctx;
  std::array<Fir, fir_bank::kBands> firs;
  for (int b = 0; b < fir_bank::kBands; ++b) {
    fir_ctx[b].set_node(nullptr, 1, nine, 2);
    firs[b].band = b;
    firs[b].init(fir_ctx[b]);
  }
  Source source;
  Sink sink;
  std::vector<float> x(n);
  std::vector<std::vector<float>> y(fir_bank::kBands, std::vector<float>(n));
  for (long long j = 0; j < iterations; ++j) {
    source_ctx.set_iteration(j);
    source.fire(x.data(), source_ctx);
    for (int b = 0; b < fir_bank::kBands; ++b) {
      fir_ctx[b].set_iteration(j);
      firs[b].fire(x.data(), y[b].data(), fir_ctx[b]);
    }
    sink_ctx.set_iteration(j);
    sink.fire(y[0].data(), y[1].data(), y[2].data(), y[3].data(), y[4].data(), y[5].data(), y[6].data(),
              y[7].data(), sink_ctx);
  }
  sink.finish();  // the checksum line
  return 0;
}
