/// \file
/// dfg::NeighbourSync: the cycle synchronisation of `--sync=neighbours` (the default with
/// overlap), beyond the papers' global barrier. Each processing element (PE) publishes how many
/// cycles it has finished; a PE begins cycle c once every one of its NEIGHBOURS (the PEs it
/// shares memory with: the two ends of a transfer it launches, the launchers of transfers that
/// touch its buffers) has finished cycle c - 1. No PE waits for a PE it shares nothing with.
///
///     sync.wait_to_begin(pe, c);     // neighbours are done with c - 1
///     ... launch transfers, fire, wait for own streams ...
///     sync.finish(pe, c);            // publish c + 1 cycles done
///
/// Why it keeps the BSP semantics for shared memory: while PE a runs cycle c, every neighbour b
/// has finished c - 1 (a waited for it) and has not begun c + 1 (b waits for a's c). So what b
/// did in any cycle before c happens-before what a does in c, and what a does in c happens-before
/// what b does in any cycle after c: exactly the order a global barrier per cycle gives to the
/// accesses of a and b. PEs that are not neighbours touch no common memory, so their relative
/// progress does not matter (it stays bounded by the path between them).
///
/// Host memory only: a PE marked host_only() (a CPU that touches no GPU's memory) shares with a
/// GPU neighbour only what the GPU's copies touch, so it waits for the GPU's release() of c - 1
/// (its copies of c - 1 have finished; its kernels may still run) rather than its finish(). Every
/// other PE, and every neighbour that never releases early, is waited for as above: finish(p, c)
/// releases c too.
///
/// Guarantees:
/// - Threads: PE p's thread alone calls wait_to_begin(p, c) (or polls ready_to_begin(p, c)) and
///   finish(p, c), with c increasing by one from 0; done_approx() from any thread.
/// - Ordering: finish() and release() are release stores of c + 1 to p's counters;
///   wait_to_begin() waits with acquire loads (dfg::detail::wait_until), so everything a neighbour
///   did up to finishing c - 1 happens-before everything p does after the wait returns.
/// - Blocking: wait_to_begin() spins briefly, then sleeps in std::atomic::wait; it throws
///   dfg::Aborted promptly once the Abort is raised (the listener poisons every counter and
///   wakes the sleepers), also when the stop was raised before the call. finish() never blocks.
/// - Allocation: the constructor only; waits and finishes allocate nothing. host_only() is
///   set-up, before the threads start.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/detail/wait.hpp"

namespace dfg {

class NeighbourSync final : private AbortListener {
 public:
  /// `neighbours[p]`: the PEs p shares memory with (symmetric; p itself is ignored).
  explicit NeighbourSync(std::vector<std::vector<int>> neighbours, Abort& abort = process_abort())
      : neighbours_(std::move(neighbours)), abort_(abort) {
    const int n = static_cast<int>(neighbours_.size());
    if (n < 1) throw std::invalid_argument("dfg::NeighbourSync: needs at least one PE");
    for (int p = 0; p < n; ++p) {
      for (const int q : neighbours_[static_cast<std::size_t>(p)]) {
        if (q < 0 || q >= n)
          throw std::invalid_argument("dfg::NeighbourSync: neighbour out of range");
      }
    }
    done_ = std::make_unique<Counter[]>(static_cast<std::size_t>(n));
    host_only_.assign(static_cast<std::size_t>(n), false);
    abort_.subscribe(*this);
  }
  ~NeighbourSync() { abort_.unsubscribe(*this); }

  NeighbourSync(const NeighbourSync&) = delete;
  NeighbourSync& operator=(const NeighbourSync&) = delete;

  int pes() const noexcept { return static_cast<int>(neighbours_.size()); }

  /// `pe` touches host memory only: it waits for its neighbours' release(), not their finish().
  /// Set-up only.
  void host_only(int pe) {
    host_only_.at(static_cast<std::size_t>(pe)) = true;
    any_host_only_ = true;
  }

  /// Blocks until every neighbour of `pe` has finished cycle c - 1. Throws dfg::Aborted.
  void wait_to_begin(int pe, std::int64_t c) {
    abort_.throw_if_stopped();
    for (const int q : neighbours_[static_cast<std::size_t>(pe)]) {
      if (q == pe) continue;
      detail::wait_until(counter(pe, q), abort_, [c](std::int64_t done) { return done >= c; });
    }
  }

  /// Whether every neighbour of `pe` has finished cycle c - 1: wait_to_begin() would not block.
  /// Never blocks (acquire loads: true orders as wait_to_begin() returning); throws
  /// dfg::Aborted once the stop is raised. For a thread that has other work while it waits
  /// (a GPU worker publishing its own cycles' ends).
  bool ready_to_begin(int pe, std::int64_t c) const {
    for (const int q : neighbours_[static_cast<std::size_t>(pe)]) {
      if (q == pe) continue;
      const std::int64_t done = counter(pe, q).load(std::memory_order_acquire);
      abort_.throw_if_stopped();
      if (done < c) return false;
    }
    abort_.throw_if_stopped();
    return true;
  }

  /// `pe` has finished cycle c: its neighbours may begin c + 1.
  void finish(int pe, std::int64_t c) noexcept {
    release(pe, c);
    std::atomic<std::int64_t>& done = done_[pe].value;
    done.store(c + 1, std::memory_order_release);
    done.notify_all();
  }
  /// `pe` (a GPU) has finished what of cycle c touches host memory: its host_only() neighbours
  /// may begin c + 1. A cycle already released or finished is left as it is.
  void release(int pe, std::int64_t c) noexcept {
    std::atomic<std::int64_t>& host = done_[pe].host;
    if (host.load(std::memory_order_relaxed) >= c + 1) return;  // only pe's thread stores it
    host.store(c + 1, std::memory_order_release);
    if (any_host_only_) host.notify_all();  // else nobody waits on it
  }

  /// `pe` runs no more cycles (it left its loop): whoever waits for it goes on. Its neighbours
  /// see everything it did before (release stores).
  void leave(int pe) noexcept {
    for (std::atomic<std::int64_t>* a : {&done_[pe].value, &done_[pe].host}) {
      a->store(kLeft, std::memory_order_release);
      a->notify_all();
    }
  }

  /// The cycles `pe` has finished; racy.
  std::int64_t done_approx(int pe) const noexcept {
    return done_[pe].value.load(std::memory_order_relaxed);
  }

 private:
  /// What leave() stores: more cycles than any run has (below detail::kPoison).
  static constexpr std::int64_t kLeft = detail::kPoison - 1;

  struct Counter {
    alignas(64) std::atomic<std::int64_t> value{0};  ///< cycles finished
    alignas(64) std::atomic<std::int64_t> host{0};   ///< cycles released to host_only() PEs
  };
  /// The counter of neighbour q that `pe` waits on.
  const std::atomic<std::int64_t>& counter(int pe, int q) const noexcept {
    return host_only_[static_cast<std::size_t>(pe)] ? done_[q].host : done_[q].value;
  }

  void on_abort() noexcept override {
    for (int p = 0; p < pes(); ++p) {
      for (std::atomic<std::int64_t>* a : {&done_[p].value, &done_[p].host}) {
        a->store(detail::kPoison, std::memory_order_release);
        a->notify_all();
      }
    }
  }

  std::vector<std::vector<int>> neighbours_;
  Abort& abort_;
  std::unique_ptr<Counter[]> done_;
  std::vector<bool> host_only_;
  bool any_host_only_ = false;
};

}  // namespace dfg
