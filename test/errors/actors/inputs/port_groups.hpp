#pragma once

#include <dfg/context.hpp>
#include <dfg/port_group.hpp>

struct JoinPointer {
  void fire(const float* x, float* y) const { y[0] = x[0]; }
};

struct SplitMissing {
  void fire(const float* x) const { (void)x; }
};

struct JoinMutable {
  void fire(dfg::Ports<float> x, float* y) const { y[0] = x[0][0]; }
};

struct JoinElements {
  void fire(dfg::Ports<const float> x, float* y, dfg::Context& ctx) const {
    y[0] = x[0][0] * static_cast<float>(ctx.elements("x"));
  }
};
