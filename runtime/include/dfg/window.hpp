/// \file
/// dfg::WindowTable: the migration hook. Every firing and every transfer of a rank has an
/// iteration window [start, stop) (the "weights" of the task-migration paper): the worker that
/// owns it runs it in cycle k only when start <= k < stop. Another thread (the migration
/// controller) may reprogram any set of windows at run time, to take effect at a future cycle m;
/// every worker then uses the old windows for all k < m and the new ones for all k >= m, or, if
/// some worker had already begun m, the request is refused as a whole and nobody sees it.
///
///     dfg::WindowCursor win = table.cursor(kWorkerAg0);      // once per worker
///     for (std::int64_t k = 0; k < cycles; ++k) {
///       win.begin(k);                                         // fixes the windows of cycle k
///       if (win.active(kFireI1)) { ... }
///     }
///     win.finish();
///
/// Protocol. The table holds two plans (arrays of windows) and a descriptor word
/// desc_ = (m, deciding, next): cycles k >= m use plans_[next], cycles k < m the other plan.
/// Each worker w publishes the cycle it begins in begun_[w] (-1 before its first cycle) and sets
/// finished_[w] when it leaves its loop.
/// - Worker, begin(k): begun_[w].store(k) (seq_cst); then d = desc_.load() (seq_cst); while d is
///   `deciding` and k >= m, sleep on desc_; use plans_[k >= m ? next : !next].
/// - Controller, reprogram(m, changes), serialised by a mutex that workers never take:
///   1. busy unless the plan !next is free: every unfinished worker has begun_[w] >= the current
///      m (a worker's reads of a plan happen before it begins a later cycle or finishes; the
///      acquire loads here see that); too_late if m < the current m;
///   2. copy plans_[next] into plans_[!next] and apply the changes (nobody reads it);
///   3. desc_.store((m, deciding, !next)) (seq_cst);
///   4. if any begun_[w] >= m (seq_cst loads; finished workers included: they ran those
///      cycles with the old windows): restore the old desc_, notify, too_late;
///   5. else desc_.store((m, decided, !next)) (seq_cst), notify, ok.
/// prepare() and settle() split reprogram() between steps 4 and 5, so that several ranks can
/// each hold a change and then all make it, or all drop it (step 5 with the old descriptor).
/// Why it is consistent: the seq_cst stores to begun_[w] and desc_ and the loads of both are in
/// one total order. If step 4 saw every begun_[w] < m, each worker's store of a cycle >= m comes
/// after that load, hence its following load of desc_ comes after step 3 and sees `deciding` or
/// the final descriptor: it waits, then uses the new plan. If step 4 saw a worker at >= m, the
/// descriptor is restored; a worker that read desc_ before step 3 used the old plan, one that
/// read it after waited for the restore: all use the old plan. Workers at k < m read the same
/// plan (the old one) in every descriptor state, so they never wait.
///
/// Guarantees:
/// - Threads: cursor(w) / WindowCursor belong to worker w's thread; reprogram() and the
///   *_approx queries may be called from any thread; initial windows are set before the workers
///   start.
/// - Blocking: WindowCursor::begin() blocks only while a controller is deciding on a change for
///   a cycle <= k (a few loads); it throws dfg::Aborted on a stop. active() never blocks.
///   reprogram() takes the controller mutex and never waits for a worker: it returns busy while
///   the previous change has not been reached by every worker, and the caller retries.
/// - Allocation: both plans and the worker counters are allocated by the constructor;
///   reprogram() and the workers allocate nothing.
/// - Plans are plain memory: the protocol above guarantees that a plan is never written while a
///   worker may read it, which ThreadSanitizer checks in the stress test.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/detail/wait.hpp"

namespace dfg {

/// The iterations [start, stop) in which a firing or a transfer runs.
struct Window {
  static constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

  std::int64_t start = 0;
  std::int64_t stop = kForever;

  constexpr bool contains(std::int64_t k) const noexcept { return start <= k && k < stop; }
  friend constexpr bool operator==(const Window&, const Window&) = default;
};

/// One entry's new window in a reprogramming request.
struct WindowChange {
  std::size_t entry;
  Window window;
};

enum class Reprogram {
  ok,         ///< every worker uses the new windows from cycle m on
  too_late,   ///< some worker had already begun cycle m: nothing changed
  busy,       ///< the previous change has not yet been reached by every worker: retry later
  bad_entry,  ///< an entry index out of range, a window with start > stop, or m out of range
};

class WindowCursor;

class WindowTable final : private AbortListener {
 public:
  /// The largest cycle a change may target (cycles are packed into 62 bits of the descriptor).
  static constexpr std::int64_t kMaxCycle = (std::int64_t{1} << 61) - 1;

