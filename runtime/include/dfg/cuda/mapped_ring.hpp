/// \file
/// dfg::MappedRing<T>: the ring of a fifo edge between an island on a CPU and an island on a GPU
/// of one host, zero-copy: a dfg::Fifo<T> and its slots in one allocation of pinned host memory
/// mapped into the GPU. The CPU island's step takes dfg::In / dfg::Out over host() (the Fifo
/// itself), the GPU island's kernel dfg::GpuIn / dfg::GpuOut over device_ring() (a dfg::DeviceRing
/// on the same positions and slots, at system scope). No copy call and no stream moves its
/// elements.
///
///     dfg::MappedRing<std::int32_t> ring("d.y -> e.x", 192);    // generated: mapped_rings.hpp
///     dfg::Out<std::int32_t> y(ring.host());                     // the CPU island's end
///     state.fifo3_ = dfg::device_ring(ring);                     // the GPU island's end
///
/// Guarantees:
/// - Threads: one producer and one consumer, one of them the thread of a CPU island, the other
///   thread 0 of a block of a GPU island's kernel; the ends never change sides.
/// - Memory ordering: the CPU end is dfg::Fifo's: commit() a release store of the written
///   position, available()/peek() its acquire load; release() a release store of the read
///   position, room()/reserve() its acquire load (x86-64 and AArch64 give these their ordinary
///   meaning on pinned memory). The GPU end stores its position with st.release.sys and loads the
///   CPU's with ld.acquire.sys (DeviceRing::system): a release at system scope orders the
///   thread's earlier writes to the slots before the position, for the CPU too, and an acquire
///   orders the reads after it. So the elements written before a commit are seen by the other
///   side once it sees the commit, and a slot is read before the producer that sees its release
///   writes it again, whichever side produces.
/// - Progress: nothing blocks; a full or empty ring gives a short or empty batch. The static
///   cycle orders the two islands' firings of one iteration (the consumer's after the
///   producer's); the ring holds what the producer makes while it runs ahead.
/// - Allocation: the constructor only (cudaHostAlloc, mapped and portable, zeroed); it throws
///   dfg::AllocError. The destructor frees (ignoring the runtime's unloading at exit) and never
///   throws. Neither copyable nor movable: the
///   ends point into it.
#pragma once

#include <cuda_runtime.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>

#include "dfg/cuda/check.hpp"
#include "dfg/fifo.hpp"
#include "dfg/host_buffer.hpp"
#if defined(__CUDACC__)
#include "dfg/cuda/gpu_ports.hpp"
#endif

namespace dfg {

template <class T>
class MappedRing {
 public:
  /// At least `min_capacity` elements (rounded up to a power of two); `name`, the edge, for the
  /// error.
  MappedRing(std::string_view name, std::size_t min_capacity)
      : MappedRing(name, min_capacity, 0, T{}) {}
  /// The same, holding `initial` elements of `value` before the stream (an edge's `delay`).
  MappedRing(std::string_view name, std::size_t min_capacity, std::size_t initial, const T& value)
      : capacity_(std::bit_ceil(min_capacity < 1 ? std::size_t{1} : min_capacity)) {
    const std::size_t bytes = kSlotsAt + capacity_ * sizeof(T);
    void* data = nullptr;
    cudaError_t e = cudaHostAlloc(&data, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e == cudaSuccess) e = cudaHostGetDevicePointer(&device_, data, 0);
    if (e != cudaSuccess) {
      if (data != nullptr) static_cast<void>(cudaFreeHost(data));
      throw AllocError(detail::alloc_message(name, bytes, cuda_error_message(e, {})));
    }
    std::memset(data, 0, bytes);
    fifo_ = new (data)
        Fifo<T>(reinterpret_cast<T*>(static_cast<std::byte*>(data) + kSlotsAt), capacity_);
    if (initial > capacity_) {
      fifo_->~Fifo();
      static_cast<void>(cudaFreeHost(data));
      throw std::invalid_argument(std::string(name) + ": more initial elements than slots");
    }
    fifo_->prime(initial, value);
  }
  ~MappedRing() {
    fifo_->~Fifo();
    // The generated rings are static objects, destroyed after main, when the CUDA runtime may
    // have unloaded: a failed free there is not an error of the run.
    static_cast<void>(cudaFreeHost(fifo_));
  }
  MappedRing(const MappedRing&) = delete;
  MappedRing& operator=(const MappedRing&) = delete;

  std::size_t capacity() const noexcept { return capacity_; }
  /// The CPU island's end.
  Fifo<T>& host() noexcept { return *fifo_; }

  /// The device address of `host`, an address inside the ring's allocation.
  template <class U>
  U* on_device(U* host) const noexcept {
    return reinterpret_cast<U*>(
        static_cast<std::byte*>(device_) +
        (reinterpret_cast<std::byte*>(host) - reinterpret_cast<std::byte*>(fifo_)));
  }

 private:
  /// The Fifo first, its slots after it on their own lines.
  static constexpr std::size_t kSlotsAt = (sizeof(Fifo<T>) + 255) / 256 * 256;
  std::size_t capacity_;
  void* device_ = nullptr;
  Fifo<T>* fifo_ = nullptr;
};

#if defined(__CUDACC__)
/// The GPU island's end of `ring`: the device addresses of its positions and slots, at system
/// scope. (A free function, so that MappedRing is one class in the CPU's and the GPU's
/// translation units.)
template <class T>
DeviceRing<T> device_ring(MappedRing<T>& ring) noexcept {
  Fifo<T>& f = ring.host();
  return {ring.on_device(f.written_address()), ring.on_device(f.read_address()),
          ring.on_device(f.slots()), ring.capacity() - 1, true};
}
#endif

}  // namespace dfg
