/// \file
/// dfg::GpuCycles: a GPU worker's cycles with overlap, run ahead of its thread. The thread
/// enqueues cycle c + 1 while the GPU still runs cycle c: no cycle waits for the host on the way.
/// The end of each cycle is an event recorded on every stream of the GPU; in cycle c a stream
/// first waits, on the GPU, for the cycles of the other streams that last touched its slots (the
/// plan's stream orders, derived from the lags: dfgc's GpuCycles in plan.hpp):
///
///     dfg::GpuCycles cycles(run_, kPe_A_g0, probes_, {compute_, h2d_, d2h_},
///                           {{compute_, h2d_, 1}, {h2d_, compute_, 1}});
///     cycles.begin(c);   // host: the neighbours' c - 1 done, room in flight; GPU: the orders
///     ... enqueue cycle c's copies and kernels on the streams ...
///     cycles.end(c);     // records c's end on every stream; publishes the cycles done
///
/// The thread waits on the host only where it must: for its neighbours (the CPUs its copies
/// read and write, the GPUs it shares memory with: they see a cycle of this GPU as done when
/// the GPU has finished it, so --sync=neighbours keeps its meaning), for room (at most
/// `in_flight` cycles enqueued and not finished: the ring of end events), with --sync=barrier at
/// every cycle's end (the papers' baseline: each cycle finished before the barrier), and after
/// the last cycle. While it waits it publishes the cycles the GPU has finished (RunState::
/// end_cycle: the stats' cycle end, the neighbours' counter) and hands the probes' times over.
///
/// Guarantees: built on the worker's thread with its device selected (it creates the events: a
/// dfg::CudaError on failure); all calls belong to that thread. begin() and end() allocate
/// nothing; their waits poll (cudaEventQuery, acquire loads of the neighbours' counters),
/// spinning briefly, then yielding, and throw dfg::Aborted within one poll of a stop. A cycle is
/// published in order, once every stream has passed its end. CUDA errors throw dfg::CudaError.
///
/// Cost per cycle: one cudaEventRecord per stream, one cudaStreamWaitEvent per order whose
/// cycle the host has not yet seen passed (an order already met costs nothing), and the
/// queries of the end events not yet passed (each end event is queried until it has passed,
/// then never again; end() leaves the cycle it has just recorded to the next poll, since the GPU
/// has hardly begun it). A cycle is released to the CPU neighbours (RunState::release_cycle) once
/// every stream but the compute stream (listed first) has passed its end: on one host a CPU
/// touches no GPU memory, so it need not wait for the kernels. A GPU on one stream
/// (DFG_GPU_ONE_STREAM_BYTES, dfg::runs_on_one_stream) lists its copy streams as aliases of the
/// compute stream: no orders, one end event a cycle, and an event after the cycle's transfers
/// where a firing follows them, which releases the cycle.
///
/// A GPU with mapped tokens (dfg::Release::cycle: some of its colours are in mapped host memory,
/// dfg::kMapped, which its CPU neighbours' workers copy tokens into and out of) releases a cycle
/// only once it has finished, kernels included: a CPU then writes a slot only after the kernels
/// of the cycles that read it, and reads one only after the kernel that wrote it. The order of
/// memory: the end events follow the kernels on their streams, so cudaEventQuery() returning
/// cudaSuccess for cycle c's end means those kernels have completed and their writes to mapped
/// host memory are visible to the host (CUDA makes a completed kernel's writes visible to the
/// host once the host has observed its completion through an event or a synchronisation); the
/// thread observes it before its release stores of c + 1 (NeighbourSync), which the CPU's
/// acquire loads see before it touches the slots. The other way, a CPU writes a slot before its
/// release store of its cycle, and this thread enqueues the kernel that reads it only after its
/// acquire load has seen that cycle finished (begin(): RunState::may_begin): host writes made
/// before a launch is enqueued are visible to the kernel.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <thread>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/gpu_probes.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/detail/wait.hpp"

