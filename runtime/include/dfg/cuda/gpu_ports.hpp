/// \file
/// dfg::GpuIn<T> and dfg::GpuOut<T>: the ends of the device rings that a dynamic actor's
/// `__device__ bool step` takes on a GPU, one per port, by value. They are dfg::In and dfg::Out
/// (dfg/ports.hpp) on the device: the same members with the same meaning, so an actor's step
/// reads the same on both sides, only the parameter types differ:
///
///     struct Add {                       // actor Add dynamic { ... gpu "add.cuh" Add; }
///       __device__ bool step(dfg::GpuIn<int> a, dfg::GpuIn<int> b, dfg::GpuOut<int> s) {
///         if (a.available() < 1 || b.available() < 1 || s.room() < 1) return false;  // guard
///         s.push(a.pop() + b.pop());     // the action
///         return true;                   // fired
///       }
///     };
///
/// dfg::DeviceRing<T> is the ring itself: two 64-bit positions that only grow (written, read)
/// and a power-of-two array of slots, all in device memory; dfg/cuda/gpu_island_cycle.hpp owns
/// them. The header needs nothing but the CUDA compiler (no libcu++), so that dfgc's Clang reads
/// the actors that include it.
///
/// Guarantees: a view holds a DeviceRing and nothing else; it does not allocate, block or throw.
/// An In is the ring's consumer end, an Out its producer end; in a GPU island one thread calls
/// each end, and the two ends of a ring are in two blocks running at once, or two warps of one
/// block (dfg/cuda/gpu_island_cycle.hpp).
/// Memory ordering, at device scope (PTX): commit() and release() store the position with
/// st.release.gpu, available(), peek(), room() and reserve() load the other end's position with
/// ld.acquire.gpu; each end reads its own position plainly (only its thread writes it). A ring
/// whose other end is a CPU thread (DeviceRing::system, dfg/cuda/mapped_ring.hpp) does the same
/// at system scope: st.release.sys and ld.acquire.sys, paired with the CPU's release stores and
/// acquire loads of the same positions in mapped pinned memory. A ring whose two ends are
/// threads of one block (DeviceRing::block: an island run by one block) does it at block scope,
/// st.release.cta and ld.acquire.cta, which the block's L1 serves. So the
/// token writes before a commit are seen by the consumer that sees the commit, and a slot is read
/// before the producer that sees its release writes it again. pop() and push() on an empty or
/// full ring are precondition violations, not checked: test the guard first.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/detail/ring_span.hpp"

namespace dfg {

/// A ring in device memory, or in mapped pinned host memory (`system`): its positions and its
/// slots (capacity a power of two).
template <class T>
struct DeviceRing {
  std::uint64_t* written;
  std::uint64_t* read;
  T* slots;
  std::size_t mask;
  /// The other end is a CPU thread (dfg::MappedRing): release and acquire at system scope.
  bool system;
  /// Both ends are threads of one block: release and acquire at block scope (unless `system`).
  bool block = false;

  /// The other end's position: ld.acquire.gpu, .sys or .cta.
  __device__ std::uint64_t acquire(const std::uint64_t* at) const {
#if defined(__CUDA_ARCH__)
    std::uint64_t v;
    if (system)
      asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");
    else if (block)
      asm volatile("ld.acquire.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");
    else
      asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");
    return v;
#else
    return *at;  // not reached: the views are device code (this is the host pass's reading)
#endif
  }
  /// This end's new position: st.release.gpu, .sys or .cta.
  __device__ void publish(std::uint64_t* at, std::uint64_t v) const {
#if defined(__CUDA_ARCH__)
    if (system)
      asm volatile("st.release.sys.global.u64 [%0], %1;" : : "l"(at), "l"(v) : "memory");
    else if (block)
      asm volatile("st.release.cta.global.u64 [%0], %1;" : : "l"(at), "l"(v) : "memory");
    else
      asm volatile("st.release.gpu.global.u64 [%0], %1;" : : "l"(at), "l"(v) : "memory");
#else
    *at = v;  // not reached
#endif
  }
};

/// The consumer end of a device ring.
template <class T>
class GpuIn {
 public:
  __device__ explicit GpuIn(DeviceRing<T> ring) : ring_(ring) {}

  /// Elements in the ring.
  __device__ std::size_t available() const {
    return static_cast<std::size_t>(ring_.acquire(ring_.written) - *ring_.read);
  }
  /// Up to `n` of the oldest elements, left in the ring until release().
  __device__ RingSpan<const T> peek(std::size_t n) const {
    const std::size_t have = available();
    return RingSpan<const T>(ring_.slots, ring_.mask, *ring_.read, n < have ? n : have);
  }
  /// Frees the first `k` elements of the last peek().
  __device__ void release(std::size_t k) const { ring_.publish(ring_.read, *ring_.read + k); }
  /// Takes the oldest element; available() must be at least 1.
  __device__ T pop() const {
    const T v = peek(1)[0];
    release(1);
    return v;
  }

 private:
  DeviceRing<T> ring_;
};

/// The producer end of a device ring.
template <class T>
class GpuOut {
 public:
  __device__ explicit GpuOut(DeviceRing<T> ring) : ring_(ring) {}

  /// Free slots.
  __device__ std::size_t room() const {
    return ring_.mask + 1 - static_cast<std::size_t>(*ring_.written - ring_.acquire(ring_.read));
  }
  /// Up to `n` free slots, published by commit().
  __device__ RingSpan<T> reserve(std::size_t n) const {
    const std::size_t free = room();
    return RingSpan<T>(ring_.slots, ring_.mask, *ring_.written, n < free ? n : free);
  }
  __device__ void commit(std::size_t k) const { ring_.publish(ring_.written, *ring_.written + k); }
  /// Appends one element; room() must be at least 1.
  __device__ void push(const T& v) const {
    reserve(1)[0] = v;
    commit(1);
  }

 private:
  DeviceRing<T> ring_;
};

}  // namespace dfg
