/// \file
/// RAII CUDA streams and events, peer access, and the asynchronous copies of transfers.
///
///     dfg::Stream h2d(0, "A.g0 h2d");                        // non-blocking stream on device 0
///     dfg::Event done(0);                                    // no timing: cheapest to record/wait
///     dfg::copy_async(dev, host, bytes, h2d, "cudaMemcpyAsync");
///     dfg::enable_peer_access(0, 1);                         // tolerates "already enabled"
///     dfg::copy_peer_async(dst, 1, src, 0, bytes, h2d, "cudaMemcpyPeerAsync");
///
/// Guarantees:
/// - Constructors and destructors set the device they need and restore the caller's current
///   device (DeviceGuard). Construction throws dfg::CudaError; destruction never throws (a
///   failure is recorded in dfg::process_abort()). Streams and events are movable, not copyable.
/// - Stream::alias() names another stream without owning it (a GPU whose cycles run on its
///   compute stream alone: dfg::runs_on_one_stream): it destroys nothing and must not outlive
///   the stream it names.
/// - A Stream or Event may be used from any thread, as CUDA allows; the generated program keeps
///   each on the thread of its processing element. None of these calls allocate host memory,
///   block the host or synchronise, except Event::synchronize() and the constructors.
/// - Streams are created with cudaStreamNonBlocking: they never synchronise with the legacy
///   default stream, which would defeat the overlap.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "dfg/bounded.hpp"
#include "dfg/cuda/check.hpp"

namespace dfg {

/// Makes `device` current for its lifetime, then restores the previous device.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    DFG_CUDA_CHECK(cudaGetDevice(&previous_), "cudaGetDevice");
    if (device != previous_)
      DFG_CUDA_CHECK(cudaSetDevice(device), "select device " + std::to_string(device));
  }
  ~DeviceGuard() {
    int now = previous_;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous_) {
      cuda_check_noexcept(cudaSetDevice(previous_), "restore device");
    }
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

class Stream {
 public:
  Stream() noexcept = default;
  /// A non-blocking stream on `device`; `name` appears in error messages ("A.g0 h2d").
  Stream(int device, std::string_view name, int priority = 0) : device_(device), name_(name) {
    DeviceGuard guard(device);
    DFG_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority),
                   "create stream " + name_);
  }
  ~Stream() { reset(); }
  /// This stream under another name ("A.g0 h2d"), not owned: the same CUDA stream.
  Stream alias(std::string_view name) const {
    Stream out;
    out.stream_ = stream_;
    out.device_ = device_;
    out.name_ = name;
    out.owns_ = false;
    return out;
  }
  Stream(Stream&& o) noexcept { swap(o); }
  Stream& operator=(Stream&& o) noexcept {
    Stream tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }  // NOLINT(google-explicit-constructor)
  int device() const noexcept { return device_; }
  const std::string& name() const noexcept { return name_; }

  /// Blocks the host until the stream is idle (tear-down only; not abort-aware).
  void synchronize() const {
    DFG_CUDA_CHECK(cudaStreamSynchronize(stream_), "synchronize stream " + name_);
  }

 private:
  void reset() noexcept {
    if (stream_ == nullptr) return;
    if (owns_) cuda_check_noexcept(cudaStreamDestroy(stream_), "destroy stream");
    stream_ = nullptr;
  }
  void swap(Stream& o) noexcept {
    std::swap(stream_, o.stream_);
    std::swap(device_, o.device_);
    std::swap(name_, o.name_);
    std::swap(owns_, o.owns_);
  }

  cudaStream_t stream_ = nullptr;
  int device_ = -1;
  std::string name_;
  bool owns_ = true;
};

class Event {
 public:
  enum class Timing { off, on };