namespace dfg {

/// When a cycle is released to the CPU neighbours (RunState::release_cycle): once its copies have
/// finished (copies: the CPUs touch host memory only), or once the whole cycle has (cycle: the
/// CPUs copy tokens into and out of the GPU's mapped colours).
enum class Release { copies, cycle };

/// In cycle c, `stream` waits on the GPU for `after`'s cycle c - `cycles` (cycles >= 1).
struct StreamOrder {
  cudaStream_t stream;
  cudaStream_t after;
  int cycles;
};

template <class Run>
class GpuCycles {
 public:
  /// `streams`: every stream the worker enqueues on; `orders` name only those. A stream listed
  /// twice (an alias: dfg::Stream::alias) counts once, and an order within one stream is kept
  /// by the stream itself.
  GpuCycles(Run& run, int pe, GpuProbes& probes, std::initializer_list<cudaStream_t> streams,
            std::initializer_list<StreamOrder> orders, Release release = Release::copies,
            Abort& abort = process_abort())
      : run_(run), pe_(pe), probes_(probes), abort_(abort), whole_(release == Release::cycle) {
    int device = 0;
    DFG_CUDA_CHECK(cudaGetDevice(&device), "cudaGetDevice");
    for (cudaStream_t s : streams) {
      if (std::find(streams_.begin(), streams_.end(), s) == streams_.end()) streams_.push_back(s);
    }
    passed_.assign(streams_.size(), 0);
    for (const StreamOrder& o : orders) {
      if (o.stream == o.after) continue;
      orders_.push_back({index_of(o.stream), index_of(o.after), o.cycles});
      if (static_cast<std::size_t>(o.cycles) > in_flight_)
        in_flight_ = static_cast<std::size_t>(o.cycles);
    }
    ends_.reserve(in_flight_ * streams_.size());
    for (std::size_t i = 0; i < in_flight_ * streams_.size(); ++i) ends_.emplace_back(device);
    through_.assign(in_flight_, 0);
    if (streams_.size() == 1 && !run_.barrier_sync && !whole_) {
      copies_end_.reserve(in_flight_);
      for (std::size_t i = 0; i < in_flight_; ++i) copies_end_.emplace_back(device);
      copies_marked_.assign(in_flight_, false);
    }
  }
  GpuCycles(const GpuCycles&) = delete;
  GpuCycles& operator=(const GpuCycles&) = delete;

  /// Before cycle c's work: waits (host) until the neighbours have finished c - 1 and fewer than
  /// in_flight() cycles are unfinished, then makes each stream wait (GPU) for its orders.
  void begin(std::int64_t c) {
    if (run_.loads.on()) {
      // --rebalance: the wait for room is this GPU's own work; the wait for the neighbours after
      // it is the PE's idle time (dfg::Loads).
      poll_until([&] { return c - done_ < static_cast<std::int64_t>(in_flight_); });
      if (!run_.may_begin(pe_, c)) {
        const auto waiting = std::chrono::steady_clock::now();
        poll_until([&] { return run_.may_begin(pe_, c); });
        run_.loads.waited(pe_, std::chrono::steady_clock::now() - waiting);
      }
    }
    poll_until([&] {
      return c - done_ < static_cast<std::int64_t>(in_flight_) && run_.may_begin(pe_, c);
    });
    for (const Order& o : orders_) {
      const std::int64_t k = c - o.cycles;
      if (k < 0 || passed_[o.after] > k) continue;  // not begun, or already passed
      DFG_CUDA_CHECK(cudaStreamWaitEvent(streams_[o.stream], end_of(k, o.after), 0),
                     "stream wait for a cycle's end");
    }
    if (!copies_end_.empty()) copies_marked_[slot(c)] = false;
  }

  /// Before each firing (`transfer` false) and each transfer (true) of cycle c that runs
  /// (GpuItems): on one stream, a firing after transfers marks where the cycle's transfers end
  /// (an event), so that the CPU neighbours need not wait for the firings that follow
  /// (release()).
  void item(std::int64_t c, bool transfer) {
    if (copies_end_.empty()) return;
    if (transfer) {
      copies_pending_ = true;
    } else if (copies_pending_) {
      const std::size_t i = slot(c);
      DFG_CUDA_CHECK(cudaEventRecord(copies_end_[i].get(), streams_[0]), "record a cycle's copies");
      copies_marked_[i] = true;
      copies_pending_ = false;
    }
  }

  /// After cycle c's work: records its end on every stream and publishes what has finished; with
  /// --sync=barrier, and after the last cycle, waits until cycle c has finished.
  void end(std::int64_t c) { end(c, c); }
  /// After the work of cycles `first` .. `last`, each begun (a CUDA graph of several cycles,
  /// dfg::GpuItems): one end recorded on every stream stands for all of them, so they are
  /// published together once it has passed.
  void end(std::int64_t first, std::int64_t last) {
    for (std::size_t s = 0; s < streams_.size(); ++s)
      DFG_CUDA_CHECK(cudaEventRecord(end_of(last, s), streams_[s]), "record a cycle's end");
    for (std::int64_t k = first; k <= last; ++k) through_[slot(k)] = last;
    if (!copies_end_.empty()) {
      if (copies_pending_) copies_marked_[slot(last)] = false;
      copies_pending_ = false;
    }
    enqueued_ = last + 1;
    if (run_.barrier_sync || !run_.overlap || last + 1 >= run_.stream_end.stop()) {
      poll_until([&] { return done_ == enqueued_; });
    } else {
      publish(first);  // the cycles just recorded have hardly reached the GPU: the next poll
    }
  }

  /// After the loop: waits until every cycle enqueued has finished, and publishes them (a loop
  /// that a stream's end stopped after a cycle whose end() did not wait).
  void drain() {
    poll_until([&] { return done_ == enqueued_; });
  }

  /// Makes room for at least `cycles` cycles enqueued and not finished (a graph of several
  /// cycles needs two graphs' worth). Before the first cycle only; allocates events.
  void hold(std::size_t cycles) {
    if (cycles <= in_flight_) return;
    int device = 0;
    DFG_CUDA_CHECK(cudaGetDevice(&device), "cudaGetDevice");
    in_flight_ = cycles;
    ends_.clear();
    for (std::size_t i = 0; i < in_flight_ * streams_.size(); ++i) ends_.emplace_back(device);
    through_.assign(in_flight_, 0);
    if (!copies_end_.empty()) {
      copies_end_.clear();
      for (std::size_t i = 0; i < in_flight_; ++i) copies_end_.emplace_back(device);
      copies_marked_.assign(in_flight_, false);
    }
  }

