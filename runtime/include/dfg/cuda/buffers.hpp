/// \file
/// dfg::PinnedBuffer (page-locked host memory, cudaHostAlloc, for the host side of CPU-GPU
/// transfers) and dfg::DeviceBuffer (cudaMalloc on one GPU): the storage of buffer nodes, with
/// the same slot layout and naming as dfg::HostBuffer:
///     cannot allocate 16 MiB for buffer i1.b@A.g0: cudaErrorMemoryAllocation: out of memory
///
/// A DeviceBuffer built with dfg::kMapped is a GPU's colour of small tokens (dfgc's mapped tokens,
/// `--mapped-tokens`) in mapped page-locked host memory (cudaHostAllocMapped): the GPU's kernels
/// read and write it through its device pointer and a CPU's worker copies tokens in and out of it
/// with std::memcpy, so no cudaMemcpyAsync moves them. Its device pointer must be its host
/// pointer (unified addressing, as on every 64-bit platform CUDA supports): one view serves both
/// sides; otherwise the constructor throws dfg::AllocError.
///
/// Guarantees: construction allocates and zero-fills (start-up only; a DeviceBuffer is cleared by
/// a cudaMemset on the legacy default stream and waits for it before it returns, since the
/// program's streams are non-blocking and would not wait for it) and throws dfg::AllocError;
/// destruction frees and never throws (a failure is recorded in dfg::process_abort()). Slots are
/// 256-byte aligned (the widest alignment a CUDA kernel may assume of cudaMalloc). Accessors are
/// noexcept, never allocate, and do not synchronise. Movable, not copyable.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/host_buffer.hpp"

namespace dfg {

namespace detail {

inline constexpr std::size_t kCudaSlotAlignment = 256;

}  // namespace detail

class PinnedBuffer : public detail::SlottedMemory {
 public:
  PinnedBuffer() noexcept = default;
  /// `slots` zeroed slots of `slot_bytes`, page-locked, usable by every device (portable).
  PinnedBuffer(std::string_view name, std::size_t slot_bytes, std::size_t slots = 1)
      : SlottedMemory(name, slot_bytes, slots, detail::kCudaSlotAlignment) {
    const cudaError_t e = cudaHostAlloc(&data_, bytes_ == 0 ? detail::kCudaSlotAlignment : bytes_,
                                        cudaHostAllocPortable);
    if (e != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      data_ = nullptr;
      throw AllocError(detail::alloc_message(name, bytes_, cuda_error_message(e, {})));
    }
    std::memset(data_, 0, bytes_);
  }
  /// The same, and one length cell per slot (a colour of bounded tokens), all zero.
  PinnedBuffer(std::string_view name, std::size_t slot_bytes, std::size_t slots, WithLengths)
      : PinnedBuffer(name, slot_bytes, slots) {
    lengths_ = SlotLengths(slots);
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) cuda_check_noexcept(cudaFreeHost(data_), "free pinned buffer");
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept { swap(o); }
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    PinnedBuffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
};

/// Tag of a DeviceBuffer constructor: the colour lives in mapped host memory (the file comment).
struct Mapped {};
inline constexpr Mapped kMapped{};

class DeviceBuffer : public detail::SlottedMemory {
 public:
  DeviceBuffer() noexcept = default;
  /// `slots` zeroed slots of `slot_bytes` in the memory of GPU `device`.
  DeviceBuffer(int device, std::string_view name, std::size_t slot_bytes, std::size_t slots = 1)
      : SlottedMemory(name, slot_bytes, slots, detail::kCudaSlotAlignment), device_(device) {
    DeviceGuard guard(device);
    cudaError_t e = cudaMalloc(&data_, bytes_ == 0 ? detail::kCudaSlotAlignment : bytes_);
    if (e == cudaSuccess) e = cudaMemset(data_, 0, bytes_);
    // cudaMemset of device memory returns before it is done; non-blocking streams (dfg::Stream)
    // do not wait for the default stream: wait here, so that the zeros are there before any use.
    if (e == cudaSuccess) e = cudaStreamSynchronize(nullptr);
    if (e != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      if (data_ != nullptr) static_cast<void>(cudaFree(data_));
      data_ = nullptr;
      throw AllocError(detail::alloc_message(name, bytes_, cuda_error_message(e, {})));
    }
  }
  /// The same, and one length cell per slot in host memory (bounded tokens), all zero.
  DeviceBuffer(int device, std::string_view name, std::size_t slot_bytes, std::size_t slots,
               WithLengths)
      : DeviceBuffer(device, name, slot_bytes, slots) {
    lengths_ = SlotLengths(slots);
  }
  /// `slots` zeroed slots of `slot_bytes` in mapped page-locked host memory that GPU `device`
  /// reads and writes at the same address (kMapped).
  DeviceBuffer(int device, std::string_view name, std::size_t slot_bytes, std::size_t slots, Mapped)
      : SlottedMemory(name, slot_bytes, slots, detail::kCudaSlotAlignment),
        device_(device),
        mapped_(true) {
    DeviceGuard guard(device);
    cudaError_t e = cudaHostAlloc(&data_, bytes_ == 0 ? detail::kCudaSlotAlignment : bytes_,
                                  cudaHostAllocMapped | cudaHostAllocPortable);
    void* on_device = nullptr;
    if (e == cudaSuccess) e = cudaHostGetDevicePointer(&on_device, data_, 0);
    std::string why;
    if (e != cudaSuccess) {
      why = cuda_error_message(e, {});
    } else if (on_device != data_) {
      why = "mapped host memory is at another address on device " + std::to_string(device) +
            " (no unified addressing): compile with --mapped-tokens=0";
    }
    if (!why.empty()) {
      static_cast<void>(cudaGetLastError());
      if (data_ != nullptr) static_cast<void>(cudaFreeHost(data_));
      data_ = nullptr;
      throw AllocError(detail::alloc_message(name, bytes_, why));
    }
    std::memset(data_, 0, bytes_);
  }
  /// The same, and one length cell per slot (bounded tokens), all zero.
  DeviceBuffer(int device, std::string_view name, std::size_t slot_bytes, std::size_t slots, Mapped,
               WithLengths)
      : DeviceBuffer(device, name, slot_bytes, slots, kMapped) {
    lengths_ = SlotLengths(slots);
  }
  ~DeviceBuffer() {
    if (data_ == nullptr) return;
    if (mapped_) {
      cuda_check_noexcept(cudaFreeHost(data_), "free mapped buffer");
      return;
    }
    int previous = 0;
    static_cast<void>(cudaGetDevice(&previous));
    static_cast<void>(cudaSetDevice(device_));
    cuda_check_noexcept(cudaFree(data_), "free device buffer");
    static_cast<void>(cudaSetDevice(previous));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap_all(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    DeviceBuffer tmp(std::move(o));
    swap_all(tmp);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  int device() const noexcept { return device_; }
  /// Whether the slots are in mapped host memory (kMapped).
  bool mapped() const noexcept { return mapped_; }

 private:
  void swap_all(DeviceBuffer& o) noexcept {
    swap(o);
    std::swap(device_, o.device_);
    std::swap(mapped_, o.mapped_);
  }

  int device_ = -1;
  bool mapped_ = false;
};

}  // namespace dfg
