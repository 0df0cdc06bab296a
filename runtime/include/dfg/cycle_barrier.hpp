/// \file
/// dfg::CycleBarrier: the papers' BSP baseline (`--sync=barrier`), a reusable barrier for the N
/// processing-element threads of one rank.
///
///     with overlap:     launch transfers, fire nodes, wait for own streams;
///     barrier.arrive_and_wait(); without overlap:  CPU-CPU transfers;  barrier.arrive_and_wait();
///                       CPU-GPU transfers;  barrier.arrive_and_wait();
///                       fire nodes;         barrier.arrive_and_wait();
///
/// Across ranks the generated program adds an MPI barrier in one thread between two local
/// barriers; this header knows nothing of MPI.
///
/// Guarantees:
/// - Threads: exactly `parties` threads call arrive_and_wait() once per phase.
/// - Ordering: everything a thread did before arriving happens-before everything every thread
///   does after leaving the same phase: arrivals are acq_rel fetch_sub on count_; the last
///   arriver resets count_ (relaxed, ordered by the next release) and advances phase_ with a
///   release store; waiters leave after an acquire load of the new phase.
/// - Blocking: spins briefly, then sleeps in std::atomic::wait; throws dfg::Aborted promptly
///   once the Abort is raised (on a stop the barrier poisons phase_ and notifies), including
///   at entry when the stop was raised before.
/// - Allocation: none. parties() and phase_approx() never block.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>

#include "dfg/abort.hpp"
#include "dfg/detail/wait.hpp"

namespace dfg {

class CycleBarrier final : private AbortListener {
 public:
  explicit CycleBarrier(int parties, Abort& abort = process_abort())
      : parties_(parties), abort_(abort) {
    if (parties < 1) throw std::invalid_argument("dfg::CycleBarrier: parties must be >= 1");
    count_.store(parties, std::memory_order_relaxed);
    abort_.subscribe(*this);
  }
  ~CycleBarrier() { abort_.unsubscribe(*this); }

  CycleBarrier(const CycleBarrier&) = delete;
  CycleBarrier& operator=(const CycleBarrier&) = delete;

  int parties() const noexcept { return parties_; }

  /// Arrives at the current phase and blocks until all parties have arrived. Throws
  /// dfg::Aborted on a stop.
  void arrive_and_wait() {
    abort_.throw_if_stopped();
    const std::int64_t phase = phase_.load(std::memory_order_acquire);
    if (count_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      count_.store(parties_, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      phase_.notify_all();
      return;
    }
    detail::wait_until(phase_, abort_, [phase](std::int64_t v) { return v != phase; });
  }

  /// The number of completed phases; racy.
  std::int64_t phase_approx() const noexcept { return phase_.load(std::memory_order_relaxed); }

 private:
  void on_abort() noexcept override {
    phase_.store(detail::kPoison, std::memory_order_release);
    phase_.notify_all();
  }

  const int parties_;
  Abort& abort_;
  alignas(64) std::atomic<int> count_{0};
  alignas(64) std::atomic<std::int64_t> phase_{0};
};

}  // namespace dfg