  /// The most cycles enqueued and not finished.
  std::size_t in_flight() const noexcept { return in_flight_; }

 private:
  struct Order {
    std::size_t stream, after;
    int cycles;
  };

  std::size_t index_of(cudaStream_t s) const {
    for (std::size_t i = 0; i < streams_.size(); ++i)
      if (streams_[i] == s) return i;
    throw CudaError(cudaErrorInvalidResourceHandle,
                    "dfg::GpuCycles: a stream order names a stream not listed");
  }
  std::size_t slot(std::int64_t cycle) const noexcept {
    return static_cast<std::size_t>(cycle) % in_flight_;
  }
  cudaEvent_t end_of(std::int64_t cycle, std::size_t stream) const {
    return ends_[slot(cycle) * streams_.size() + stream].get();
  }

  /// Publishes, in order, every cycle before `until` (every enqueued one, or in end() those before
  /// the cycles just recorded) whose end every stream has passed. Each stream's end events are
  /// queried in order, each until it has passed, never again after; an end that stands for
  /// several cycles passes them all.
  void publish(std::int64_t until) {
    std::int64_t all = until;
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      std::int64_t& passed = passed_[s];
      while (passed < until) {
        const std::int64_t through = through_[slot(passed)];
        const cudaError_t e = cudaEventQuery(end_of(through, s));
        if (e == cudaErrorNotReady) break;
        DFG_CUDA_CHECK(e, "query a cycle's end");
        passed = through + 1;
      }
      all = std::min(all, passed);
    }
    release(all);
    while (done_ < all) {
      probes_.poll();
      run_.end_cycle(pe_, done_);
      ++done_;
    }
  }

  /// Releases to the CPU neighbours (RunState::release_cycle) every cycle whose copies have
  /// finished: the passed ends of every stream but the compute stream (the first), or on one
  /// stream the cycle's copies' end event (its end where it has none); with Release::cycle, every
  /// finished cycle. `all`: the cycles every stream has passed.
  void release(std::int64_t all) {
    std::int64_t copies = enqueued_;
    if (whole_) {
      copies = all;
    } else if (streams_.size() > 1) {
      for (std::size_t s = 1; s < streams_.size(); ++s) copies = std::min(copies, passed_[s]);
    } else if (!copies_end_.empty()) {
      copies = std::max(all, released_);
      while (copies < enqueued_) {
        const std::size_t i = slot(copies);
        if (!copies_marked_[i]) break;
        const cudaError_t e = cudaEventQuery(copies_end_[i].get());
        if (e == cudaErrorNotReady) break;
        DFG_CUDA_CHECK(e, "query a cycle's copies");
        ++copies;
      }
    } else {
      copies = all;
    }
    while (released_ < copies) run_.release_cycle(pe_, released_++);
  }

  /// Publishes finished cycles until `ready()`; spins for detail::kSpinFor, then yields.
  template <class Ready>
  void poll_until(Ready ready) {
    std::chrono::steady_clock::time_point spin_until{};
    for (int spin = 0;; ++spin) {
      publish(enqueued_);
      if (ready()) return;
      abort_.throw_if_stopped();
      if (spin < 64) {
        detail::cpu_relax();
        continue;
      }
      const auto now = std::chrono::steady_clock::now();
      if (spin_until == std::chrono::steady_clock::time_point{})
        spin_until = now + detail::kSpinFor;
      if (now < spin_until) {
        detail::cpu_relax();
      } else {
        std::this_thread::yield();
      }
    }
  }

  Run& run_;
  const int pe_;
  GpuProbes& probes_;
  Abort& abort_;
  const bool whole_;  ///< Release::cycle
  std::vector<cudaStream_t> streams_;
  std::vector<Order> orders_;
  std::size_t in_flight_ = 2;
  std::vector<Event> ends_;  ///< cycle k's end on stream s: ends_[k % in_flight_ * streams + s]
  /// Per slot: the cycle whose end stands for the cycle of that slot (itself, or the last cycle
  /// of its graph: end(first, last)).
  std::vector<std::int64_t> through_;
  std::vector<std::int64_t> passed_;  ///< per stream, the cycles whose end it has passed
  std::int64_t enqueued_ = 0;         ///< cycles whose end is recorded
  std::int64_t done_ = 0;             ///< cycles published
  std::int64_t released_ = 0;         ///< cycles released (release())
  /// On one stream, without --sync=barrier: the end of cycle k's copies, copies_end_[k %
  /// in_flight_], where copies_marked_ says a firing followed them.
  std::vector<Event> copies_end_;
  std::vector<bool> copies_marked_;
  bool copies_pending_ = false;  ///< copies enqueued in this cycle since the last mark
};

}  // namespace dfg
