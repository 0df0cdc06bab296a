// A conforming CPU actor with ports `in a`, `out b` and no context.
#pragma once

struct Good {
  void fire(const float* a, float* b) { b[0] = a[0]; }
};
