#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <dfg/bounded.hpp>
#include <dfg/context.hpp>

struct Hit {
  std::int8_t flag;
  double time;
  int channel;
  float amp[3];
};

namespace rx {
struct Pair {
  std::uint16_t a;
  std::uint8_t b;
};
}  // namespace rx

// Hit k of iteration i.
inline Hit make_hit(std::int64_t i, std::size_t k) {
  const auto x = static_cast<float>(i * 10 + static_cast<std::int64_t>(k));
  return {static_cast<std::int8_t>((i + static_cast<std::int64_t>(k)) % 2), 0.5 * static_cast<double>(i),
          static_cast<int>(k), {x, -x, x * 0.25f}};
}

struct Source {
  void fire(Hit* h, dfg::Bounded<rx::Pair> p, dfg::Context& ctx) {
    const std::int64_t i = ctx.iteration();
    for (std::size_t k = 0; k < ctx.elements(0); ++k) h[k] = make_hit(i, k);
    p.resize(static_cast<std::size_t>(i % 8));
    for (std::size_t k = 0; k < p.size(); ++k)
      p[k] = {static_cast<std::uint16_t>(i * 100 + static_cast<std::int64_t>(k)), static_cast<std::uint8_t>(k)};
  }
};

struct Gain {
  void fire(const Hit* x, Hit* y, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) {
      y[k] = x[k];
      for (float& a : y[k].amp) a *= 2.0f;
    }
  }
};

struct Check {
  std::int64_t bad = -1, checked = 0;
  void fire(const Hit* h, dfg::Bounded<const rx::Pair> p, dfg::Context& ctx) {
    const std::int64_t i = ctx.iteration();
    for (std::size_t k = 0; k < ctx.elements(0); ++k) {
      Hit want{};  // the delay's initial token: zeros
      if (i > 0) {
        want = make_hit(i - 1, k);
        for (float& a : want.amp) a *= 2.0f;
      }
      bool same = h[k].flag == want.flag && h[k].time == want.time && h[k].channel == want.channel;
      for (int j = 0; j < 3; ++j) same = same && h[k].amp[j] == want.amp[j];
      if (!same && bad < 0) bad = i;
      ++checked;
    }
    if (p.size() != static_cast<std::size_t>(i % 8) && bad < 0) bad = i;
    for (std::size_t k = 0; k < p.size(); ++k) {
      if ((p[k].a != static_cast<std::uint16_t>(i * 100 + static_cast<std::int64_t>(k)) || p[k].b != k) && bad < 0) bad = i;
      ++checked;
    }
  }
  void finish() {
    if (bad >= 0)
      std::printf("check: iteration %lld differs\n", static_cast<long long>(bad));
    else
      std::printf("check: %lld elements, all equal\n", static_cast<long long>(checked));
  }
};
