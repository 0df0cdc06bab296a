#pragma once
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <dfg/context.hpp>
#include <dfg/state.hpp>

struct Tone {
  void fire(std::complex<float>* y, dfg::Context& ctx) {
    const auto n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k)
      y[k] = std::complex<float>(static_cast<float>(ctx.iteration() + static_cast<std::int64_t>(k)),
                                 -static_cast<float>(k)) /
             8.0f;
  }
};

struct Mix {
  std::complex<float> phasor{1.0f, 0.0f};
  void fire(const std::complex<float>* x, std::complex<float>* y, dfg::Context& ctx) {
    const auto n = ctx.elements(0);
    for (std::size_t k = 0; k < n; ++k) y[k] = x[k] * phasor;
    phasor *= std::complex<float>(0.6f, 0.8f);
    phasor /= std::abs(phasor);
  }
  void save(dfg::State& s) const {
    s.put(phasor.real());
    s.put(phasor.imag());
  }
  void restore(const dfg::State& s) {
    const float re = s.get<float>();
    phasor = {re, s.get<float>()};
  }
};

struct Conj {
  void fire(const std::complex<float>* x, std::complex<float>* y, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) y[k] = std::conj(x[k]);
  }
};

struct Check {
  std::complex<float> phasor{1.0f, 0.0f};  // the reference: Mix's arithmetic, in order
  std::int64_t bad = -1, checked = 0;
  void fire(const std::complex<float>* y, dfg::Context& ctx) {
    const auto n = ctx.elements(0);
    const std::int64_t i = ctx.iteration();
    for (std::size_t k = 0; k < n; ++k) {
      std::complex<float> want(2.5f, 0.0f);
      if (i > 0) {
        const std::complex<float> x(static_cast<float>(i - 1 + static_cast<std::int64_t>(k)),
                                    -static_cast<float>(k));
        want = std::conj(x / 8.0f * phasor);
      }
      if (y[k] != want && bad < 0) bad = i;
      ++checked;
    }
    if (i > 0) {
      phasor *= std::complex<float>(0.6f, 0.8f);
      phasor /= std::abs(phasor);
    }
  }
  void finish() {
    if (bad >= 0)
      std::printf("check: sample of iteration %lld differs\n", static_cast<long long>(bad));
    else
      std::printf("check: %lld samples, all equal\n", static_cast<long long>(checked));
  }
};