  /// `initial[i]` is entry i's window; `workers` threads will each take one cursor.
  WindowTable(std::span<const Window> initial, int workers, Abort& abort = process_abort())
      : entries_(initial.size()), workers_(workers), abort_(abort) {
    if (workers < 1) throw std::invalid_argument("dfg::WindowTable: workers must be >= 1");
    for (auto& p : plans_) p = std::make_unique<Window[]>(entries_);
    for (std::size_t i = 0; i < entries_; ++i) plans_[0][i] = initial[i];
    begun_ = std::make_unique<Counter[]>(static_cast<std::size_t>(workers));
    abort_.subscribe(*this);
  }
  ~WindowTable() { abort_.unsubscribe(*this); }

  WindowTable(const WindowTable&) = delete;
  WindowTable& operator=(const WindowTable&) = delete;

  std::size_t entries() const noexcept { return entries_; }
  int workers() const noexcept { return workers_; }

  /// Worker w's view; call once, from worker w's thread.
  WindowCursor cursor(int w) noexcept;

  /// Requests that, for every cycle k >= m, each changed entry's window be the given one.
  /// Any thread; never waits for a worker. See the protocol above.
  Reprogram reprogram(std::int64_t m, std::span<const WindowChange> changes) {
    const Reprogram r = prepare(m, changes);
    if (r == Reprogram::ok) settle(true);
    return r;
  }

  /// The first half of reprogram(): steps 1 to 4, leaving the change `deciding` (workers that
  /// begin a cycle >= m wait) until settle(). On ok the change is held: settle(true) makes it
  /// (step 5), settle(false) drops it; reprogram() and prepare() answer busy meanwhile. For a
  /// change several processes must agree on (the ranks of a program on several hosts): each
  /// prepares, and all settle the same way.
  Reprogram prepare(std::int64_t m, std::span<const WindowChange> changes) {
    if (m < 0 || m > kMaxCycle) return Reprogram::bad_entry;
    for (const WindowChange& c : changes) {
      if (c.entry >= entries_ || c.window.start > c.window.stop) return Reprogram::bad_entry;
    }
    std::lock_guard<std::mutex> lock(controller_mutex_);
    if (abort_.stopped()) return Reprogram::too_late;
    if (held_) return Reprogram::busy;
    const std::uint64_t old = desc_.load(std::memory_order_acquire);
    const std::int64_t switch_at = cycle_of(old);
    const unsigned next = plan_of(old);
    if (switch_at > 0) {  // with switch_at == 0, no cycle reads the other plan
      for (int w = 0; w < workers_; ++w) {
        if (begun_[w].finished.load(std::memory_order_acquire)) continue;
        if (begun_[w].value.load(std::memory_order_acquire) < switch_at) return Reprogram::busy;
      }
    }
    if (m < switch_at) return Reprogram::too_late;  // cycles before the last change are fixed
    const unsigned fresh = 1U - next;
    for (std::size_t i = 0; i < entries_; ++i) plans_[fresh][i] = plans_[next][i];
    for (const WindowChange& c : changes) plans_[fresh][c.entry] = c.window;

    desc_.store(pack(m, true, fresh), std::memory_order_seq_cst);
    for (int w = 0; w < workers_; ++w) {
      if (begun_[w].value.load(std::memory_order_seq_cst) >= m) {
        desc_.store(old, std::memory_order_seq_cst);
        desc_.notify_all();
        return Reprogram::too_late;
      }
    }
    held_ = true;
    held_old_ = old;
    held_new_ = pack(m, false, fresh);
    return Reprogram::ok;
  }

  /// Ends the change prepare() holds: made (`make`) or dropped. Does nothing when none is held.
  void settle(bool make) {
    std::lock_guard<std::mutex> lock(controller_mutex_);
    if (!held_) return;
    held_ = false;
    desc_.store(make ? held_new_ : held_old_, std::memory_order_seq_cst);
    desc_.notify_all();
  }

