// The actors of test/generated/port_groups.dfg: a split and a join over port groups of any size,
// and a sink that recomputes the stream from the source's formula.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>
#include <dfg/port_group.hpp>
#include <dfg/state.hpp>

struct Source {
  static constexpr bool dfg_stateless = true;
  void fire(std::int64_t* x, dfg::Context& ctx) const {
    const std::int64_t i = ctx.iteration() * ctx.firings() + ctx.firing();
    x[0] = i;
    x[1] = 2 * i;
  }
};

/// One firing takes N tokens and gives token k to port y_k.
struct Split {
  static constexpr bool dfg_stateless = true;
  int N = 2;
  void fire(const std::int64_t* x, dfg::Ports<std::int64_t> y, dfg::Context& ctx) const {
    if (y.size() != static_cast<std::size_t>(N)) throw std::runtime_error("Split: group size");
    const std::size_t elems = ctx.elements("x") / y.size();  // a call sees N tokens of x
    for (std::size_t k = 0; k < y.size(); ++k)
      for (std::size_t e = 0; e < elems; ++e) y[k][e] = x[k * elems + e];
  }
};

struct Scale {
  static constexpr bool dfg_stateless = true;
  int K = 1;
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    for (std::size_t e = 0; e < ctx.elements("x"); ++e) y[e] = K * x[e];
  }
};

/// One firing takes a token from each port x_k and gives them in order.
struct Join {
  static constexpr bool dfg_stateless = true;
  int N = 2;
  void fire(dfg::Ports<const std::int64_t> x, std::int64_t* y, dfg::Context& ctx) const {
    if (x.size() != static_cast<std::size_t>(N)) throw std::runtime_error("Join: group size");
    const std::size_t elems = ctx.elements("y") / x.size();  // a call gives N tokens of y
    std::size_t k = 0;
    for (const std::int64_t* token : x) {
      for (std::size_t e = 0; e < elems; ++e) y[k * elems + e] = token[e];
      ++k;
    }
  }
};

struct Check {
  int N = 2;
  std::int64_t checked = 0;
  void fire(const std::int64_t* z, dfg::Context& ctx) {
    const std::int64_t m = ctx.iteration() * ctx.firings() + ctx.firing();
    if (m != checked) throw std::runtime_error("token " + std::to_string(m) + " out of order");
    const std::int64_t scale = m % N + 1;
    if (z[0] != scale * m || z[1] != scale * 2 * m)
      throw std::runtime_error("token " + std::to_string(m) + ": " + std::to_string(z[0]) + ", " +
                               std::to_string(z[1]) + ", not " + std::to_string(scale * m) +
                               ", " + std::to_string(scale * 2 * m));
    ++checked;
  }
  void finish() {
    std::printf("check %d: %lld tokens, all equal\n", N, static_cast<long long>(checked));
  }
  void save(dfg::State& s) const { s.write(&checked, sizeof checked); }
  void restore(const dfg::State& s) { s.read(&checked, sizeof checked); }
};
