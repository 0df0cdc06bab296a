// A conforming actor Work: in a, out b.
#pragma once

struct Work {
  void fire(const float* a, float* b) { b[0] = a[0]; }
};
