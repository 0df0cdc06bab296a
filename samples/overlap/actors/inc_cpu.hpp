// Inc on a CPU: the incrementer of figure 13 of the paper, as a loop.
#pragma once

#include <cstddef>

#include <dfg/context.hpp>

struct IncCpu {
  int nb_loop = 100;
  // one_ is computed by init(), which an instance moved here runs too: no
  // member carries anything from one firing to the next.
  static constexpr bool dfg_stateless = true;

  void init(dfg::Context&) { one_ = series_one(nb_loop); }

  void fire(const float* a, float* b, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    for (std::size_t i = 0; i < n; ++i) b[i] = a[i] + one_;
  }

  // sum_{i=2}^{nb_loop+2} 1/i^2 converges to about 0.64; rounded, it is 1.
  static float series_one(int nb_loop) {
    float one = 0.0f;
    for (int i = 2; i < nb_loop + 3; ++i) one += (1.0f / i) * (1.0f / i);
    return static_cast<float>(static_cast<int>(one + 0.5f));
  }

 private:
  float one_ = 1.0f;
};
