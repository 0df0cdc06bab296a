/// \file
/// dfg::SlotRing: the barrier-free synchronisation of one buffer node with `depth` slots (1 for a
/// single buffer, 2 for a ping-pong buffer, more for a delay line) between its one writer and
/// its R readers (a buffer broadcast to several consumers or transfers).
///
///     writer of iteration k:  ring.wait_writable(k);  write slot ring.slot(k);  ring.publish(k);
///     reader r of k:          ring.wait_readable(r, k);  read slot ring.slot(k);  ring.release(r, k);
///
/// The writer of k waits until every reader has released k - depth (the iteration that last used
/// slot k % depth); a reader of k waits until k is published. The ring holds only counters: the
/// slots themselves are the buffer node's storage, indexed by slot(k).
///
/// Guarantees:
/// - Threads: wait_writable() and publish() are called by the one writer thread; wait_readable(r)
///   and release(r) by the one thread of reader r. Several readers may share a thread.
/// - Counters: published_ (the last published iteration) and released_[r] (the last iteration
///   reader r released), std::atomic<int64_t>, each on its own 64-byte line; both start at -1 and
///   never decrease. publish/release are release stores; the waits are acquire loads. Hence the
///   writer's writes to slot k happen-before reader reads of slot k, and every reader's reads of
///   slot k happen-before the writer's writes of iteration k + depth to the same slot.
/// - Iterations need not be consecutive: publish(k) means "everything up to k is published";
///   release(r, k) means "reader r is done with everything up to k". A reader switched off for a
///   while (its window inactive) calls release(r, k) for the iterations it skips, so that the
///   writer never waits on it.
/// - Blocking: the two waits spin briefly, then sleep in std::atomic::wait; they throw
///   dfg::Aborted promptly once the ring's Abort is raised (the ring subscribes to it and, on a
///   stop, stores a poison value into every counter and notifies). publish, release, slot and the
///   *_approx queries never block and are noexcept.
/// - Allocation: the reader counters are allocated by the constructor; nothing afterwards.
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "dfg/abort.hpp"
#include "dfg/detail/wait.hpp"

namespace dfg {

class SlotRing final : private AbortListener {
 public:
  /// `depth` >= 1 slots, `readers` >= 1 readers. Throws std::invalid_argument otherwise.
  SlotRing(int depth, int readers, Abort& abort = process_abort())
      : depth_(depth), readers_(readers), abort_(abort) {
    if (depth < 1) throw std::invalid_argument("dfg::SlotRing: depth must be >= 1");
    if (readers < 1) throw std::invalid_argument("dfg::SlotRing: readers must be >= 1");
    released_ = std::make_unique<Counter[]>(static_cast<std::size_t>(readers));
    abort_.subscribe(*this);
  }
  ~SlotRing() { abort_.unsubscribe(*this); }

  SlotRing(const SlotRing&) = delete;
  SlotRing& operator=(const SlotRing&) = delete;

  int depth() const noexcept { return depth_; }
  int readers() const noexcept { return readers_; }

  /// The slot that iteration k uses: k % depth.
  std::size_t slot(std::int64_t k) const noexcept {
    assert(k >= 0);
    return static_cast<std::size_t>(k % depth_);
  }

  // ---- writer ----

  /// Blocks until every reader has released iteration k - depth. Throws dfg::Aborted on a stop.
  void wait_writable(std::int64_t k) const {
    const std::int64_t needed = k - depth_;
    for (int r = 0; r < readers_; ++r) {
      detail::wait_until(released_[r].value, abort_, [needed](std::int64_t v) { return v >= needed; });
    }
  }

  /// Makes iteration k (and everything before it) visible to the readers. Release store.
  void publish(std::int64_t k) noexcept {
    assert(published_.value.load(std::memory_order_relaxed) < k ||
           published_.value.load(std::memory_order_relaxed) == detail::kPoison);
    published_.value.store(k, std::memory_order_release);
    published_.value.notify_all();
  }

  // ---- reader r ----

  /// Blocks until iteration k is published. Throws dfg::Aborted on a stop.
  void wait_readable(int r, std::int64_t k) const {
    assert(r >= 0 && r < readers_);
    static_cast<void>(r);
    detail::wait_until(published_.value, abort_, [k](std::int64_t v) { return v >= k; });
  }

  /// Reader r is done with iteration k (and everything before it). Release store.
  void release(int r, std::int64_t k) noexcept {
    assert(r >= 0 && r < readers_);
    assert(released_[r].value.load(std::memory_order_relaxed) <= k ||
           released_[r].value.load(std::memory_order_relaxed) == detail::kPoison);
    released_[r].value.store(k, std::memory_order_release);
    released_[r].value.notify_all();
  }

  // ---- racy queries, for tracing and tests ----

  std::int64_t published_approx() const noexcept {
    return published_.value.load(std::memory_order_relaxed);
  }
  std::int64_t released_approx(int r) const noexcept {
    return released_[r].value.load(std::memory_order_relaxed);
  }

 private:
  struct alignas(64) Counter {
    std::atomic<std::int64_t> value{-1};
  };

  void on_abort() noexcept override {
    published_.value.store(detail::kPoison, std::memory_order_release);
    published_.value.notify_all();
    for (int r = 0; r < readers_; ++r) {
      released_[r].value.store(detail::kPoison, std::memory_order_release);
      released_[r].value.notify_all();
    }
  }

  const int depth_;
  const int readers_;
  Abort& abort_;
  Counter published_;
  std::unique_ptr<Counter[]> released_;
};

}  // namespace dfg
