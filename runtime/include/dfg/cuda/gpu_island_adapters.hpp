/// \file
/// The parts of a GPU island's firing that its members use (dfg/cuda/gpu_island_cycle.hpp): the
/// report of what went wrong and the reporter a member writes it with; the adapters between the
/// iteration's static tokens and the island's rings (GpuUnpack, GpuPack, GpuPackSome), whose
/// step runs on one thread (the grid kernel) or on every lane of a warp (the block kernel); and
/// the ports of a parallel action (GpuConsume, GpuProduce).
///
/// Guarantees: device code that does not allocate, block or throw; an adapter's step is called by
/// the lanes island_adapter_lanes() says, its ring's end held by lane 0.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dfg/counted.hpp"
#include "dfg/cuda/gpu_ports.hpp"
#include "dfg/detail/ring_span.hpp"

namespace dfg {

/// What a firing of a GPU island went wrong with, in mapped pinned memory; code 0: nothing.
struct GpuIslandReport {
  enum Code : std::uint32_t { ok = 0, stuck = 1, short_output = 2, no_quiescence = 3 };
  std::uint32_t code;
  std::uint32_t block;  ///< the adapter or actor
  std::uint64_t done, size;
  std::int64_t iteration;
};

namespace detail {

/// Each round's word (bit 0: a block fired, bit 1: a block passed max_firings), the claim of the
/// report; in device memory.
struct GpuIslandRounds {
  std::uint32_t word[3];
  std::uint32_t claimed;
};

}  // namespace detail

/// What a block that finds an error writes, once per firing (the first block wins).
class GpuIslandReporter {
 public:
  /// `block`: the adapter or actor whose checks report through it.
  DFG_HOST_DEVICE GpuIslandReporter(detail::GpuIslandRounds* rounds, GpuIslandReport* report,
                                    std::int64_t iteration, unsigned block)
      : rounds_(rounds), report_(report), iteration_(iteration), block_(block) {}

#if defined(__CUDACC__)
  __device__ void report(GpuIslandReport::Code code, std::uint64_t done, std::uint64_t size) {
    std::uint32_t expected = 0;
    if (!cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(rounds_->claimed)
             .compare_exchange_strong(expected, 1, cuda::std::memory_order_relaxed))
      return;
    report_->block = block_;
    report_->done = done;
    report_->size = size;
    report_->iteration = iteration_;
    report_->code = code;
  }
#endif

