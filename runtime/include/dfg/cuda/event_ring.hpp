/// \file
/// dfg::EventRing: a dfg::SlotRing whose steps also carry CUDA events, for a buffer node written
/// or read by work enqueued on CUDA streams. The host threads exchange iteration counters as in
/// SlotRing; the GPU-side ordering travels in events, so that a GPU writer or reader never
/// blocks its host thread on GPU work:
///
///     GPU writer of k (stream s):  ring.wait_writable(k, s);   enqueue kernel/copy on s;   ring.publish(k, s);
///     GPU reader r of k (stream t): ring.wait_readable(r, k, t); enqueue copy/kernel on t;  ring.release(r, k, t);
///     CPU writer: ring.wait_writable_host(k);  write;  ring.publish_host(k);
///     CPU reader: ring.wait_readable_host(r, k);  read;  ring.release_host(r, k);
///
/// publish(k, s) records the slot's "ready" event on s and publishes k; wait_readable(r, k, t)
/// waits (host) for k to be published, which happens as soon as the writer has enqueued its work,
/// then makes t wait for the ready event (cudaStreamWaitEvent: no host blocking). release(r, k, t)
/// records reader r's "done" event for the slot on t; the writer of k + depth makes its stream
/// wait for it. The *_host variants, for CPU sides, poll the events instead (cudaEventQuery,
/// abort-aware) and record none.
///
/// Guarantees:
/// - Threads and counters as in SlotRing: one writer thread, one thread per reader.
/// - Events: one ready event per slot (on the writer's device) and one done event per slot and
///   reader (on that reader's device), created with timing disabled by the constructor; nothing
///   is allocated afterwards. An event is re-recorded for iteration k + depth only after every
///   cudaStreamWaitEvent on its recording for k was enqueued: the host counters order the two
///   (the writer records ready for k + depth after all readers released k, and a reader's
///   release of k follows its stream wait for k; symmetrically for done events).
/// - The "recorded" flags (whether a slot's event belongs to the current iteration) are plain
///   memory written before the release store of the SlotRing counter and read after its
///   acquire load.
/// - Blocking: host waits are SlotRing's (throw dfg::Aborted on a stop); the *_host waits poll
///   the event with a growing sleep (up to 50 us) and also throw dfg::Aborted; CUDA failures
///   throw dfg::CudaError.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/slot_ring.hpp"

namespace dfg {

class EventRing {
 public:
  /// `writer_device`: the GPU whose stream publishes (-1 for a CPU writer);
  /// `reader_devices[r]`: reader r's GPU (-1 for a CPU reader).
  EventRing(int depth, int writer_device, const std::vector<int>& reader_devices, Abort& abort = process_abort())
      : ring_(depth, static_cast<int>(reader_devices.size()), abort), abort_(abort),
        readers_(static_cast<int>(reader_devices.size())) {
    const auto slots = static_cast<std::size_t>(depth);
    ready_ = std::make_unique<Slot[]>(slots);
    done_ = std::make_unique<Slot[]>(slots * static_cast<std::size_t>(readers_));
    for (std::size_t s = 0; s < slots; ++s) {
      if (writer_device >= 0) ready_[s].event = Event(writer_device);
      for (int r = 0; r < readers_; ++r) {
        const int device = reader_devices[static_cast<std::size_t>(r)];
        if (device >= 0) done(r, s).event = Event(device);
      }
    }
  }

  EventRing(const EventRing&) = delete;
  EventRing& operator=(const EventRing&) = delete;

  int depth() const noexcept { return ring_.depth(); }
  int readers() const noexcept { return readers_; }
  std::size_t slot(std::int64_t k) const noexcept { return ring_.slot(k); }

  // ---- writer ----

  /// GPU writer: waits (host) until every reader released k - depth, then makes `stream` wait
  /// for the readers' GPU work on that slot.
  void wait_writable(std::int64_t k, cudaStream_t stream) {
    ring_.wait_writable(k);
    const std::size_t s = slot(k);
    for (int r = 0; r < readers_; ++r) {
      Slot& d = done(r, s);
      if (d.recorded) d.event.wait_on(stream);
    }
  }
  /// CPU writer: waits (host) until every reader released k - depth and its GPU work completed.
  void wait_writable_host(std::int64_t k) {
    ring_.wait_writable(k);
    const std::size_t s = slot(k);
    for (int r = 0; r < readers_; ++r) {
      Slot& d = done(r, s);
      if (d.recorded) wait_complete(d.event);
    }
  }
  /// GPU writer: records the slot's ready event on `stream` and publishes k.
  void publish(std::int64_t k, cudaStream_t stream) {
    Slot& r = ready_[slot(k)];
    r.event.record(stream);
    r.recorded = true;
    ring_.publish(k);
  }
  /// CPU writer: the data is ready now.
  void publish_host(std::int64_t k) noexcept {
    ready_[slot(k)].recorded = false;
    ring_.publish(k);
  }

  // ---- reader r ----

  /// GPU reader: waits (host) until k is published, then makes `stream` wait for the writer.
  void wait_readable(int r, std::int64_t k, cudaStream_t stream) {
    ring_.wait_readable(r, k);
    const Slot& w = ready_[slot(k)];
    if (w.recorded) w.event.wait_on(stream);
  }
  /// CPU reader: waits (host) until k is published and the writer's GPU work completed.
  void wait_readable_host(int r, std::int64_t k) {
    ring_.wait_readable(r, k);
    const Slot& w = ready_[slot(k)];
    if (w.recorded) wait_complete(w.event);
  }
  /// GPU reader: records its done event for the slot on `stream` and releases k.
  void release(int r, std::int64_t k, cudaStream_t stream) {
    Slot& d = done(r, slot(k));
    d.event.record(stream);
    d.recorded = true;
    ring_.release(r, k);
  }
  /// CPU reader (or a reader that skips k): done now.
  void release_host(int r, std::int64_t k) noexcept {
    done(r, slot(k)).recorded = false;
    ring_.release(r, k);
  }

  std::int64_t published_approx() const noexcept { return ring_.published_approx(); }
  std::int64_t released_approx(int r) const noexcept { return ring_.released_approx(r); }

 private:
  struct Slot {
    Event event;
    bool recorded = false;
  };

  Slot& done(int r, std::size_t s) noexcept {
    return done_[s * static_cast<std::size_t>(readers_) + static_cast<std::size_t>(r)];
  }

  /// Polls `e` until its work completed; abort-aware.
  void wait_complete(const Event& e) const {
    auto sleep = std::chrono::microseconds(1);
    while (!e.query()) {
      abort_.throw_if_stopped();
      std::this_thread::sleep_for(sleep);
      if (sleep < std::chrono::microseconds(50)) sleep *= 2;
    }
  }

  SlotRing ring_;
  Abort& abort_;
  int readers_;
  std::unique_ptr<Slot[]> ready_;
  std::unique_ptr<Slot[]> done_;
};

}  // namespace dfg
