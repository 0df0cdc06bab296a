// Accumulate: the running sum of its input since iteration 0, element by element. Its state (the
// sums) moves with it: save() after the old instance's last firing, restore() before the new
// one's first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

struct Accumulate {
  std::vector<std::int64_t> sum;

  void init(dfg::Context& ctx) { sum.assign(ctx.elements(0), 0); }

  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) y[k] = sum[k] += x[k];
  }

  void save(dfg::State& s) const { s.write(sum.data(), sum.size() * sizeof(std::int64_t)); }
  void restore(const dfg::State& s) { s.read(sum.data(), sum.size() * sizeof(std::int64_t)); }
};
