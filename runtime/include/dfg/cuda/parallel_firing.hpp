/// \file
/// Firing an action n times at once over the rings of dfg/cuda/mapped_fifo.hpp: n chosen at run
/// time from the tokens available and the room downstream, the n firings on n threads of a block
/// (block_fire_parallel), or in order on one thread (fire_serial: a host thread, one GPU thread;
/// block_fire_serial: thread 0 of a block), FIFO order kept either way.
///
///     struct Idct {                                   // a GPU actor of dfg/cuda/gpu_island.hpp
///       dfg::RingRef<std::int16_t, cuda::thread_scope_device> in, out;
///       __device__ bool step() {                      // every thread of the block
///         return dfg::block_fire_parallel(1024, IdctAction{}, dfg::consume(in, 64),
///                                         dfg::produce(out, 64)) != 0;
///       }
///       ...
///     };
///
/// The action is called as action(i, window_0, window_1, ...) for firing i of the batch, one
/// window per port in the order given: a dfg::RingSpan<const T> of the `rate` tokens firing i
/// consumes from an input (positions read + i*rate ...), a dfg::RingSpan<T> of the `rate` slots it
/// fills on an output. Firing i reads the i-th group of tokens and writes the i-th group of slots,
/// so the outputs leave in the order the inputs came, however the threads run.
///
/// n = fit_firings(max_n, {available_p, rate_p}...): the largest n <= max_n such that every input
/// holds n*rate tokens and every output has room for n*rate; 0 when the action cannot fire.
///
/// Guarantees:
/// - The action of a parallel firing must not write the actor's state, and must not read what
///   another firing of the same batch writes: the n firings run in any order and at once. An
///   action that carries state from one firing to the next fires with fire_serial.
/// - Threads: block_ forms are called by every thread of a one-dimensional block (as
///   __syncthreads), and return the same n in every thread. Thread 0 is the rings' consumer and
///   producer: it peeks and reserves, and after a barrier that follows every thread's firings,
///   releases and commits n*rate on each port. Memory ordering is that of the rings: the barrier
///   orders every thread's token reads and slot writes before thread 0's release stores, and
///   thread 0's acquire loads (peek, reserve) before every thread's accesses to those positions.
/// - Nothing blocks, allocates or launches; a firing that cannot happen returns 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "dfg/cuda/mapped_fifo.hpp"
#include "dfg/detail/ring_span.hpp"

namespace dfg {

/// An input of a firing: `rate` tokens of `ring` per firing.
template <class T, cuda::thread_scope S>
struct Consume {
  RingRef<T, S> ring;
  std::size_t rate;

  DFG_HOST_DEVICE RingSpan<const T> probe(std::size_t max_n) const {
    return ring.peek(max_n * rate);
  }
  DFG_HOST_DEVICE RingSpan<const T> window(std::uint64_t start, std::size_t i) const {
    return ring.tokens_at(start + i * rate, rate);
  }
  DFG_HOST_DEVICE void finish(std::size_t n) const { ring.release(n * rate); }
};

/// An output of a firing: `rate` slots of `ring` per firing.
template <class T, cuda::thread_scope S>
struct Produce {
  RingRef<T, S> ring;
  std::size_t rate;

  DFG_HOST_DEVICE RingSpan<T> probe(std::size_t max_n) const { return ring.reserve(max_n * rate); }
  DFG_HOST_DEVICE RingSpan<T> window(std::uint64_t start, std::size_t i) const {
    return ring.slots_at(start + i * rate, rate);
  }
  DFG_HOST_DEVICE void finish(std::size_t n) const { ring.commit(n * rate); }
};

template <class T, cuda::thread_scope S>
DFG_HOST_DEVICE Consume<T, S> consume(RingRef<T, S> ring, std::size_t rate = 1) {
  return {ring, rate};
}
template <class T, cuda::thread_scope S>
DFG_HOST_DEVICE Produce<T, S> produce(RingRef<T, S> ring, std::size_t rate = 1) {
  return {ring, rate};
}

namespace detail {

/// Thread-local part of a firing: probes every port, returns n and the ports' start positions.
template <class... P, std::size_t... I>
DFG_HOST_DEVICE std::size_t probe_ports(std::size_t max_n, std::uint64_t* starts,
                                        std::index_sequence<I...>, const P&... ports) {
  std::size_t tokens[sizeof...(P)];
  (
      (void)[&] {
        const auto span = ports.probe(max_n);
        starts[I] = span.start();
        tokens[I] = span.size();
      }(),
      ...);
  return fit_firings(max_n, PortBudget{tokens[I], ports.rate}...);
}

}  // namespace detail

/// Up to max_n firings in order on the calling thread (a host thread or one GPU thread, the only
/// one at these ports' ends); returns how many fired.
template <class Action, class... P>
DFG_HOST_DEVICE std::size_t fire_serial(std::size_t max_n, Action&& action, const P&... ports) {
  static_assert(sizeof...(P) > 0, "dfg::fire_serial: an action needs at least one port");
  std::uint64_t starts[sizeof...(P)];
  const std::size_t n = [&]<std::size_t... I>(std::index_sequence<I...> seq) {
    const std::size_t k = detail::probe_ports(max_n, starts, seq, ports...);
    for (std::size_t f = 0; f < k; ++f) action(f, ports.window(starts[I], f)...);
    return k;
  }(std::index_sequence_for<P...>{});
  if (n != 0) (ports.finish(n), ...);
  return n;
}

#if defined(__CUDACC__)

/// fire_serial by thread 0 of the block; every thread calls it and gets n.
template <class Action, class... P>
__device__ std::size_t block_fire_serial(std::size_t max_n, Action&& action, const P&... ports) {
  __shared__ std::size_t fired;
  if (threadIdx.x == 0) fired = fire_serial(max_n, action, ports...);
  __syncthreads();
  const std::size_t n = fired;
  __syncthreads();  // every thread has read `fired` before thread 0 writes it again
  return n;
}

/// Up to max_n firings on the threads of the block, firing i on thread i % blockDim.x; every
/// thread calls it and gets n.
template <class Action, class... P>
__device__ std::size_t block_fire_parallel(std::size_t max_n, Action&& action, const P&... ports) {
  static_assert(sizeof...(P) > 0, "dfg::block_fire_parallel: an action needs at least one port");
  constexpr std::size_t kPorts = sizeof...(P);
  __shared__ std::uint64_t shared_starts[kPorts];
  __shared__ std::size_t shared_n;
  if (threadIdx.x == 0)
    shared_n = detail::probe_ports(max_n, shared_starts, std::index_sequence_for<P...>{}, ports...);
  __syncthreads();
  const std::size_t n = shared_n;
  std::uint64_t starts[kPorts];
  for (std::size_t p = 0; p < kPorts; ++p) starts[p] = shared_starts[p];
  __syncthreads();  // every thread has its copy before thread 0 probes again
  if (n == 0) return 0;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    for (std::size_t f = threadIdx.x; f < n; f += blockDim.x)
      action(f, ports.window(starts[I], f)...);
  }(std::index_sequence_for<P...>{});
  __syncthreads();  // every firing has read its tokens and written its slots
  if (threadIdx.x == 0) (ports.finish(n), ...);
  return n;
}

#endif

}  // namespace dfg
