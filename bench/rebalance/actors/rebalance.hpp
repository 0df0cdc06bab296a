// The actors of bench/rebalance/rebalance.dfg. Element t of iteration i's token is i * N + t; the
// node hashes it ROUNDS times; the sink checks every eighth element (a different eighth each
// iteration) and, with REBALANCE_TIMES=FILE
// in the environment, writes each iteration's arrival (seconds since the epoch) to FILE in
// finish().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/context.hpp>

#ifdef __CUDACC__
#define REBALANCE_HD __host__ __device__
#else
#define REBALANCE_HD
#endif

namespace rebalance_bench {

/// ROUNDS steps of a 64-bit linear congruential generator from v: a fixed amount of work.
REBALANCE_HD inline std::int64_t hash(std::int64_t v, std::int64_t rounds) {
  auto h = static_cast<std::uint64_t>(v);
  for (std::int64_t r = 0; r < rounds; ++r) h = h * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<std::int64_t>(h >> 1);
}

}  // namespace rebalance_bench

struct Count {
  static constexpr bool dfg_stateless = true;
  void fire(std::int64_t* x, dfg::Context& ctx) const {
    const auto n = static_cast<std::int64_t>(ctx.elements("x"));
    for (std::int64_t t = 0; t < n; ++t) x[t] = ctx.iteration() * n + t;
  }
};

struct Work {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::int64_t rounds = ctx.runtime_param("ROUNDS");
    for (std::size_t t = 0; t < ctx.elements("x"); ++t) y[t] = rebalance_bench::hash(x[t], rounds);
  }
};

struct Check {
  std::int64_t checked = 0;
  std::vector<double> arrived;

  void init(dfg::Context&) { arrived.reserve(1 << 22); }
  void fire(const std::int64_t* y, dfg::Context& ctx) {
    const auto n = static_cast<std::int64_t>(ctx.elements("y"));
    const std::int64_t rounds = ctx.runtime_param("ROUNDS");
    for (std::int64_t t = ctx.iteration() % 8; t < n; t += 8)
      if (y[t] != rebalance_bench::hash(ctx.iteration() * n + t, rounds))
        throw std::runtime_error("iteration " + std::to_string(ctx.iteration()) + ", element " +
                                 std::to_string(t) + " differs");
    if (arrived.size() < arrived.capacity())
      arrived.push_back(
          std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
              .count());
    ++checked;
  }
  void finish() {
    std::printf("check: %lld iterations, all equal\n", static_cast<long long>(checked));
    const char* file = std::getenv("REBALANCE_TIMES");
    if (file == nullptr) return;
    std::FILE* f = std::fopen(file, "w");
    if (f == nullptr) throw std::runtime_error(std::string("cannot write ") + file);
    for (std::size_t i = 0; i < arrived.size(); ++i) std::fprintf(f, "%zu %.6f\n", i, arrived[i]);
    std::fclose(f);
  }
};
