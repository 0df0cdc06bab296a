/// \file
/// dfg::In<T> and dfg::Out<T>: the ends of dfg::Fifo rings that a dynamic actor's `step` takes,
/// one per port, by value. An action's guard asks what is there (`available`, `peek`) and what
/// room is left (`room`); the action takes (`pop`, `release`) and gives (`push`, `reserve` and
/// `commit`).
///
///     struct Add {                       // actor Add dynamic { in int32 a; in int32 b; out int32
///     s; }
///       bool step(dfg::In<int> a, dfg::In<int> b, dfg::Out<int> s) {
///         if (a.available() < 1 || b.available() < 1 || s.room() < 1) return false;  // the guard
///         s.push(a.pop() + b.pop());     // the action
///         return true;                   // fired
///       }
///     };
///
/// A parallel action on a CPU (`cpu ... parallel (x 64, y 64)`, docs/language.md): the island
/// fires it in batches, dfg::fire_batch(max_n, actor, dfg::Take{in, 64}, dfg::Give{out, 64}): n is
/// the most firings whose elements are on every input and whose slots are free on every output,
/// at most max_n; firing i gets the i-th group of each input's elements and of each output's
/// slots (dfg::RingSpan), in order, then every port is released or committed once for the n.
///
/// dfg::PackSome<T> is the adapter from a ring into a token of a bounded type: what the ring
/// holds, up to the token's capacity (a fifo edge between islands on two CPUs).
///
/// Guarantees: a view holds a reference to its ring and nothing else; it does not allocate,
/// block or throw. An In is the ring's consumer end, an Out its producer end: the thread that
/// runs the island calls both, so the memory ordering is dfg::Fifo's (release commits, acquire
/// reads). pop() and push() on an empty or full ring are precondition violations, not checked:
/// test the guard first.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include "dfg/detail/ring_span.hpp"
#include "dfg/fifo.hpp"

namespace dfg {

/// The consumer end of a ring.
template <class T>
class In {
 public:
  explicit In(Fifo<T>& fifo) noexcept : fifo_(&fifo) {}

  /// Elements in the ring.
  std::size_t available() noexcept { return fifo_->available(); }
  /// Up to `n` of the oldest elements, left in the ring until release().
  RingSpan<const T> peek(std::size_t n) noexcept { return fifo_->peek(n); }
  /// Frees the first `k` elements of the last peek().
  void release(std::size_t k) noexcept { fifo_->release(k); }
  /// Takes the oldest element; available() must be at least 1.
  T pop() noexcept {
    T v{};
    fifo_->try_pop(v);
    return v;
  }

 private:
  Fifo<T>* fifo_;
};

/// The producer end of a ring.
template <class T>
class Out {
 public:
  explicit Out(Fifo<T>& fifo) noexcept : fifo_(&fifo) {}

  /// Free slots.
  std::size_t room() noexcept { return fifo_->room(); }
  /// Up to `n` free slots, published by commit().
  RingSpan<T> reserve(std::size_t n) noexcept { return fifo_->reserve(n); }
  void commit(std::size_t k) noexcept { fifo_->commit(k); }
  /// Appends one element; room() must be at least 1.
  void push(const T& v) noexcept { fifo_->try_push(v); }

 private:
  Fifo<T>* fifo_;
};

/// A parallel action's input: `rate` elements of `fifo` a firing.
template <class T>
struct Take {
  Fifo<T>& fifo;
  std::size_t rate;
};
/// A parallel action's output: `rate` slots of `fifo` a firing.
template <class T>
struct Give {
  Fifo<T>& fifo;
  std::size_t rate;
};

namespace detail {
template <class T>
std::size_t budget(const Take<T>& p) noexcept {
  return p.fifo.available();
}
template <class T>
std::size_t budget(const Give<T>& p) noexcept {
  return p.fifo.room();
}
template <class T>
RingSpan<const T> batch(const Take<T>& p, std::size_t n) noexcept {
  return p.fifo.peek(n * p.rate);
}
template <class T>
RingSpan<T> batch(const Give<T>& p, std::size_t n) noexcept {
  return p.fifo.reserve(n * p.rate);
}
template <class T>
void done(const Take<T>& p, std::size_t n) noexcept {
  p.fifo.release(n * p.rate);
}
template <class T>
void done(const Give<T>& p, std::size_t n) noexcept {
  p.fifo.commit(n * p.rate);
}
}  // namespace detail

/// Up to max_n firings of `actor`'s parallel action, `actor.fire(span, ...)` one per port in the
/// order given, on the calling thread; returns how many fired (0: the action cannot fire).
template <class Actor, class... P>
std::size_t fire_batch(std::size_t max_n, const Actor& actor, const P&... ports) {
  static_assert(sizeof...(P) > 0, "dfg::fire_batch: an action needs at least one port");
  const std::size_t n = fit_firings(max_n, PortBudget{detail::budget(ports), ports.rate}...);
  if (n == 0) return 0;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    const std::tuple<decltype(detail::batch(ports, n))...> spans{detail::batch(ports, n)...};
    const std::size_t rates[] = {ports.rate...};
    for (std::size_t i = 0; i < n; ++i)
      actor.fire(std::get<I>(spans).sub(i * rates[I], rates[I])...);
  }(std::index_sequence_for<P...>{});
  (detail::done(ports, n), ...);
  return n;
}

/// The adapter out of an island into a token of a bounded type (a fifo edge to an island on
/// another CPU): each firing, the elements the ring holds, up to the token's capacity; finish()
/// says how many, the token's length. What does not fit stays for the next firing.
template <class T>
class PackSome {
 public:
  explicit PackSome(Fifo<T>& in) noexcept : in_(in) {}

  void begin(T* data, std::size_t capacity) noexcept {
    data_ = data;
    capacity_ = capacity;
    done_ = 0;
  }
  bool step() noexcept {
    if (data_ == nullptr || done_ == capacity_) return false;
    const std::size_t k = in_.pop_some(data_ + done_, capacity_ - done_);
    done_ += k;
    return k != 0;
  }
  /// The elements taken this firing.
  std::size_t finish() noexcept {
    data_ = nullptr;
    return done_;
  }

 private:
  Fifo<T>& in_;
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t done_ = 0;
};

}  // namespace dfg