 private:
  detail::GpuIslandRounds* rounds_;
  GpuIslandReport* report_;
  std::int64_t iteration_;
  unsigned block_;
};

namespace detail {
#if defined(__CUDACC__)
/// The lanes that call an adapter's step together: 32 in the block kernel (a warp copies the
/// elements, lane 0 holds the ring's end), 1 in the grid kernel (thread 0 alone). Set by thread 0
/// before the kernel's first barrier.
__device__ inline unsigned& island_adapter_lanes() {
  __shared__ unsigned lanes;
  return lanes;
}

/// Elements a lane of the block kernel's adapter loads before it stores any: a warp's copy waits
/// on memory once per 32 x 8 elements, not once per 32 (a load cannot pass the store before it,
/// which may alias it).
inline constexpr unsigned kAdapterLoads = 8;

/// One step of an adapter: lane 0 takes up to what is left of the ring (`probe()`: a span),
/// every lane of the step copies its elements (`from(start, i)` to `to(start, i)`: element i of
/// the span whose element 0 is ring position `start`), lane 0 ends it (`end(n)`: release or
/// commit, and the count done); returns n on every lane.
template <class Probe, class From, class To, class End>
__device__ std::size_t adapter_step(Probe&& probe, From&& from, To&& to, End&& end) {
  if (island_adapter_lanes() == 1) {
    const auto span = probe();
    for (std::size_t i = 0; i < span.size(); ++i) *to(span.start(), i) = *from(span.start(), i);
    if (!span.empty()) end(span.size());
    return span.size();
  }
  const unsigned lane = threadIdx.x % 32;
  std::uint64_t start = 0, n = 0;
  if (lane == 0) {
    const auto span = probe();
    start = span.start();
    n = span.size();
  }
  start = __shfl_sync(0xffffffffu, start, 0);
  n = __shfl_sync(0xffffffffu, n, 0);
  constexpr std::size_t stride = 32 * kAdapterLoads;
  std::size_t i = lane;
  for (; i + stride - 32 < n; i += stride) {
    std::remove_cvref_t<decltype(*from(start, i))> v[kAdapterLoads];
#pragma unroll
    for (unsigned k = 0; k < kAdapterLoads; ++k) v[k] = *from(start, i + 32 * k);
#pragma unroll
    for (unsigned k = 0; k < kAdapterLoads; ++k) *to(start, i + 32 * k) = v[k];
  }
  for (; i < n; i += 32) *to(start, i) = *from(start, i);
  __syncwarp();  // every lane's copies before lane 0's release or commit
  if (lane == 0 && n != 0) end(static_cast<std::size_t>(n));
  __syncwarp();  // lane 0's count before the next step reads it
  return static_cast<std::size_t>(n);
}

/// An output adapter's step: up to `size - done` elements of `ring` into data[done...].
template <class T>
__device__ bool pack_step(const DeviceRing<T>& ring, T* data, std::uint64_t size,
                          std::uint64_t& done) {
  if (done == size) return false;
  const GpuIn<T> in(ring);
  const std::uint64_t from = done;
  return adapter_step([&] { return in.peek(static_cast<std::size_t>(size - from)); },
                      [&](std::uint64_t start, std::size_t i) -> const T* {
                        return &ring.slots[(start + i) & ring.mask];
                      },
                      [&](std::uint64_t, std::size_t i) { return data + from + i; },
                      [&](std::size_t n) {
                        in.release(n);
                        done += n;
                      }) != 0;
}
#endif

}  // namespace detail

/// The adapter into a GPU island: each firing, one static token's elements (device memory) into
/// a ring, as the ring has room.
template <class T>
struct GpuUnpack {
  DeviceRing<T> ring;
  const T* data;
  std::uint64_t size, done;

#if defined(__CUDACC__)
  __device__ void begin(const T* token, std::uint64_t elements) {
    data = token;
    size = elements;
    done = 0;
  }
  /// By thread 0 (grid kernel) or by every lane of a warp (block kernel).
  __device__ bool step() {
    if (done == size) return false;
    const GpuOut<T> out(ring);
    const std::uint64_t from = done;
    return detail::adapter_step([&] { return out.reserve(static_cast<std::size_t>(size - from)); },
                                [&](std::uint64_t, std::size_t i) { return data + from + i; },
                                [&](std::uint64_t start, std::size_t i) {
                                  return &ring.slots[(start + i) & ring.mask];
                                },
                                [&](std::size_t n) {
                                  out.commit(n);
                                  done += n;
                                }) != 0;
  }
  __device__ void finish(GpuIslandReporter& r) const {
    if (done != size) r.report(GpuIslandReport::stuck, done, size);
  }
#endif
};

/// The adapter out of a GPU island: each firing, one static token of `elements` elements from a
/// ring; the rest stays for the next firing.
template <class T>
struct GpuPack {
  DeviceRing<T> ring;
  T* data;
  std::uint64_t size, done;

#if defined(__CUDACC__)
  __device__ void begin(T* token, std::uint64_t elements) {
    data = token;
    size = elements;
    done = 0;
  }
  /// By thread 0 (grid kernel) or by every lane of a warp (block kernel).
  __device__ bool step() { return detail::pack_step(ring, data, size, done); }
  __device__ void finish(GpuIslandReporter& r) const {
    if (done != size) r.report(GpuIslandReport::short_output, done, size);
  }
#endif
};

/// The adapter out of a GPU island into a counted token (dfg/counted.hpp: a copied fifo edge to
/// an island on a CPU): each firing, what the ring holds, up to `capacity` elements after the
/// token's count cell, which finish() sets; the rest stays for the next firing.
template <class T>
struct GpuPackSome {
  DeviceRing<T> ring;
  T* token;
  std::uint64_t size, done;

#if defined(__CUDACC__)
  __device__ void begin(T* counted, std::uint64_t capacity) {
    token = counted;
    size = capacity;
    done = 0;
  }
  /// By thread 0 (grid kernel) or by every lane of a warp (block kernel).
  __device__ bool step() { return detail::pack_step(ring, token + kCountedHeader<T>, size, done); }
  __device__ void finish(GpuIslandReporter&) const { set_counted_length(token, done); }
#endif
};

#if defined(__CUDACC__)

/// An input of a parallel action (dfg::block_fire_parallel's port): `rate` elements of the
/// ring a firing. Thread 0 probes and finishes; every thread reads its window.
template <class T>
struct GpuConsume {
  DeviceRing<T> ring;
  std::size_t rate;

  __device__ RingSpan<const T> probe(std::size_t max_n) const {
    return GpuIn<T>(ring).peek(max_n * rate);
  }
  __device__ RingSpan<const T> window(std::uint64_t start, std::size_t i) const {
    return RingSpan<const T>(ring.slots, ring.mask, start + i * rate, rate);
  }
  __device__ void finish(std::size_t n) const { GpuIn<T>(ring).release(n * rate); }
};

/// An output of a parallel action: `rate` slots of the ring a firing.
template <class T>
struct GpuProduce {
  DeviceRing<T> ring;
  std::size_t rate;

  __device__ RingSpan<T> probe(std::size_t max_n) const {
    return GpuOut<T>(ring).reserve(max_n * rate);
  }
  __device__ RingSpan<T> window(std::uint64_t start, std::size_t i) const {
    return RingSpan<T>(ring.slots, ring.mask, start + i * rate, rate);
  }
  __device__ void finish(std::size_t n) const { GpuOut<T>(ring).commit(n * rate); }
};

#endif

}  // namespace dfg
