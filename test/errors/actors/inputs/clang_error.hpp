#pragma once

struct Work {
  void fire(const float* a, float* b) { b[0] = a[0] + undeclared; }
};
