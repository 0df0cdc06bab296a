/// \file
/// The FIFO rings of dynamic actors across a GPU: dfg::MappedFifo<T> between a CPU thread and a
/// GPU kernel (zero-copy: slots and counters in pinned host memory mapped into the GPU, no copy
/// call and no stream), and dfg::DeviceFifo<T> between two kernels of one GPU (device memory).
/// Both hand out dfg::RingRef<T, Scope>, a trivially copyable handle passed to a kernel by value
/// or used by a host thread, with the interface of dfg::Fifo (reserve/commit, peek/release,
/// close/drained) plus block-wide forms for a kernel whose threads fire on a batch together:
///
///     __global__ void consumer(dfg::RingRef<Tok, cuda::thread_scope_system> in) {
///       for (;;) {
///         auto batch = in.block_peek(blockDim.x);        // every thread of the block calls it
///         if (batch.empty()) { if (in.block_drained()) return; continue; }
///         if (threadIdx.x < batch.size()) use(batch[threadIdx.x]);
///         in.block_release(batch.size());                // after every thread read its token
///       }
///     }
///
/// Layout: the counters written_, read_ and closed_ each on their own 128-byte line, then the
/// slots; positions are 64-bit counters that only grow, slot = position & (capacity - 1), the
/// capacity rounded up to a power of two.
///
/// Guarantees:
/// - Threads: one producer and one consumer, each a host thread, one GPU thread, or one thread
///   block through the block_ forms (every thread of the block calls them, as it would
///   __syncthreads). The two ends may be on different sides (MappedFifo) or in two kernels
///   running at the same time on one GPU (DeviceFifo). Two kernels at the ends of a DeviceFifo
///   must be co-resident (two streams, grids that fit beside each other) and loaded before the
///   first of them is launched (cudaFuncGetAttributes on both, or CUDA_MODULE_LOADING=EAGER):
///   with lazy loading, the default since CUDA 12.2, the first launch of a kernel may wait for
///   the kernels already running, and a spinning consumer then waits for a producer that never
///   starts.
/// - Ordering: the counters are accessed only through cuda::atomic_ref<std::uint64_t, Scope>,
///   Scope = cuda::thread_scope_system for MappedFifo (CPU and GPU), thread_scope_device for
///   DeviceFifo. commit() is a release store of written_ at Scope; peek()/available() load it
///   with acquire at Scope, so the token writes before a commit happen-before the consumer's
///   reads after it observes the commit, whichever side (PCIe/NVLink-C2C included: system-scope
///   release on the GPU orders its earlier writes to host memory before the counter). release()
///   is a release store of read_, observed by reserve()/room() with acquire, so a slot is read
///   before it is written again. close() is a release store of closed_; drained() loads closed_
///   (acquire) before written_. The block_ forms: threads write (or read) their slots,
///   __syncthreads(), then thread 0 commits (or releases); the barrier orders the other threads'
///   accesses before thread 0's release, and causality order is transitive in the PTX memory
///   model, so the consumer's acquire sees every thread's tokens.
/// - Progress: nothing blocks and nothing launches; a full or empty ring gives a short or empty
///   batch. The caller spins (a kernel: __nanosleep between tries).
/// - Allocation: the owners' constructors only (one cudaHostAlloc with cudaHostAllocMapped |
///   cudaHostAllocPortable, or one cudaMalloc), zeroed; they throw dfg::AllocError. Destructors
///   free and never throw. Owners are movable, not copyable; a RingRef does not own.
/// - Cost: the slots of a MappedFifo are host memory read and written by the
///   GPU over the bus, token by token; it pays where batches are small or latency matters. For
///   large batches a copy engine may be faster (bench/fifo measures both).
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/detail/ring_span.hpp"
#include "dfg/host_buffer.hpp"

namespace dfg {

namespace detail {

/// The three counters of a ring, each on its own 128-byte line.
struct RingCounters {
  alignas(128) std::uint64_t written;
  alignas(128) std::uint64_t read;
  alignas(128) std::uint64_t closed;
};
inline constexpr std::size_t kRingHeader = (sizeof(RingCounters) + 255) / 256 * 256;

inline std::size_t ring_capacity(std::size_t min_capacity) {
  if (min_capacity == 0) throw std::invalid_argument("dfg: a FIFO's capacity must be >= 1");
  if (min_capacity > (std::size_t{1} << 40))
    throw std::invalid_argument("dfg: a FIFO's capacity is too large");
  return std::bit_ceil(min_capacity);
}

}  // namespace detail

template <class T, cuda::thread_scope Scope>
class RingRef {
  static_assert(std::is_trivially_copyable_v<T>, "dfg::RingRef: tokens must be trivially copyable");
  using Ref = cuda::atomic_ref<std::uint64_t, Scope>;

