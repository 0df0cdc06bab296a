/// \file
/// dfg::Fifo<T>: a lock-free single-producer single-consumer ring of trivially copyable tokens,
/// the channel between two dynamic actors on one host. Firing rules ask how many tokens are there
/// (`available`, `peek`) and how much room is left (`room`); an action that fires on many tokens
/// reserves a batch, writes it (from several threads if it likes, each its own slots), commits it.
///
///     producer:  auto out = fifo.reserve(n);           // up to n free slots, maybe fewer
///                for (i < out.size()) out[i] = ...;    // or out.first()/out.second() spans
///                fifo.commit(out.size());
///                ... fifo.close();                     // end of stream, after the last commit
///     consumer:  auto in = fifo.peek(n);               // up to n tokens, oldest first
///                for (i < in.size()) use(in[i]);
///                fifo.release(in.size());              // frees the slots
///                if (fifo.drained()) stop;             // closed and empty
///
/// Positions are 64-bit counters that only grow (written_, read_); slot = position & (capacity
/// - 1). The capacity is rounded up to a power of two (capacity() says the value), so a full
/// ring is written - read == capacity and every slot is usable. A batch may wrap: RingSpan gives
/// it as two contiguous spans (first, second) and by index.
///
/// Guarantees:
/// - Threads: one producer thread calls reserve, commit, try_push, push_some, close and room; one
///   consumer thread calls peek, release, try_pop, pop_some, available and drained. Either may
///   be a different thread over time if the hand-over is itself synchronised. capacity() and
///   size_approx() from any thread.
/// - Ordering: commit() is a release store of written_; the consumer observes it with an acquire
///   load (peek, available, try_pop, pop_some), so the tokens written before a commit are visible
///   to the consumer that sees the commit. release() is a release store of read_; the producer
///   observes it with an acquire load (reserve, room, try_push, push_some), so the consumer's
///   reads of a slot happen-before the producer's next write of it. close() is a release store
///   of closed_ after the last commit; drained() loads closed_ (acquire) before written_, so it
///   is true only once every committed token has been released.
/// - Progress: wait-free; nothing blocks. A full or empty ring gives a short or empty batch; the
///   caller decides whether to spin, yield or sleep.
/// - Allocation: the constructor only (the slots, 64-byte aligned; none over the caller's
///   slots); no call after it allocates.
/// - Errors: only the constructor throws (std::invalid_argument for a capacity of 0 or above
///   2^40). commit(k) / release(k) with k larger than the batch last reserved / peeked, and a
///   commit after close(), are precondition violations and not checked.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "dfg/detail/ring_span.hpp"

namespace dfg {

template <class T>
class Fifo {
  static_assert(std::is_trivially_copyable_v<T>, "dfg::Fifo: tokens must be trivially copyable");

 public:
  /// A ring of at least `min_capacity` tokens (rounded up to a power of two).
  explicit Fifo(std::size_t min_capacity) {
    if (min_capacity == 0) throw std::invalid_argument("dfg::Fifo: capacity must be >= 1");
    if (min_capacity > (std::size_t{1} << 40))
      throw std::invalid_argument("dfg::Fifo: capacity too large");
    capacity_ = std::bit_ceil(min_capacity);
    slots_.reset(
        static_cast<T*>(::operator new[](capacity_ * sizeof(T), std::align_val_t{kAlign})));
  }

  /// A ring of at least `min_capacity` tokens that holds `initial` tokens of `value` before the
  /// stream (an edge's `delay`); `initial` at most `min_capacity`.
  Fifo(std::size_t min_capacity, std::size_t initial, const T& value) : Fifo(min_capacity) {
    prime(initial, value);
  }

  /// A ring over `capacity` slots at `slots`, which the caller owns and keeps alive; `capacity`
  /// a power of two. dfg::MappedRing (dfg/cuda/mapped_ring.hpp) places such a Fifo and its slots
  /// in pinned host memory that a GPU maps, whose kernels use the other end.
  Fifo(T* slots, std::size_t capacity) : slots_(slots, Free{false}), capacity_(capacity) {
    if (capacity == 0 || !std::has_single_bit(capacity))
      throw std::invalid_argument("dfg::Fifo: capacity must be a power of two");
  }

  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;

  std::size_t capacity() const noexcept { return capacity_; }

  /// Before either end runs: `n` tokens of `value` into the empty ring, as if pushed.
  void prime(std::size_t n, const T& value) {
    if (n > room()) throw std::invalid_argument("dfg::Fifo: more initial tokens than room");
    RingSpan<T> slots = reserve(n);
    for (std::size_t i = 0; i < n; ++i) slots[i] = value;
    commit(n);
  }

