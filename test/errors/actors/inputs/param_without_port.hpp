#pragma once

struct Work {
  void fire(const float* a, float* b, float* c) { b[0] = c[0] = a[0]; }
};
