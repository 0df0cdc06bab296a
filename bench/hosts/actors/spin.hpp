// Spin actors: CPU actors whose firing takes a set time and touches one byte of each token, for
// the overlap sweep on several ranks (bench/experiments/hosts_overlap.py). The time is read once
// from the environment variable DFG_BENCH_FIRE_US (microseconds, default 0), so that one build
// serves every point of the sweep; the firing busy-waits, as a computing actor occupies its CPU.
// SpinSource writes the iteration into byte 0, SpinPass forwards it, SpinSink checks it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

inline std::chrono::nanoseconds spin_fire_time() {
  const char* us = std::getenv("DFG_BENCH_FIRE_US");
  return std::chrono::nanoseconds(
      us == nullptr ? 0 : static_cast<std::int64_t>(std::strtod(us, nullptr) * 1000.0));
}

inline void spin_for(std::chrono::nanoseconds t) {
  if (t.count() <= 0) return;
  const auto end = std::chrono::steady_clock::now() + t;
  while (std::chrono::steady_clock::now() < end) {
  }
}

inline std::uint8_t spin_stamp(std::int64_t iteration) {
  return static_cast<std::uint8_t>(iteration * 7 + 1);
}

struct SpinSource {
  void init() { time_ = spin_fire_time(); }
  void fire(std::uint8_t* m, dfg::Context& ctx) {
    spin_for(time_);
    m[0] = spin_stamp(ctx.iteration());
  }
  std::chrono::nanoseconds time_{};
};

struct SpinPass {
  void init() { time_ = spin_fire_time(); }
  void fire(const std::uint8_t* a, std::uint8_t* b) {
    spin_for(time_);
    b[0] = a[0];
  }
  std::chrono::nanoseconds time_{};
};

struct SpinSink {
  void init() { time_ = spin_fire_time(); }
  void fire(const std::uint8_t* m, dfg::Context& ctx) {
    spin_for(time_);
    if (m[0] != spin_stamp(ctx.iteration()))
      throw std::runtime_error("spin sink: iteration " + std::to_string(ctx.iteration()) +
                               " got a wrong token");
  }
  std::chrono::nanoseconds time_{};
};
