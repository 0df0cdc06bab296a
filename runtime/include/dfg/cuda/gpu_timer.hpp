/// \file
/// dfg::GpuTimer: the times of GPU work (a firing, a copy) for --stats and --trace, without
/// blocking the host. start(stream) and stop(stream, iteration) record a pair of timing events
/// around the work; poll() later hands the completed pairs over, converted to the host's steady
/// clock so that they sit on the same time axis as the CPU events of dfg::Tracer.
///
///     timer.start(stream);  launch_inc(...);  timer.stop(stream, k);
///     timer.poll([&](std::int64_t k, double begin_us, double dur_us) {
///       tracer.record_us(track, "i1 (Inc)", "fire", begin_us, dur_us, k);
///       stats.add_time(entry, dur_us * 1e-6);
///     });
///
/// Guarantees: one thread (the PE's) uses a timer. The event pairs live in a ring of `capacity`
/// allocated by the constructor; when the ring is full, start() first waits for the oldest pair
/// and keeps its time for the next poll (if the ring fills again before that poll, the kept time
/// is dropped and counted in dropped()); poll once a cycle and size the ring to the pipeline
/// depth plus a margin. poll() never
/// blocks (cudaEventQuery). The time origin: the constructor records a reference event and waits
/// for it once (set-up only), pairing it with the host clock; times are then accurate to the
/// constructor's synchronisation latency (microseconds).
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"

namespace dfg {

class GpuTimer {
 public:
  using Clock = std::chrono::steady_clock;

  /// `epoch`: the host time that 0 us stands for (dfg::Tracer::epoch()).
  GpuTimer(int device, cudaStream_t stream, std::size_t capacity, Clock::time_point epoch)
      : capacity_(capacity == 0 ? 1 : capacity), reference_(device, Event::Timing::on) {
    pairs_ = std::make_unique<Pair[]>(capacity_);
    for (std::size_t i = 0; i < capacity_; ++i) {
      pairs_[i].begin = Event(device, Event::Timing::on);
      pairs_[i].end = Event(device, Event::Timing::on);
    }
    reference_.record(stream);
    reference_.synchronize();
    reference_us_ = std::chrono::duration<double, std::micro>(Clock::now() - epoch).count();
  }

  /// Marks the start of the timed work on `stream`.
  void start(cudaStream_t stream) {
    if (used_ == capacity_) drain_oldest();
    pairs_[(first_ + used_) % capacity_].begin.record(stream);
  }
  /// Marks its end; `iteration` is reported with it.
  void stop(cudaStream_t stream, std::int64_t iteration) {
    Pair& p = pairs_[(first_ + used_) % capacity_];
    p.end.record(stream);
    p.iteration = iteration;
    ++used_;
  }

  /// Times lost because the ring filled up twice between two polls.
  std::uint64_t dropped() const noexcept { return dropped_; }

  /// Calls `f(iteration, begin_us, dur_us)` for every completed pair, oldest first.
  template <class F>
  void poll(F&& f) {
    if (drained_) {  // the pair drain_oldest() waited for
      drained_ = false;
      f(drained_times_.iteration, drained_times_.begin_us, drained_times_.dur_us);
    }
    while (used_ > 0 && pairs_[first_].end.query()) {
      const Done d = times(pairs_[first_]);
      first_ = (first_ + 1) % capacity_;
      --used_;
      f(d.iteration, d.begin_us, d.dur_us);
    }
  }

 private:
  struct Pair {
    Event begin;
    Event end;
    std::int64_t iteration = 0;
  };
  struct Done {
    std::int64_t iteration = 0;
    double begin_us = 0;
    double dur_us = 0;
  };

  Done times(const Pair& p) const {
    const double begin_ms = elapsed_ms(reference_, p.begin);
    const double end_ms = elapsed_ms(reference_, p.end);
    return {p.iteration, reference_us_ + begin_ms * 1e3, (end_ms - begin_ms) * 1e3};
  }

  /// The ring is full: wait for the oldest pair and keep its time for the next poll().
  void drain_oldest() {
    pairs_[first_].end.synchronize();
    if (drained_) ++dropped_;
    drained_times_ = times(pairs_[first_]);
    drained_ = true;
    first_ = (first_ + 1) % capacity_;
    --used_;
  }

  std::size_t capacity_;
  Event reference_;
  double reference_us_ = 0;
  std::unique_ptr<Pair[]> pairs_;
  std::size_t first_ = 0;
  std::size_t used_ = 0;
  Done drained_times_;
  bool drained_ = false;
  std::uint64_t dropped_ = 0;
};

}  // namespace dfg
