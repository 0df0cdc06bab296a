// The dynamic actors of the FIR network: each step fires one action when its guard holds (a
// sample on every input, room on every output) and says whether it fired.
#pragma once

#include <cstdint>

#include "dfg/ports.hpp"

/// A delay of one sample with two readers: y and next give x[t-1] (0 at t = 0).
struct Tap {
  std::int32_t previous = 0;
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y, dfg::Out<std::int32_t> next) {
    if (x.available() < 1 || y.room() < 1 || next.room() < 1) return false;
    y.push(previous);
    next.push(previous);
    previous = x.pop();
    return true;
  }
};

/// A delay of one sample: y gives x[t-1] (0 at t = 0).
struct Delay {
  std::int32_t previous = 0;
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    if (x.available() < 1 || y.room() < 1) return false;
    y.push(previous);
    previous = x.pop();
    return true;
  }
};

/// y = coef * x, on as many samples as are there and fit.
struct Mul {
  int coef = 1;
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    std::size_t n = x.available();
    if (n > y.room()) n = y.room();
    if (n == 0) return false;
    auto in = x.peek(n);
    auto out = y.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = coef * in[i];
    y.commit(n);
    x.release(n);
    return true;
  }
};

/// s = a + b.
struct Add {
  bool step(dfg::In<std::int32_t> a, dfg::In<std::int32_t> b, dfg::Out<std::int32_t> s) {
    if (a.available() < 1 || b.available() < 1 || s.room() < 1) return false;
    s.push(a.pop() + b.pop());
    return true;
  }
};

/// y = x >> shift. With `bad` > 0 it drops the first sample of that iteration's block (a test of
/// the island's check that every output token is full).
struct Shift {
  int shift = 0;
  int bad = 0;
  int block = 0;  // samples per block
  std::int64_t seen = 0;
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    if (x.available() < 1 || y.room() < 1) return false;
    const std::int32_t v = x.pop();
    if (bad > 0 && seen++ == std::int64_t{bad} * block) return true;
    y.push(v >> shift);
    return true;
  }
};
