// Sources that number their tokens: by iteration only (wrong once a consumer's rate makes them
// fire several times an iteration), and by iteration and firing (right).
#pragma once
#include <cstdint>

#include <dfg/context.hpp>

struct ByIteration {
  void fire(float* o, dfg::Context& ctx) {
    auto fill = [&] { o[0] = static_cast<float>(ctx.iteration()); };
    fill();
  }
};

struct ByFiring {
  void fire(float* o, dfg::Context& ctx) {
    o[0] = static_cast<float>(ctx.iteration() * ctx.firings() + ctx.firing());
  }
};

struct Sum4 {
  void fire(const float* i, float* o) { o[0] = i[0] + i[1] + i[2] + i[3]; }
};
