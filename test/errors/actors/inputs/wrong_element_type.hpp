#pragma once

struct Work {
  void fire(const double* a, float* b) { b[0] = static_cast<float>(a[0]); }
};
