// The actors of test/generated/rates_param.dfg: a source, a decimator whose rate and window are
// its node's params, and a sink that recomputes the pyramid's stream from the source's formula.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

namespace rates_test {

constexpr int kStages = 3;  // the pyramid's L

/// Element e of stage s's output m (s = -1: the source's token m), 0 before the stream.
inline std::int64_t value(int s, std::int64_t m, std::size_t e) {
  if (m < 0) return 0;
  if (s < 0) return e == 0 ? m : 2 * m;
  const std::int64_t d = s + 1, t = 2 * s + 3;
  std::int64_t sum = 0;
  for (std::int64_t k = 0; k < t; ++k) sum += (k + 1) * value(s - 1, m * d + d - t + k, e);
  return sum;
}

}  // namespace rates_test

struct Source {
  static constexpr bool dfg_stateless = true;
  void fire(std::int64_t* x, dfg::Context& ctx) const {
    const std::int64_t i = ctx.iteration() * ctx.firings() + ctx.firing();
    for (std::size_t e = 0; e < ctx.elements("x"); ++e) x[e] = rates_test::value(-1, i, e);
  }
};

/// A call a firing: x points at its window of T tokens, the T - D before its rate's first.
struct Dec {
  static constexpr bool dfg_stateless = true;
  int D = 1;
  int T = 1;
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t elems = ctx.elements("y");
    for (std::size_t e = 0; e < elems; ++e) {
      std::int64_t sum = 0;
      for (int k = 0; k < T; ++k) sum += (k + 1) * x[static_cast<std::size_t>(k) * elems + e];
      y[e] = sum;
    }
  }
};

struct Check {
  std::int64_t checked = 0;
  void fire(const std::int64_t* z, dfg::Context& ctx) {
    const std::int64_t m = ctx.iteration();
    if (m != checked) throw std::runtime_error("iteration " + std::to_string(m) + " out of order");
    for (std::size_t e = 0; e < ctx.elements("z"); ++e) {
      const std::int64_t want = rates_test::value(rates_test::kStages - 1, m, e);
      if (z[e] != want)
        throw std::runtime_error("iteration " + std::to_string(m) + ", element " +
                                 std::to_string(e) + ": " + std::to_string(z[e]) + ", not " +
                                 std::to_string(want));
    }
    ++checked;
  }
  void finish() {
    std::printf("check: %lld iterations, all equal\n", static_cast<long long>(checked));
  }
  void save(dfg::State& s) const { s.write(&checked, sizeof checked); }
  void restore(const dfg::State& s) { s.read(&checked, sizeof checked); }
};