  Event() noexcept = default;
  /// An event on `device`; Timing::on only for the events --stats and --trace read times from.
  explicit Event(int device, Timing timing = Timing::off) {
    DeviceGuard guard(device);
    DFG_CUDA_CHECK(cudaEventCreateWithFlags(
                       &event_, timing == Timing::on ? cudaEventDefault : cudaEventDisableTiming),
                   "create event");
  }
  ~Event() { reset(); }
  Event(Event&& o) noexcept { std::swap(event_, o.event_); }
  Event& operator=(Event&& o) noexcept {
    Event tmp(std::move(o));
    std::swap(event_, tmp.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const noexcept { return event_; }
  operator cudaEvent_t() const noexcept { return event_; }  // NOLINT(google-explicit-constructor)

  /// Enqueues the event on `stream` (same device). Never blocks.
  void record(cudaStream_t stream) {
    DFG_CUDA_CHECK(cudaEventRecord(event_, stream), "record event");
  }
  /// Makes `stream` wait for the event's last recording. Never blocks the host.
  void wait_on(cudaStream_t stream) const {
    DFG_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0), "stream wait on event");
  }
  /// Whether the work before the last recording has completed. Never blocks.
  bool query() const {
    const cudaError_t e = cudaEventQuery(event_);
    if (e == cudaErrorNotReady) return false;
    DFG_CUDA_CHECK(e, "query event");
    return true;
  }
  /// Blocks the host until completion (tear-down only; not abort-aware).
  void synchronize() const { DFG_CUDA_CHECK(cudaEventSynchronize(event_), "synchronize event"); }

 private:
  void reset() noexcept {
    if (event_ == nullptr) return;
    cuda_check_noexcept(cudaEventDestroy(event_), "destroy event");
    event_ = nullptr;
  }

  cudaEvent_t event_ = nullptr;
};

/// Milliseconds between two completed timing events.
inline float elapsed_ms(const Event& begin, const Event& end) {
  float ms = 0;
  DFG_CUDA_CHECK(cudaEventElapsedTime(&ms, begin.get(), end.get()), "event elapsed time");
  return ms;
}

/// Whether `device` can read and write `peer`'s memory directly.
inline bool can_access_peer(int device, int peer) {
  int can = 0;
  DFG_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device, peer),
                 "query peer access " + std::to_string(device) + " -> " + std::to_string(peer));
  return can != 0;
}

/// Lets `device` access `peer`'s memory; an earlier enabling is not an error. Throws
/// dfg::CudaError if the two devices cannot be joined.
inline void enable_peer_access(int device, int peer) {
  const std::string what =
      "enable peer access " + std::to_string(device) + " -> " + std::to_string(peer);
  if (!can_access_peer(device, peer))
    throw CudaError(cudaErrorPeerAccessUnsupported, what + ": not supported");
  DeviceGuard guard(device);
  const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    static_cast<void>(cudaGetLastError());
    return;
  }
  DFG_CUDA_CHECK(e, what);
}

/// One direction of a transfer between a host buffer and a device buffer, or within a device.
inline void copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream,
                       std::string_view what, cudaMemcpyKind kind = cudaMemcpyDefault) {
  DFG_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream), what);
}

/// A bounded token's copy within a device on `stream` (a delay line): its length cell, in host
/// memory, set now, and its used bytes. Throws dfg::LengthError where the source's length is over
/// `capacity` (bytes).
inline void copy_token_async(SlotToken dst, SlotToken src, std::size_t capacity,
                             cudaStream_t stream) {
  const std::size_t used = used_bytes(src, capacity);
  *dst.used_bytes = used;
  copy_async(dst.data, src.data, used, stream, "cudaMemcpyAsync");
}

/// A transfer between two GPUs of one host (direct when peer access is enabled, staged by the
/// driver otherwise).
inline void copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                            std::size_t bytes, cudaStream_t stream, std::string_view what) {
  DFG_CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream), what);
}

/// Blocks the host until every one of `streams` is idle, in the order given.
template <class... Streams>
void synchronize(const Streams&... streams) {
  (streams.synchronize(), ...);
}

}  // namespace dfg
