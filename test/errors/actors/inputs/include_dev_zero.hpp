// Includes a device: Clang may not read it.
#pragma once
#include "/dev/zero"

struct Work {
  void fire(const float* a, float* b) { b[0] = a[0]; }
};
