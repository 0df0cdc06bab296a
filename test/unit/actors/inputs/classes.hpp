// Class lookup and the rules on `fire` itself. Each class is the implementation of one actor
// with a single input port `a` of floats.
#pragma once

#include <dfg/context.hpp>

template <typename T>
struct Templated {
  void fire(const T* a) {}
};

struct Declared;

union Onion {
  void fire(const float* a) {}
  float value;
};

namespace ns {
struct Qualified {
  void fire(const float* a) {}
};
namespace inner {
struct Deeper {
  void fire(const float* a) {}
};
}  // namespace inner
}  // namespace ns
namespace alias = ns;
using Aliased = ns::Qualified;

struct NoFire {
  void run(const float* a);
};

struct DataFire {
  int fire;
};

struct TemplateFire {
  template <typename T>
  void fire(const T* a) {}
};

struct OverloadedFire {
  void fire(const float* a) {}
  void fire(const double* a) {}
};

class PrivateFire {
  void fire(const float* a) {}
};

struct StaticFire {
  static void fire(const float* a) {}
};

// A const fire is fine: dfgc calls it on a non-const object.
struct ConstFire {
  void fire(const float* a) const {}
};

struct Base {
  void fire(const float* a) {}
};
struct Derived : Base {};
class HiddenBase : Base {};

// Defined out of its class with `inline`: fine, however many generated sources include it.
struct InlineFire {
  void fire(const float* a);
};
inline void InlineFire::fire(const float* a) {}

// The generated code cannot create an object whose default constructor is protected.
class ProtectedCtor {
 protected:
  ProtectedCtor() = default;

 public:
  void fire(const float* a) {}
};
