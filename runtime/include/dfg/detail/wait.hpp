/// \file
/// dfg::detail::wait_until: the one blocking wait the runtime's primitives share. Spins for up to
/// kSpinFor, then sleeps in C++20 std::atomic<T>::wait until the value changes, and throws
/// dfg::Aborted once the stop has been raised. The spin covers the common case of a cycle loop,
/// where the awaited thread finishes within microseconds: waking a sleeping thread costs tens of
/// microseconds, which would add to every cycle's period.
///
/// Guarantees: called by the waiting thread only; does not allocate. Each observation of the
/// counter is an acquire load, so a waiter that returns sees everything the thread that stored
/// the satisfying value wrote before its release store. The stop is checked after every load: an
/// AbortListener that stores a poison value with release ordering after the stop flag was set
/// is therefore always seen as a stop, never as a satisfied condition.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <thread>

#include "dfg/abort.hpp"

namespace dfg::detail {

/// A value no well-formed iteration counter reaches: listeners store it to wake sleepers.
inline constexpr std::int64_t kPoison = std::numeric_limits<std::int64_t>::max();

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Blocks until `done(value)` holds for an acquire load of `a`; throws Aborted on a stop.
inline constexpr std::chrono::microseconds kSpinFor{50};

/// Blocks until `done(value)` holds for an acquire load of `a`; throws Aborted on a stop.
template <class T, class Done>
void wait_until(const std::atomic<T>& a, const Abort& abort, Done done) {
  constexpr int kSpinsPerClockRead = 64;
  std::chrono::steady_clock::time_point spin_until{};
  for (int spin = 0;; ++spin) {
    const T v = a.load(std::memory_order_acquire);
    if (abort.stopped()) throw Aborted();
    if (done(v)) return;
    if (spin % kSpinsPerClockRead != kSpinsPerClockRead - 1) {
      cpu_relax();
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    if (spin_until == std::chrono::steady_clock::time_point{}) spin_until = now + kSpinFor;
    if (now >= spin_until) a.wait(v, std::memory_order_acquire);
  }
}

}  // namespace dfg::detail
