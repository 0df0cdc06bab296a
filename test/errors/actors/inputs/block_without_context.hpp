#pragma once
#include <dfg/context.hpp>
// declared block in the spec, but fire cannot learn how many firings one call makes
struct Work {
  void fire(const float* a, float* b) { b[0] = a[0]; }
};
