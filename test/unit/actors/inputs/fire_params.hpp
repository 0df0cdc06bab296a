// fire's parameters against ports `in a`, `out b` (floats) unless the test says otherwise.
#pragma once

#include <cstdint>

#include <dfg/context.hpp>

struct Reordered {
  void fire(float* b, const float* a) {}
};

struct Arrays {
  void fire(const float a[], float b[], dfg::Context& ctx) {}
};

struct Unnamed {
  void fire(const float*, float* b) {}
};

struct Extra {
  void fire(const float* a, float* b, int n) {}
};

struct MissingPort {
  void fire(const float* a) {}
};

struct WrongElem {
  void fire(const double* a, float* b) {}
};

struct NotPointer {
  void fire(float a, float* b) {}
};

struct NonConstIn {
  void fire(float* a, float* b) {}
};

struct ConstOut {
  void fire(const float* a, const float* b) {}
};

struct VolatileIn {
  void fire(const volatile float* a, float* b) {}
};

struct ContextFirst {
  void fire(dfg::Context& ctx, const float* a, float* b) {}
};

struct ContextByValue {
  void fire(const float* a, float* b, dfg::Context ctx) {}
};

struct ContextConstRef {
  void fire(const float* a, float* b, const dfg::Context& ctx) {}
};

// Ports `in int32 a`, `out int64 b`, `out uint8 c`: the fixed-width typedefs match.
struct Ints {
  void fire(const std::int32_t* a, std::int64_t* b, unsigned char* c) {}
};

// Same ports: long long is not int64_t here, nor plain char uint8_t.
struct IntsMismatch {
  void fire(const int* a, long long* b, char* c) {}
};
