// The actors of test/generated/ring_delay.dfg: sample t (from 1) of the stream is t; the running
// sum starts at 100 (its ring's initial element) and the difference looks back two sums, the first
// two of them 7 (the initial elements of its loop's ring).
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "dfg/context.hpp"
#include "dfg/detail/ring_span.hpp"
#include "dfg/ports.hpp"

struct Count {
  std::int64_t t = 0;
  void fire(std::int64_t* out, dfg::Context&) {
    for (int i = 0; i < 16; ++i) out[i] = ++t;
  }
};

/// A parallel action: y = next = x + prev, prev being its own last output (a ring of one).
struct RunningSum {
  void fire(dfg::RingSpan<const std::int64_t> x, dfg::RingSpan<const std::int64_t> prev,
            dfg::RingSpan<std::int64_t> y, dfg::RingSpan<std::int64_t> next) const {
    y[0] = next[0] = x[0] + prev[0];
  }
};

/// A step: y = x - back, where back is x two samples ago (through `loop` and a pass).
struct Difference {
  bool step(dfg::In<std::int64_t> x, dfg::In<std::int64_t> back, dfg::Out<std::int64_t> y,
            dfg::Out<std::int64_t> loop) {
    if (x.available() < 1 || back.available() < 1 || y.room() < 1 || loop.room() < 1) return false;
    const std::int64_t v = x.pop();
    y.push(v - back.pop());
    loop.push(v);
    return true;
  }
};

struct Pass {
  void fire(dfg::RingSpan<const std::int64_t> x, dfg::RingSpan<std::int64_t> y) const {
    y[0] = x[0];
  }
};

struct Check {
  std::int64_t t = 0;
  static std::int64_t sum(std::int64_t t) { return t < 1 ? 7 : 100 + t * (t + 1) / 2; }
  void fire(const std::int64_t* in, dfg::Context&) {
    for (int i = 0; i < 16; ++i) {
      ++t;
      if (in[i] != sum(t) - sum(t - 2))
        throw std::runtime_error("sample " + std::to_string(t) + " is " + std::to_string(in[i]) +
                                 ", expected " + std::to_string(sum(t) - sum(t - 2)));
    }
  }
  void finish() { std::printf("ring_delay checked: %lld samples\n", static_cast<long long>(t)); }
};
