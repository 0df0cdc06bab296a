// Code that Clang compiles one way and g++ or nvcc another, or not at all.
#pragma once

struct ClangOnly {
  void fire(const float* a, float* b) {
#if defined(__clang__) && __clang_major__ >= 19
    b[0] = __builtin_elementwise_abs(a[0]);  // g++ has no such builtin
#else
    b[0] = a[0] < 0 ? -a[0] : a[0];
#endif
  }
};