  /// Tokens in the ring at some moment during the call; racy, for reports.
  std::size_t size_approx() const noexcept {
    const std::uint64_t r = read_.load(std::memory_order_relaxed);
    const std::uint64_t w = written_.load(std::memory_order_relaxed);
    return w >= r ? static_cast<std::size_t>(w - r) : 0;
  }

  // --- producer ---

  /// Free slots now (at least this many stay free until the producer writes).
  std::size_t room() noexcept {
    read_cache_ = read_.load(std::memory_order_acquire);
    return capacity_ - static_cast<std::size_t>(written_local_ - read_cache_);
  }

  /// Up to `n` free slots, in order, starting at the next write position. Nothing is visible to
  /// the consumer until commit().
  RingSpan<T> reserve(std::size_t n) noexcept {
    std::size_t free = capacity_ - static_cast<std::size_t>(written_local_ - read_cache_);
    if (free < n) free = room();
    return RingSpan<T>(slots_.get(), capacity_ - 1, written_local_, n < free ? n : free);
  }

  /// Publishes the first `k` slots of the last reserve() (release).
  void commit(std::size_t k) noexcept {
    written_local_ += k;
    written_.store(written_local_, std::memory_order_release);
  }

  /// Copies up to `n` tokens from `src`; returns how many went in.
  std::size_t push_some(const T* src, std::size_t n) noexcept {
    RingSpan<T> out = reserve(n);
    out.copy_from(src);
    commit(out.size());
    return out.size();
  }

  bool try_push(const T& token) noexcept { return push_some(&token, 1) == 1; }

  /// End of stream: no commit follows. The consumer sees drained() once it released everything.
  void close() noexcept { closed_.store(true, std::memory_order_release); }

  // --- consumer ---

  /// Tokens committed and not yet released.
  std::size_t available() noexcept {
    written_cache_ = written_.load(std::memory_order_acquire);
    return static_cast<std::size_t>(written_cache_ - read_local_);
  }

  /// Up to `n` of the oldest tokens, without removing them.
  RingSpan<const T> peek(std::size_t n) noexcept {
    std::size_t have = static_cast<std::size_t>(written_cache_ - read_local_);
    if (have < n) have = available();
    return RingSpan<const T>(slots_.get(), capacity_ - 1, read_local_, n < have ? n : have);
  }

  /// Frees the first `k` tokens of the last peek() (release).
  void release(std::size_t k) noexcept {
    read_local_ += k;
    read_.store(read_local_, std::memory_order_release);
  }

  /// Copies up to `n` tokens to `dst` and releases them; returns how many.
  std::size_t pop_some(T* dst, std::size_t n) noexcept {
    RingSpan<const T> in = peek(n);
    in.copy_to(dst);
    release(in.size());
    return in.size();
  }

  bool try_pop(T& token) noexcept { return pop_some(&token, 1) == 1; }

  /// True once the producer closed the ring and every token it committed was released.
  bool drained() noexcept {
    if (!closed_.load(std::memory_order_acquire)) return false;
    return available() == 0;
  }
  /// The shared positions, for the end of a ring that a GPU kernel holds (dfg::MappedRing): each
  /// a lock-free std::atomic<std::uint64_t> with the layout of a std::uint64_t, which the kernel
  /// loads with acquire and stores with release at system scope.
  std::uint64_t* written_address() noexcept { return reinterpret_cast<std::uint64_t*>(&written_); }
  std::uint64_t* read_address() noexcept { return reinterpret_cast<std::uint64_t*>(&read_); }
  T* slots() noexcept { return slots_.get(); }

 private:
  static constexpr std::size_t kAlign = 64;
  struct Free {
    bool owned = true;  ///< false: slots the caller owns
    void operator()(T* p) const noexcept {
      if (owned) ::operator delete[](p, std::align_val_t{kAlign});
    }
  };

  std::unique_ptr<T, Free> slots_;
  std::size_t capacity_ = 0;
  // Producer-owned line: its position and its last view of read_.
  alignas(64) std::uint64_t written_local_ = 0;
  std::uint64_t read_cache_ = 0;
  // Consumer-owned line.
  alignas(64) std::uint64_t read_local_ = 0;
  std::uint64_t written_cache_ = 0;
  // Shared counters, one line each.
  alignas(64) std::atomic<std::uint64_t> written_{0};
  alignas(64) std::atomic<std::uint64_t> read_{0};
  alignas(64) std::atomic<bool> closed_{false};
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                sizeof(std::atomic<std::uint64_t>) == sizeof(std::uint64_t));
};

}  // namespace dfg
