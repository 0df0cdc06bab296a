// The actors of samples/streamit/filterbank: StreamIt's FilterBank filters, with its arithmetic
// in its order (sums in double, each stored as a float), so that the outputs are StreamIt's
// reference to the last bit.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

struct Source {
  float current = 0.0f;
  void fire(float* x) {
    x[0] = current;
    current = current > 1000.0f ? 0.0f : current + 1.0f;
  }
  void save(dfg::State& s) const { s.write(&current, sizeof current); }
  void restore(const dfg::State& s) { s.read(&current, sizeof current); }
};

/// StreamIt's FirFilter(L, COEFF) after Delay_N(L - 1): sum += peek(t) * COEFF[L - 1 - t], the
/// sum in double, stored as a float.
struct Fir {
  static constexpr bool dfg_stateless = true;  // the window is the history
  int band = 0;
  bool synthesis = false;
  int L = 32;
  int channels = 8;
  std::vector<float> c;
  void init() {
    c.resize(static_cast<std::size_t>(L));
    const int j = band;
    for (int i = 0; i < L; ++i)
      c[static_cast<std::size_t>(i)] =
          synthesis ? static_cast<float>(i * j + j * j + j + i)
                    : static_cast<float>(i * L + j * channels + j + i + j + 1);
  }
  void fire(const float* x, float* y) const {
    double sum = 0.0;
    for (int t = 0; t < L; ++t)
      sum += static_cast<double>(x[t]) * c[static_cast<std::size_t>(L - 1 - t)];
    y[0] = static_cast<float>(sum);
  }
};

struct Down {
  static constexpr bool dfg_stateless = true;
  int N = 8;
  void fire(const float* x, float* y) const { y[0] = x[0]; }
};

struct Up {
  static constexpr bool dfg_stateless = true;
  int N = 8;
  void fire(const float* x, float* y) const {
    y[0] = x[0];
    for (int i = 1; i < N; ++i) y[i] = 0.0f;
  }
};

/// StreamIt's Combine(N) after the roundrobin joiner, one branch at a time: the sum in double.
struct First {
  static constexpr bool dfg_stateless = true;
  void fire(const float* a, const float* b, double* y) const {
    y[0] = static_cast<double>(a[0]) + static_cast<double>(b[0]);
  }
};

struct Add {
  static constexpr bool dfg_stateless = true;
  void fire(const double* a, const float* b, double* y) const {
    y[0] = a[0] + static_cast<double>(b[0]);
  }
};

/// Prints each sample as StreamIt's print(float) did; with the runtime param PRINT = 0, counts
/// them and sums their bits instead, and prints that once at the end.
struct Print {
  bool print = true;
  unsigned long long samples = 0, checksum = 0;
  void init(dfg::Context& ctx) { print = ctx.runtime_param("PRINT") != 0; }
  void fire(const double* x) {
    const float v = static_cast<float>(x[0]);
    if (print) {
      std::printf("%f\n", static_cast<double>(v));
      return;
    }
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    checksum = checksum * 31 + bits;
    ++samples;
  }
  void finish() {
    if (!print) std::printf("filterbank: %llu samples, checksum %016llx\n", samples, checksum);
  }
  void save(dfg::State& s) const {
    s.write(&samples, sizeof samples);
    s.write(&checksum, sizeof checksum);
  }
  void restore(const dfg::State& s) {
    s.read(&samples, sizeof samples);
    s.read(&checksum, sizeof checksum);
  }
};
