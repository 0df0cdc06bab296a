/// \file
/// dfg::Ports<T>: the tokens of a port group (`in float x[N];`), which `fire` takes as one
/// parameter named after the group: `void fire(dfg::Ports<const float> x, float* y)`. Element k
/// is port x<k>'s pointer, as a single port's parameter would be (`const float*` for an input,
/// `float*` for an output; device pointers on a GPU), in the group's order.
///
///     // actor Join { param int N = 2; in float x[N]; out float y rate N; cpu "join.hpp"; }
///     struct Join {
///       void fire(dfg::Ports<const float> x, float* y) const {
///         for (std::size_t k = 0; k < x.size(); ++k) y[k] = x[k][0];
///       }
///     };
///
/// Guarantees: a view of the generated code's pointers for one call; it owns nothing, and is
/// valid until fire returns, like the pointers it holds. The pointers follow the port group's
/// declaration order, whatever the edges' order in the spec.
#pragma once

#include <cstddef>

namespace dfg {

template <class T>
class Ports {
 public:
  /// The generated call's braced array of the group's pointers, x0 first: a temporary that
  /// lives until the call returns.
  template <std::size_t N>
  Ports(T* const (&ports)[N]) : ports_(ports), size_(N) {}  // NOLINT(google-explicit-constructor)

  /// The number of ports in the group (N).
  std::size_t size() const { return size_; }
  /// Port k's token (its first element): k in [0, size()).
  T* operator[](std::size_t k) const { return ports_[k]; }
  T* const* begin() const { return ports_; }
  T* const* end() const { return ports_ + size_; }

 private:
  T* const* ports_;
  std::size_t size_;
};

}  // namespace dfg
