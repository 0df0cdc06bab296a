// The networks of bench/dynamic on the CPU, without a GPU: the paper's 13-actor FIR (the actor
// code the GPU island runs, fired serially) on three threads of dfg::CpuPartition over rings of
// dfg/cuda/mapped_fifo.hpp's layout, against the filter's formula (under ThreadSanitizer in
// test_ring_ref_tsan); the benchmark's integer IDCT against the real-valued IDCT.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "../../../bench/dynamic/fir_network.hpp"
#include "../../../bench/dynamic/idct_block.hpp"
#include "dfg/cpu_partition.hpp"
#include "hang_guard.hpp"
#include "host_ring.hpp"

namespace {

#ifdef DFG_TEST_TSAN
constexpr std::size_t kSamples = 20'000;
#else
constexpr std::size_t kSamples = 200'000;
#endif

}  // namespace

TEST_CASE("fir network: 13 actors on three CPU threads give the filter's output",
          "[dynamic_bench][fir][stress]") {
  dfg_test::HangGuard guard("fir network", dfg_test::kHangSeconds);
  std::mt19937 rng(9);
  std::vector<fir::Token> x(kSamples), y(kSamples, fir::Token{0x5a5a5a5a});
  for (auto& v : x) v = static_cast<fir::Token>(rng() % 65536) - 32768;

  fir::FirActor actors[fir::kActorCount] = {};
  for (int i = 0; i < fir::kActorCount; ++i) {
    actors[i].kind = fir::kActors[i].kind;
    actors[i].param = fir::kActors[i].param;
  }
  actors[fir::actor_index("source")].data = x.data();
  actors[fir::actor_index("source")].total = kSamples;
  actors[fir::actor_index("sink")].data = y.data();
  std::vector<std::unique_ptr<dfg_test::HostRing<fir::Token>>> rings;
  for (const fir::EdgeSpec& e : fir::kEdges) {
    // Small rings: every edge fills, wraps and waits many times.
    const auto ring =
        rings.emplace_back(std::make_unique<dfg_test::HostRing<fir::Token>>(16))->ref();
    fir::FirActor& from = actors[fir::actor_index(e.from)];
    from.out[e.out_port] = ring;
    from.outputs = std::max(from.outputs, e.out_port + 1);
    actors[fir::actor_index(e.to)].in[e.in_port] = ring;
  }
  dfg::CpuPartition partitions[3] = {dfg::CpuPartition("a"), dfg::CpuPartition("b"),
                                     dfg::CpuPartition("c")};
  for (int i = 0; i < fir::kActorCount; ++i) partitions[i % 3].add(actors[i], fir::kActors[i].name);
  std::thread b([&] { partitions[1].run(); });
  std::thread c([&] { partitions[2].run(); });
  partitions[0].run();
  b.join();
  c.join();

  const std::vector<fir::Token> want = fir::reference(x);
  std::size_t wrong = 0;
  for (std::size_t t = 0; t < kSamples; ++t) wrong += y[t] == want[t] ? 0 : 1;
  CHECK(wrong == 0);
  CHECK(actors[fir::actor_index("source")].produced == kSamples);
}

TEST_CASE("idct: the integer IDCT is within one of the real-valued IDCT", "[dynamic_bench][idct]") {
  std::int32_t basis[64];
  idct::make_basis(basis);
  std::mt19937 rng(3);
  int worst = 0;
  for (int b = 0; b < 2000; ++b) {
    std::int16_t in[64], out[64];
    for (int k = 0; k < 64; ++k) in[k] = idct::coefficient(static_cast<std::uint64_t>(k), rng());
    idct::idct_block(in, out, basis);
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) {
        double s = 0;
        for (int v = 0; v < 8; ++v)
          for (int u = 0; u < 8; ++u) {
            const double cv = v == 0 ? std::sqrt(0.125) : 0.5, cu = u == 0 ? std::sqrt(0.125) : 0.5;
            s += cv * cu * std::cos((2 * y + 1) * v * M_PI / 16) *
                 std::cos((2 * x + 1) * u * M_PI / 16) * in[v * 8 + u];
          }
        const double clamped = std::fmin(255.0, std::fmax(-256.0, std::round(s)));
        worst = std::max(worst, static_cast<int>(std::abs(clamped - out[y * 8 + x])));
      }
  }
  CHECK(worst <= 1);
}