  /// Whether every worker left its loop (acquire: what it did before is visible).
  bool all_finished() const noexcept {
    for (int w = 0; w < workers_; ++w)
      if (!begun_[w].finished.load(std::memory_order_acquire)) return false;
    return true;
  }

  /// The cycle from which the last accepted change applies (0 before any); racy.
  std::int64_t switch_cycle_approx() const noexcept {
    return cycle_of(desc_.load(std::memory_order_relaxed));
  }
  /// The largest cycle some worker has begun (-1 before any); racy, for a controller choosing m.
  std::int64_t max_begun_approx() const noexcept {
    std::int64_t best = -1;
    for (int w = 0; w < workers_; ++w) {
      best = std::max(best, begun_[w].value.load(std::memory_order_relaxed));
    }
    return best;
  }

 private:
  friend class WindowCursor;

  struct alignas(64) Counter {
    std::atomic<std::int64_t> value{-1};  // the last cycle begun
    std::atomic<bool> finished{false};    // no more cycles: reads no plan any more
  };

  // desc_ = (m << 2) | (deciding << 1) | next
  static constexpr std::uint64_t pack(std::int64_t m, bool deciding, unsigned next) noexcept {
    return (static_cast<std::uint64_t>(m) << 2) | (deciding ? 2U : 0U) | next;
  }
  static constexpr std::int64_t cycle_of(std::uint64_t d) noexcept {
    return static_cast<std::int64_t>(d >> 2);
  }
  static constexpr bool deciding(std::uint64_t d) noexcept { return (d & 2U) != 0; }
  static constexpr unsigned plan_of(std::uint64_t d) noexcept {
    return static_cast<unsigned>(d & 1U);
  }
  static constexpr std::uint64_t kPoisonDesc = ~std::uint64_t{0};

  /// Worker w begins cycle k: returns the plan that holds k's windows.
  const Window* begin(int w, std::int64_t k) {
    begun_[w].value.store(k, std::memory_order_seq_cst);
    for (;;) {
      const std::uint64_t d = desc_.load(std::memory_order_seq_cst);
      if (abort_.stopped()) throw Aborted();
      const bool new_plan = k >= cycle_of(d);
      if (!deciding(d) || !new_plan) return plans_[new_plan ? plan_of(d) : 1U - plan_of(d)].get();
      desc_.wait(d, std::memory_order_seq_cst);
    }
  }

  void finish(int w) noexcept { begun_[w].finished.store(true, std::memory_order_release); }

  void on_abort() noexcept override {
    desc_.store(kPoisonDesc, std::memory_order_release);
    desc_.notify_all();
  }

  const std::size_t entries_;
  const int workers_;
  Abort& abort_;
  std::unique_ptr<Window[]> plans_[2];
  std::unique_ptr<Counter[]> begun_;
  alignas(64) std::atomic<std::uint64_t> desc_{0};
  std::mutex controller_mutex_;
  bool held_ = false;                          ///< prepare() holds a change (controller_mutex_)
  std::uint64_t held_old_ = 0, held_new_ = 0;  ///< its descriptors before and after
};

/// One worker's view of the table: begin(k) once per cycle, then active(entry).
class WindowCursor {
 public:
  /// Fixes the windows of cycle k (k increasing from call to call). Throws dfg::Aborted.
  void begin(std::int64_t k) {
    plan_ = table_->begin(worker_, k);
    cycle_ = k;
  }
  /// Whether `entry` runs in the current cycle. Never blocks.
  bool active(std::size_t entry) const noexcept {
    assert(plan_ != nullptr && entry < table_->entries_);
    return plan_[entry].contains(cycle_);
  }
  /// The window of `entry` for the current cycle.
  Window window(std::size_t entry) const noexcept { return plan_[entry]; }
  std::int64_t cycle() const noexcept { return cycle_; }
  /// The worker leaves its loop: it no longer holds a plan, and no change waits for it.
  void finish() noexcept {
    plan_ = nullptr;
    table_->finish(worker_);
  }

 private:
  friend class WindowTable;
  WindowCursor(WindowTable& t, int w) noexcept : table_(&t), worker_(w) {}

  WindowTable* table_;
  int worker_;
  const Window* plan_ = nullptr;
  std::int64_t cycle_ = -1;
};

inline WindowCursor WindowTable::cursor(int w) noexcept {
  assert(w >= 0 && w < workers_);
  return WindowCursor(*this, w);
}

}  // namespace dfg
