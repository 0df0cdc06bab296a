// Shared by the dynamic-actor benchmarks (idct.cu, fir.cu): failing, timing, rings of any kind
// laid out as dfg/cuda/mapped_fifo.hpp lays them out.
#pragma once

#include "dfg/cuda/check.hpp"
#include "dfg/cuda/mapped_fifo.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  std::exit(1);
}

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Where a ring's memory lives.
enum class Memory { host, device, mapped };

/// A ring of `T` (system-scope counters) in host, device or mapped pinned memory; host() and
/// device() give the handle for each side (mapped: both; host: host only; device: device only).
template <class T>
class Ring {
 public:
  using Ref = dfg::RingRef<T, cuda::thread_scope_system>;

  Ring(Memory memory, std::size_t min_capacity)
      : memory_(memory), capacity_(dfg::detail::ring_capacity(min_capacity)) {
    bytes_ = dfg::detail::kRingHeader + capacity_ * sizeof(T);
    if (memory == Memory::device) {
      DFG_CUDA_CHECK(cudaMalloc(&device_, bytes_), "ring");
    } else {
      DFG_CUDA_CHECK(
          cudaHostAlloc(&host_, bytes_,
                        memory == Memory::mapped ? cudaHostAllocMapped | cudaHostAllocPortable
                                                 : cudaHostAllocPortable),
          "ring");
      if (memory == Memory::mapped)
        DFG_CUDA_CHECK(cudaHostGetDevicePointer(&device_, host_, 0), "ring");
    }
    reset();
  }
  ~Ring() {
    if (memory_ == Memory::device)
      static_cast<void>(cudaFree(device_));
    else
      static_cast<void>(cudaFreeHost(host_));
  }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  /// Empty and open again (counters zero); the caller makes sure no kernel uses it.
  void reset() {
    if (memory_ == Memory::device) {
      DFG_CUDA_CHECK(cudaMemset(device_, 0, dfg::detail::kRingHeader), "ring reset");
      DFG_CUDA_CHECK(cudaDeviceSynchronize(), "ring reset");
    } else {
      std::memset(host_, 0, dfg::detail::kRingHeader);
    }
  }
  std::size_t capacity() const { return capacity_; }
  Ref host() const { return at(host_); }
  Ref device() const { return at(device_); }
  /// Raw addresses, for the copying pump: the counters and the slots on the side that has them.
  dfg::detail::RingCounters* counters(bool on_device) const {
    return static_cast<dfg::detail::RingCounters*>(on_device ? device_ : host_);
  }
  T* slots(bool on_device) const {
    return reinterpret_cast<T*>(static_cast<std::byte*>(on_device ? device_ : host_) +
                                dfg::detail::kRingHeader);
  }

 private:
  Ref at(void* base) const {
    return Ref(static_cast<dfg::detail::RingCounters*>(base),
               reinterpret_cast<T*>(static_cast<std::byte*>(base) + dfg::detail::kRingHeader),
               capacity_);
  }
  Memory memory_;
  std::size_t capacity_;
  std::size_t bytes_ = 0;
  void* host_ = nullptr;
  void* device_ = nullptr;
};

}  // namespace bench
