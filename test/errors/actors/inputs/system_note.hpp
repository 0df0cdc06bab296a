// A Clang error whose notes point into the C++ library: their paths are shown normalised.
#pragma once

#include <vector>

struct NoCopy {
  NoCopy() = default;
  NoCopy(const NoCopy&) = delete;
};

struct Work {
  std::vector<NoCopy> items = std::vector<NoCopy>(1);
  std::vector<NoCopy> copy = items;
  void fire(const float* a, float* b) { b[0] = a[0]; }
};
