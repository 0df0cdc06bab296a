/// \file
/// dfg::StreamEnd: the end of a stream that a node decides while the run goes on. A node whose
/// actor says `ends stream;` may call ctx.end_stream() (this iteration is the last) or
/// ctx.end_stream_before() (the one before was); the run then fires no entry past that cycle,
/// drains the pipeline and ends as if --iterations had said so.
///
///     dfg::StreamEnd end(iterations, cycles);  // cycles: iterations + the pipeline's latency
///     end.request(j, j, "node r (Reader) @ A.c0", 41);   // cycle j is the last, asked in j
///     if (j_entry > end.last()) skip;                    // every item, every cycle
///     for (c = 0; c < end.stop(); ++c) ...               // every worker's loop
///
/// Why the items downstream of the ending node are exact: node n fires iteration j in cycle
/// first_cycle(n) + j only after its producers' PEs have finished the cycles that made its
/// inputs (NeighbourSync, or the barrier), which, followed back to the ending node, come after
/// that node's firing of the cycle that asked for the end: the request happens-before every
/// downstream firing of a later iteration, so each of them reads the new end. A node that is not
/// downstream of the ending node may fire a few iterations past the end (sema requires every
/// sink to be downstream); what those firings make is never consumed.
///
/// The stop (the cycles the loops run) is the requesting firing's cycle of iterations plus one plus
/// the pipeline's latency, so at least the worker's cycle of the request plus one: the cycle a PE
/// is in always completes. With --sync=barrier or without overlap, every PE
/// decides at its loop's top after the barrier of the cycle before, and a request made in cycle c
/// stops at c + 1 or later, so all PEs stop at the same cycle. With --sync=neighbours a PE that
/// stops leaves (NeighbourSync::leave): a neighbour that began a cycle past the stop before it
/// saw the end never waits for it.
///
/// Guarantees: request() may be called from any worker thread, any number of times (the smallest
/// end wins); last() and stop() are lock-free loads; who() and asked_in() are for after the
/// workers joined.
/// Allocation: none after construction but the request's label (a string copy, once per lower
/// end).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>

namespace dfg {

class StreamEnd {
 public:
  /// A run of `iterations` cycles of iterations, `cycles` cycles in all (iterations plus the
  /// pipeline's latency, RunState::cycles).
  StreamEnd(std::int64_t iterations, std::int64_t cycles)
      : iterations_(iterations),
        extra_(cycles - iterations),
        last_(iterations - 1),
        stop_(cycles) {}
  StreamEnd(const StreamEnd&) = delete;
  StreamEnd& operator=(const StreamEnd&) = delete;

  /// The last cycle of iterations every entry runs (iterations - 1 until a node ends the stream).
  std::int64_t last() const noexcept { return last_.load(std::memory_order_relaxed); }
  /// The cycles the workers' loops run.
  std::int64_t stop() const noexcept { return stop_.load(std::memory_order_relaxed); }
  /// Whether a node ended the stream before --iterations did.
  bool ended() const noexcept { return last() < iterations_ - 1; }

  /// Cycle `last` of iterations is the last (-1: none runs), as `who` asked in its firing of
  /// cycle `asked` (>= last), naming iteration `iteration` the last. Keeps the smallest end
  /// asked; the loops stop after cycle asked + the pipeline's latency, so that the worker's cycle
  /// of the request (at most that latency after `asked`) completes.
  void request(std::int64_t last, std::int64_t asked, const char* who, std::int64_t iteration) {
    last = std::max<std::int64_t>(last, -1);
    if (last >= this->last()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (last < asked_last_) {
        asked_last_ = last;
        who_ = who;
        iteration_ = iteration;
      }
    }
    lower(last_, last);
    lower(stop_, asked + 1 + extra_);
  }

  /// After the workers joined: which node ended the stream, in which iteration.
  std::string who() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return who_;
  }
  std::int64_t asked_in() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return iteration_;
  }

 private:
  /// a = min(a, v), release: a worker that reads the new end (relaxed, after a synchronisation
  /// with the requester) or the lock's readers see the label stored before.
  static void lower(std::atomic<std::int64_t>& a, std::int64_t v) noexcept {
    std::int64_t cur = a.load(std::memory_order_relaxed);
    while (v < cur && !a.compare_exchange_weak(cur, v, std::memory_order_release)) {
    }
  }

  const std::int64_t iterations_;
  const std::int64_t extra_;
  std::atomic<std::int64_t> last_;
  std::atomic<std::int64_t> stop_;
  mutable std::mutex mutex_;
  std::int64_t asked_last_ = std::numeric_limits<std::int64_t>::max();
  std::string who_;
  std::int64_t iteration_ = -1;
};

}  // namespace dfg
