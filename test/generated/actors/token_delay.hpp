// The actors of test/generated/token_delay.dfg: a counter, a pairwise sum and a sink that
// recomputes the stream with both delays (6 tokens of -1 before the counter's, then 1 of 100
// before the sums) and, in finish(), says how many tokens it checked.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

namespace token_delay_test {

/// Token t of Sum's input: 6 tokens late, -1 before the stream.
inline std::int64_t input(std::int64_t t) { return t < 6 ? -1 : t - 6; }
/// Token k of Check's input: 1 token late, 100 before the sums.
inline std::int64_t expected(std::int64_t k) {
  return k < 1 ? 100 : input(2 * (k - 1)) + input(2 * (k - 1) + 1);
}

}  // namespace token_delay_test

struct Count {
  static constexpr bool dfg_stateless = true;
  void fire(std::int64_t* x, dfg::Context& ctx) const {  // 4 tokens a firing
    const std::int64_t first =
        (ctx.iteration() * static_cast<std::int64_t>(ctx.firings()) + ctx.firing()) * 4;
    for (std::int64_t t = 0; t < 4; ++t) x[t] = first + t;
  }
};

struct Sum {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, std::int64_t* y) const { y[0] = x[0] + x[1]; }
};

struct Check {
  std::int64_t checked = 0;

  void fire(const std::int64_t* y, dfg::Context&) {
    if (y[0] != token_delay_test::expected(checked))
      throw std::runtime_error("token " + std::to_string(checked) + ": " + std::to_string(y[0]) +
                               ", not " + std::to_string(token_delay_test::expected(checked)));
    ++checked;
  }
  void finish() { std::printf("check: %lld tokens, all equal\n", static_cast<long long>(checked)); }
  void save(dfg::State& s) const { s.write(&checked, sizeof checked); }
  void restore(const dfg::State& s) { s.read(&checked, sizeof checked); }
};