 public:
  RingRef() = default;
  DFG_HOST_DEVICE RingRef(detail::RingCounters* counters, T* slots, std::size_t capacity)
      : counters_(counters), slots_(slots), mask_(capacity - 1) {}

  DFG_HOST_DEVICE std::size_t capacity() const { return mask_ + 1; }

  // --- producer ---

  DFG_HOST_DEVICE std::size_t room() const {
    const std::uint64_t r = Ref(counters_->read).load(cuda::std::memory_order_acquire);
    const std::uint64_t w = Ref(counters_->written).load(cuda::std::memory_order_relaxed);
    return capacity() - static_cast<std::size_t>(w - r);
  }
  /// Up to `n` free slots from the next write position; invisible to the consumer until commit.
  DFG_HOST_DEVICE RingSpan<T> reserve(std::size_t n) const {
    const std::uint64_t r = Ref(counters_->read).load(cuda::std::memory_order_acquire);
    const std::uint64_t w = Ref(counters_->written).load(cuda::std::memory_order_relaxed);
    const std::size_t free = capacity() - static_cast<std::size_t>(w - r);
    return RingSpan<T>(slots_, mask_, w, n < free ? n : free);
  }
  /// Publishes the first `k` slots of the last reserve (release at Scope).
  DFG_HOST_DEVICE void commit(std::size_t k) const {
    Ref written(counters_->written);
    written.store(written.load(cuda::std::memory_order_relaxed) + k,
                  cuda::std::memory_order_release);
  }
  /// End of stream, after the last commit.
  DFG_HOST_DEVICE void close() const {
    Ref(counters_->closed).store(1, cuda::std::memory_order_release);
  }

  // --- consumer ---

  DFG_HOST_DEVICE std::size_t available() const {
    const std::uint64_t w = Ref(counters_->written).load(cuda::std::memory_order_acquire);
    const std::uint64_t r = Ref(counters_->read).load(cuda::std::memory_order_relaxed);
    return static_cast<std::size_t>(w - r);
  }
  /// Up to `n` of the oldest tokens, without removing them.
  DFG_HOST_DEVICE RingSpan<const T> peek(std::size_t n) const {
    const std::uint64_t w = Ref(counters_->written).load(cuda::std::memory_order_acquire);
    const std::uint64_t r = Ref(counters_->read).load(cuda::std::memory_order_relaxed);
    const std::size_t have = static_cast<std::size_t>(w - r);
    return RingSpan<const T>(slots_, mask_, r, n < have ? n : have);
  }
  /// Frees the first `k` tokens of the last peek (release at Scope).
  DFG_HOST_DEVICE void release(std::size_t k) const {
    Ref read(counters_->read);
    read.store(read.load(cuda::std::memory_order_relaxed) + k, cuda::std::memory_order_release);
  }
  /// Closed by the producer and every committed token released.
  DFG_HOST_DEVICE bool drained() const {
    if (Ref(counters_->closed).load(cuda::std::memory_order_acquire) == 0) return false;
    return available() == 0;
  }

  /// Positions [start, start + n) without touching the counters, for threads that share one
  /// thread's reserve (slots_at) or peek (tokens_at): dfg/cuda/parallel_firing.hpp.
  DFG_HOST_DEVICE RingSpan<T> slots_at(std::uint64_t start, std::size_t n) const {
    return RingSpan<T>(slots_, mask_, start, n);
  }
  DFG_HOST_DEVICE RingSpan<const T> tokens_at(std::uint64_t start, std::size_t n) const {
    return RingSpan<const T>(slots_, mask_, start, n);
  }

#if defined(__CUDACC__)
  // --- one thread block as the producer or the consumer: every thread calls these ---

  /// reserve(n) by thread 0, the same span in every thread.
  __device__ RingSpan<T> block_reserve(std::size_t n) const {
    __shared__ std::uint64_t start;
    __shared__ std::size_t count;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      const RingSpan<T> s = reserve(n);
      start = s.start();
      count = s.size();
    }
    __syncthreads();
    const RingSpan<T> s(slots_, mask_, start, count);
    __syncthreads();  // everyone has read start and count before thread 0 may write them again
    return s;
  }
  /// After every thread wrote its slots: thread 0 commits `k` (the same in every thread).
  __device__ void block_commit(std::size_t k) const {
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) commit(k);
  }
  /// peek(n) by thread 0, the same span in every thread.
  __device__ RingSpan<const T> block_peek(std::size_t n) const {
    __shared__ std::uint64_t start;
    __shared__ std::size_t count;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      const RingSpan<const T> s = peek(n);
      start = s.start();
      count = s.size();
    }
    __syncthreads();
    const RingSpan<const T> s(slots_, mask_, start, count);
    __syncthreads();
    return s;
  }
  /// After every thread read its tokens: thread 0 releases `k` (the same in every thread).
  __device__ void block_release(std::size_t k) const {
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) release(k);
  }
  /// drained() by thread 0, the same answer in every thread.
  __device__ bool block_drained() const {
    __shared__ int done;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) done = drained() ? 1 : 0;
    __syncthreads();
    const bool d = done != 0;
    __syncthreads();
    return d;
  }
