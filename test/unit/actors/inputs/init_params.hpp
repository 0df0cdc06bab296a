// `init` and the data members that receive actor params. Every class has a port `in a`.
#pragma once

#include <dfg/context.hpp>

struct InitPlain {
  void init() {}
  void fire(const float* a) {}
};

struct InitContext {
  void init(dfg::Context& ctx) {}
  void fire(const float* a) {}
};

struct InitInt {
  void init(int n) {}
  void fire(const float* a) {}
};

struct InitConstContext {
  void init(const dfg::Context& ctx) {}
  void fire(const float* a) {}
};

struct InitOverloaded {
  void init() {}
  void init(dfg::Context& ctx) {}
  void fire(const float* a) {}
};

struct InitStatic {
  static void init() {}
  void fire(const float* a) {}
};

class InitProtected {
 public:
  void fire(const float* a) {}

 protected:
  void init() {}
};

// Params: int n, int64 big, float scale, double ratio, bool flag.
struct ParamsGood {
  unsigned n;
  long big;
  float scale;
  double ratio;
  bool flag;
  void fire(const float* a) {}
};

struct ParamsBad {
  float n;
  static long big;
  const float scale = 1.0f;
  int ratio;
  void fire(const float* a) {}
};

// Param: int n.
class ParamsPrivate {
 public:
  void fire(const float* a) {}

 private:
  int n;
};
