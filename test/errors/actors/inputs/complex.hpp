#pragma once
#include <complex>

struct ComplexSource {
  void fire(std::complex<float>* o) { o[0] = {1.0f, -1.0f}; }
};

// Interleaved floats for a cfloat port: the layout is the same, the type is not.
struct Work {
  void fire(const float* a, std::complex<float>* b) { b[0] = {a[0], a[1]}; }
};

struct ComplexSink {
  void fire(const std::complex<double>* i) { (void)i; }
};
