/// \file
/// dfg::Workers: one std::thread per processing element, with the abort protocol. A worker body
/// that throws (an actor's exception, a CUDA error turned into dfg::CudaError, a failed
/// allocation) has its error recorded in the Abort together with what the worker was doing
/// (dfg::Where: "node i1 (Inc) @ A.g0", iteration 17); the other workers stop at their next
/// wait (dfg::Aborted, which is not an error of its own); join_and_report() joins them all,
/// prints the first error and returns the exit status.
///
///     dfg::Workers workers;
///     workers.spawn("A.cpu", [&](dfg::Where& where) { run_A_cpu(where); });
///     workers.spawn("A.g0",  [&](dfg::Where& where) { run_A_g0(where); });
///     return workers.join_and_report(std::cerr);   // 0, or 1 after "error: ..."
///
/// Guarantees:
/// - spawn() and join*() are called by one thread (main). spawn() allocates (a Where, a
///   thread); it never throws: if a thread cannot be started it raises the stop (so that the
///   started workers leave) and returns false.
/// - Where belongs to its worker thread: at() is two plain stores, read by the same thread when
///   it catches an exception.
/// - join() waits for every worker; the destructor joins those not yet joined, after raising
///   the stop so that none of them waits for a worker that never started.
/// - main_guard() runs set-up code on the main thread with the same reporting.
/// - cycles_ended() is one release increment; wait_cycles_ended() polls it (acquire) and sleeps,
///   and may be called by any thread while the Workers lives.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "dfg/abort.hpp"

namespace dfg {

/// What a worker is doing, for the error message of an exception that escapes it.
class Where {
 public:
  /// `who` must outlive the worker (the generated code passes string literals). Returns
  /// `iteration`: `const std::int64_t j = where.at("node p (P) @ A.cpu", c - 2);`.
  std::int64_t at(std::string_view who, std::int64_t iteration) noexcept {
    who_ = who;
    iteration_ = iteration;
    return iteration;
  }
  void clear() noexcept { at({}, -1); }
  std::string_view who() const noexcept { return who_; }
  std::int64_t iteration() const noexcept { return iteration_; }

 private:
  std::string_view who_;
  std::int64_t iteration_ = -1;
};

namespace detail {

/// Records the exception in flight (called inside a catch block) as `where` says.
inline void record_current_exception(Abort& abort, std::string_view fallback_who,
                                     const Where& where) {
  const std::string_view who = where.who().empty() ? fallback_who : where.who();
  try {
    throw;
  } catch (const Aborted&) {
    // Another thread's error stopped this one; that error is already recorded.
  } catch (const std::exception& e) {
    abort.raise(who, where.iteration(), e.what());
  } catch (...) {
    abort.raise(who, where.iteration(), "unknown exception");
  }
}

}  // namespace detail

class Workers {
 public:
  explicit Workers(Abort& abort = process_abort()) : abort_(abort) {}

  ~Workers() {
    bool running = false;
    for (auto& w : workers_) running = running || w->thread.joinable();
    if (running) abort_.raise({}, -1, "worker threads abandoned before join");
    join();
  }

  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  /// Starts `body(Where&)` on a new thread named `name` (used in messages when the body has
  /// not said where it is). Returns false, with the stop raised, if the thread cannot start.
  template <class Body>
  bool spawn(std::string name, Body body) {
    try {
      auto w = std::make_unique<Worker>();
      w->name = std::move(name);
      Worker* raw = w.get();
      workers_.push_back(std::move(w));
      raw->thread = std::thread([this, raw, body = std::move(body)]() mutable {
        try {
          body(raw->where);
        } catch (...) {
          detail::record_current_exception(abort_, "worker " + raw->name, raw->where);
        }
      });
      return true;
    } catch (const std::exception& e) {
      abort_.raise({}, -1, std::string("cannot start a worker thread: ") + e.what());
      return false;
    }
  }

  /// Joins every worker; returns 1 if the stop was raised, else 0.
  int join() {
    for (auto& w : workers_) {
      if (w->thread.joinable()) w->thread.join();
    }
    return abort_.stopped() ? 1 : 0;
  }

  /// join(), then the first error on `err`; returns the process exit status.
  int join_and_report(std::ostream& err) {
    join();
    return abort_.report(err);
  }

  std::size_t size() const noexcept { return workers_.size(); }

  /// Called by a worker's thread once its cycle loop has ended, returned or thrown
  /// (dfg::spawn_workers does it): what the worker measured may then be read by another thread.
  void cycles_ended() noexcept { ended_.fetch_add(1, std::memory_order_release); }
  /// Whether every spawned worker's cycle loop has ended, waiting up to `limit` (polling every
  /// millisecond). Any thread; after it returns true, what the workers wrote is visible.
  bool wait_cycles_ended(std::chrono::milliseconds limit) const noexcept {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (ended_.load(std::memory_order_acquire) < workers_.size()) {
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }

 private:
  struct Worker {
    std::string name;
    Where where;
    std::thread thread;
  };

  Abort& abort_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<std::size_t> ended_{0};  ///< cycles_ended() calls
};

/// Runs main's set-up and tear-down `body()` (returning an exit status); an exception is
/// recorded in `abort` and reported on `err`. Returns body's status, or 1.
template <class Body>
int main_guard(std::ostream& err, Body body, Abort& abort = process_abort()) {
  Where where;
  int status = 0;
  try {
    status = body();
  } catch (...) {
    detail::record_current_exception(abort, {}, where);
  }
  if (abort.stopped()) return abort.report(err);
  return status;
}

}  // namespace dfg
