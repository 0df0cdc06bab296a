/// \file
/// dfg::Abort: the process-wide, first-error-wins stop. The first thread that reports an error
/// records (who, iteration, what) once; every blocking wait of the runtime observes the stop and
/// throws dfg::Aborted promptly, so that a failing actor or a CUDA error never leaves the other
/// worker threads hanging; main then prints
///     error: node i1 (Inc) @ A.g0, iteration 17: <what>
/// and exits with status 1.
///
/// Guarantees:
/// - raise() may be called by any thread at any time; it never blocks on a worker, never
///   allocates (the message lives in fixed buffers, truncated if too long) and is noexcept.
///   The first call wins; later calls return false and change nothing. When raise() returns,
///   stopped() is true and the first error is readable (a later caller yields while the first
///   one copies its message).
/// - stopped() is a lock-free acquire load; once it returns true, who(), what(), iteration() and
///   message() return the first error, from any thread.
/// - Blocking primitives (slot rings, barriers, window tables) subscribe an AbortListener at
///   construction and unsubscribe at destruction (a mutex, never on the hot path). raise() sets
///   the stop flag (release), then calls every listener's on_abort() under that mutex; a listener
///   wakes its sleepers by storing a value they cannot be waiting for (release) and notifying.
///   A listener that subscribes after the stop is called at once.
/// - Memory ordering: state_ is a CAS (acq_rel) that elects the first reporter; the fields are
///   written by that thread only, before the release store of stopped_, and read after an
///   acquire load of stopped_ that returned true.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

namespace dfg {

/// Thrown by a blocking wait when another thread has raised the stop. A worker that catches it
/// has nothing to report: the first error is already recorded.
class Aborted final : public std::exception {
 public:
  const char* what() const noexcept override { return "stopped: another thread reported an error"; }
};

class Abort;

/// Something that sleeps on its own atomics and must be woken when the stop is raised.
class AbortListener {
 public:
  /// Called once, from the thread that raised the stop, under the Abort's listener mutex.
  /// Must not block, allocate or call back into the Abort.
  virtual void on_abort() noexcept = 0;

 protected:
  AbortListener() = default;
  ~AbortListener() = default;
  AbortListener(const AbortListener&) = delete;
  AbortListener& operator=(const AbortListener&) = delete;

 private:
  friend class Abort;
  AbortListener* prev_ = nullptr;
  AbortListener* next_ = nullptr;
};

class Abort {
 public:
  static constexpr std::size_t kWhoCapacity = 256;
  static constexpr std::size_t kWhatCapacity = 1024;

  Abort() = default;
  Abort(const Abort&) = delete;
  Abort& operator=(const Abort&) = delete;

  /// Records the error if it is the first one and stops every subscribed waiter.
  /// `who` names the failing entity ("node i1 (Inc) @ A.g0", "buffer i1.b@A.g0"), may be empty;
  /// `iteration` is the iteration being processed, or -1 when there is none (set-up, tear-down).
  /// Returns true for the first report.
  bool raise(std::string_view who, std::int64_t iteration, std::string_view what) noexcept {
    int expected = kRunning;
    if (!state_.compare_exchange_strong(expected, kRecording, std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
      // The winner is copying its message (bounded work); leave only once it is visible.
      while (!stopped_.load(std::memory_order_acquire)) std::this_thread::yield();
      return false;
    }
    copy_truncated(who_, who);
    copy_truncated(what_, what);
    iteration_ = iteration;
    stopped_.store(true, std::memory_order_release);
    std::lock_guard<std::mutex> lock(listeners_mutex_);
    for (AbortListener* l = head_; l != nullptr; l = l->next_) l->on_abort();
    return true;
  }

  /// Whether the stop has been raised (acquire).
  bool stopped() const noexcept { return stopped_.load(std::memory_order_acquire); }

  /// Throws dfg::Aborted if the stop has been raised.
  void throw_if_stopped() const {
    if (stopped()) throw Aborted();
  }

  /// The first error's parts; empty / -1 while stopped() is false.
  std::string_view who() const noexcept {
    return stopped() ? std::string_view(who_) : std::string_view();
  }
  std::string_view what() const noexcept {
    return stopped() ? std::string_view(what_) : std::string_view();
  }
  std::int64_t iteration() const noexcept { return stopped() ? iteration_ : -1; }

  /// "error: <who>, iteration <k>: <what>" (parts left out when absent); empty while running.
  std::string message() const {
    if (!stopped()) return {};
    std::string m = "error: ";
    const std::string_view w = who_;
    if (!w.empty()) {
      m += w;
      if (iteration_ >= 0) m += ", iteration " + std::to_string(iteration_);
      m += ": ";
    } else if (iteration_ >= 0) {
      m += "iteration " + std::to_string(iteration_) + ": ";
    }
    m += what_;
    return m;
  }

  /// Prints message() and a newline to `os` when stopped, once per Abort (later calls print
  /// nothing); returns the process exit status (1 when stopped, 0 otherwise).
  int report(std::ostream& os) {
    if (!stopped()) return 0;
    if (!reported_.exchange(true, std::memory_order_acq_rel)) os << message() << '\n';
    return 1;
  }

  void subscribe(AbortListener& l) {
    std::lock_guard<std::mutex> lock(listeners_mutex_);
    l.prev_ = nullptr;
    l.next_ = head_;
    if (head_ != nullptr) head_->prev_ = &l;
    head_ = &l;
    if (stopped()) l.on_abort();
  }

  void unsubscribe(AbortListener& l) noexcept {
    std::lock_guard<std::mutex> lock(listeners_mutex_);
    if (l.prev_ != nullptr)
      l.prev_->next_ = l.next_;
    else if (head_ == &l)
      head_ = l.next_;
    if (l.next_ != nullptr) l.next_->prev_ = l.prev_;
    l.prev_ = l.next_ = nullptr;
  }

 private:
  enum : int { kRunning = 0, kRecording = 1 };

  template <std::size_t N>
  static void copy_truncated(char (&dst)[N], std::string_view src) noexcept {
    const std::size_t n = std::min(src.size(), N - 1);
    if (n > 0) std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
  }

  std::atomic<int> state_{kRunning};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> reported_{false};
  char who_[kWhoCapacity] = {};
  char what_[kWhatCapacity] = {};
  std::int64_t iteration_ = -1;

  std::mutex listeners_mutex_;
  AbortListener* head_ = nullptr;
};

/// The process-wide stop every primitive uses unless given another one (tests give their own).
inline Abort& process_abort() noexcept {
  static Abort abort;
  return abort;
}

}  // namespace dfg
