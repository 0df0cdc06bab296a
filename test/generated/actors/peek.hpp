// The actors of test/generated/peek.dfg: a source, two filters whose inputs peek past their
// rate, and a sink that recomputes the stream from the source's formula, with the histories'
// first values, and, in finish() (a run that completed only), prints how many iterations it
// checked, a count that checkpoints keep.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

namespace peek_test {

/// Element e of source token i: {i, 1000 - i}.
inline std::int64_t source(std::int64_t i, std::size_t e) { return e == 0 ? i : 1000 - i; }

/// Element e of Fir's output m, from the source: 11 tokens from 4m - 7, 7 before token 0.
inline std::int64_t fir(std::int64_t m, std::size_t e) {
  std::int64_t sum = 0;
  for (std::int64_t t = 4 * m - 7; t <= 4 * m + 3; ++t) sum += t < 0 ? 7 : source(t, e);
  return sum;
}

/// Element e of Diff's output p: y[2p - 1] - 2 y[2p] + 3 y[2p + 1], -5 before y[0].
inline std::int64_t diff(std::int64_t p, std::size_t e) {
  const std::int64_t before = p == 0 ? -5 : fir(2 * p - 1, e);
  return before - 2 * fir(2 * p, e) + 3 * fir(2 * p + 1, e);
}

}  // namespace peek_test

struct Source {
  static constexpr bool dfg_stateless = true;
  void fire(std::int64_t* x, dfg::Context& ctx) const {
    const std::int64_t i = ctx.iteration() * ctx.firings() + ctx.firing();
    for (std::size_t e = 0; e < ctx.elements("x"); ++e) x[e] = peek_test::source(i, e);
  }
};

/// One call a cycle (`block`): x points at the window of the cycle's first firing, 7 tokens of
/// history then the block's 4 x firings tokens; firing k's 11 tokens start at token 4k.
struct Fir {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t elems = ctx.elements("y") / ctx.firings();  // a token's
    for (std::size_t k = 0; k < ctx.firings(); ++k)
      for (std::size_t e = 0; e < elems; ++e) {
        std::int64_t sum = 0;
        for (std::size_t t = 0; t < 11; ++t) sum += x[(4 * k + t) * elems + e];
        y[k * elems + e] = sum;
      }
  }
};

/// A call a firing: y points at its window of 3 tokens, the one before its rate's first.
struct Diff {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* y, std::int64_t* z, dfg::Context& ctx) const {
    const std::size_t elems = ctx.elements("z");
    for (std::size_t e = 0; e < elems; ++e) z[e] = y[e] - 2 * y[elems + e] + 3 * y[2 * elems + e];
  }
};

struct Check {
  std::int64_t checked = 0;

  void fire(const std::int64_t* z, dfg::Context& ctx) {
    const std::int64_t p = ctx.iteration();
    if (p != checked) throw std::runtime_error("iteration " + std::to_string(p) + " out of order");
    for (std::size_t e = 0; e < ctx.elements("z"); ++e)
      if (z[e] != peek_test::diff(p, e))
        throw std::runtime_error("iteration " + std::to_string(p) + ", element " +
                                 std::to_string(e) + ": " + std::to_string(z[e]) + ", not " +
                                 std::to_string(peek_test::diff(p, e)));
    ++checked;
  }
  void finish() {
    std::printf("check: %lld iterations, all equal\n", static_cast<long long>(checked));
  }
  void save(dfg::State& s) const { s.write(&checked, sizeof checked); }
  void restore(const dfg::State& s) { s.read(&checked, sizeof checked); }
};