#endif

 private:
  detail::RingCounters* counters_ = nullptr;
  T* slots_ = nullptr;
  std::size_t mask_ = 0;
};

/// A ring in pinned host memory mapped into every GPU: a CPU thread at one end, a kernel at the
/// other (or a CPU thread at both).
template <class T>
class MappedFifo {
 public:
  using Ref = RingRef<T, cuda::thread_scope_system>;

  MappedFifo() noexcept = default;
  MappedFifo(std::string_view name, std::size_t min_capacity)
      : capacity_(detail::ring_capacity(min_capacity)) {
    const std::size_t bytes = detail::kRingHeader + capacity_ * sizeof(T);
    cudaError_t e = cudaHostAlloc(&host_, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (e == cudaSuccess) e = cudaHostGetDevicePointer(&device_, host_, 0);
    if (e != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      if (host_ != nullptr) static_cast<void>(cudaFreeHost(host_));
      host_ = nullptr;
      throw AllocError(detail::alloc_message(name, bytes, cuda_error_message(e, {})));
    }
    std::memset(host_, 0, bytes);
  }
  ~MappedFifo() {
    if (host_ != nullptr) cuda_check_noexcept(cudaFreeHost(host_), "free mapped FIFO");
  }
  MappedFifo(MappedFifo&& o) noexcept { swap(o); }
  MappedFifo& operator=(MappedFifo&& o) noexcept {
    MappedFifo tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  MappedFifo(const MappedFifo&) = delete;
  MappedFifo& operator=(const MappedFifo&) = delete;

  std::size_t capacity() const noexcept { return capacity_; }
  /// The end for a host thread (host addresses).
  Ref host() const noexcept { return at(host_); }
  /// The end for a kernel (the mapped device addresses).
  Ref device() const noexcept { return at(device_); }

 private:
  Ref at(void* base) const noexcept {
    return Ref(static_cast<detail::RingCounters*>(base),
               reinterpret_cast<T*>(static_cast<std::byte*>(base) + detail::kRingHeader),
               capacity_);
  }
  void swap(MappedFifo& o) noexcept {
    std::swap(host_, o.host_);
    std::swap(device_, o.device_);
    std::swap(capacity_, o.capacity_);
  }

  void* host_ = nullptr;
  void* device_ = nullptr;
  std::size_t capacity_ = 0;
};

/// A ring in the memory of one GPU: two kernels of that GPU at its ends.
template <class T>
class DeviceFifo {
 public:
  using Ref = RingRef<T, cuda::thread_scope_device>;

  DeviceFifo() noexcept = default;
  DeviceFifo(int device, std::string_view name, std::size_t min_capacity)
      : capacity_(detail::ring_capacity(min_capacity)), device_id_(device) {
    DeviceGuard guard(device);
    const std::size_t bytes = detail::kRingHeader + capacity_ * sizeof(T);
    cudaError_t e = cudaMalloc(&data_, bytes);
    // cudaMemset of device memory does not wait, and kernels on non-blocking streams do not wait
    // for it: synchronise, so that no kernel sees the counters before they are zero.
    if (e == cudaSuccess) e = cudaMemset(data_, 0, bytes);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      if (data_ != nullptr) static_cast<void>(cudaFree(data_));
      data_ = nullptr;
      throw AllocError(detail::alloc_message(name, bytes, cuda_error_message(e, {})));
    }
  }
  ~DeviceFifo() {
    if (data_ == nullptr) return;
    int previous = 0;
    static_cast<void>(cudaGetDevice(&previous));
    static_cast<void>(cudaSetDevice(device_id_));
    cuda_check_noexcept(cudaFree(data_), "free device FIFO");
    static_cast<void>(cudaSetDevice(previous));
  }
  DeviceFifo(DeviceFifo&& o) noexcept { swap(o); }
  DeviceFifo& operator=(DeviceFifo&& o) noexcept {
    DeviceFifo tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  DeviceFifo(const DeviceFifo&) = delete;
  DeviceFifo& operator=(const DeviceFifo&) = delete;

  std::size_t capacity() const noexcept { return capacity_; }
  int device_id() const noexcept { return device_id_; }
  /// The handle for the kernels at both ends (device addresses; not for host threads).
  Ref device() const noexcept {
    return Ref(static_cast<detail::RingCounters*>(data_),
               reinterpret_cast<T*>(static_cast<std::byte*>(data_) + detail::kRingHeader),
               capacity_);
  }

 private:
  void swap(DeviceFifo& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    std::swap(device_id_, o.device_id_);
  }

  void* data_ = nullptr;
  std::size_t capacity_ = 0;
  int device_id_ = -1;
};

}  // namespace dfg
