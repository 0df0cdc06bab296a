// Check: recomputes source, scale and running sum sequentially and compares every element of
// every iteration; the iterations must come once each, in order. After a run that completed
// (finish) it prints how many it checked and, with DFG_INTERVALS=FILE in the environment, writes
// each iteration's output interval (the time since the previous output, microseconds) to FILE,
// "iteration interval" a line.
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

struct Check {
  std::vector<std::int64_t> sum;
  std::int64_t next = 0;
  std::vector<double> at;  // each output's time, microseconds since the first

  void init(dfg::Context& ctx) {
    sum.assign(ctx.elements(0), 0);
    at.reserve(1 << 20);
  }

  void fire(const std::int64_t* y, dfg::Context& ctx) {
    const auto now = std::chrono::steady_clock::now();
    if (ctx.iteration() != next)
      throw std::runtime_error("check: iteration " + std::to_string(ctx.iteration()) + " came, expected " +
                               std::to_string(next));
    const std::size_t n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) {
      sum[k] += 3 * (31 * next + static_cast<std::int64_t>(k)) + 1;
      if (y[k] != sum[k])
        throw std::runtime_error("check: iteration " + std::to_string(next) + ", element " + std::to_string(k) +
                                 ": got " + std::to_string(y[k]) + ", expected " + std::to_string(sum[k]));
    }
    if (at.size() < at.capacity()) {
      if (at.empty()) start = now;
      at.push_back(std::chrono::duration<double, std::micro>(now - start).count());
    }
    ++next;
  }

  void finish() {  // after a run that completed only: never claims a failed run checked
    if (next == 0) return;
    std::printf("check: %lld iterations, each once and in order, equal to the sequential reference\n",
                static_cast<long long>(next));
    const char* file = std::getenv("DFG_INTERVALS");
    if (!file) return;
    if (std::FILE* f = std::fopen(file, "w")) {
      for (std::size_t j = 1; j < at.size(); ++j) std::fprintf(f, "%zu %.1f\n", j, at[j] - at[j - 1]);
      std::fclose(f);
    }
  }

  std::chrono::steady_clock::time_point start;
};
