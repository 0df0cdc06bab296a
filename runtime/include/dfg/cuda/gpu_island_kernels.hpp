/// \file
/// The two kernels that run a GPU island's firing (dfg/cuda/gpu_island_cycle.hpp says how and
/// what they guarantee): the block kernel, with the state in shared memory for the firing where
/// it fits, and the cooperative grid kernel.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dfg/cuda/gpu_island_adapters.hpp"
#include "dfg/cuda/gpu_ports.hpp"
#include "dfg/detail/ring_span.hpp"

namespace dfg {

namespace detail {

/// The largest state the block kernel copies into shared memory for a firing (bytes).
inline constexpr std::size_t kIslandSharedState = 16384;

}  // namespace detail

#if defined(__CUDACC__)

namespace detail {

/// One firing of the island whose state is at `state`: begin, rounds to quiescence, finish.
template <class State, class Tokens>
__global__ void gpu_island_cycle_kernel(State* state, Tokens tokens, GpuIslandRounds* rounds,
                                        GpuIslandReport* report, std::int64_t iteration,
                                        std::uint64_t max_firings) {
  using Word = cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>;
  constexpr auto relaxed = cuda::std::memory_order_relaxed;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const unsigned b = blockIdx.x;
  if (threadIdx.x == 0) {
    island_adapter_lanes() = 1;
    state->begin(b, tokens);
    if (b == 0) {
      Word(rounds->word[0]).store(0, relaxed);
      Word(rounds->claimed).store(0, relaxed);
    }
  }
  grid.sync();
  std::uint64_t firings = 0;
  bool overflow = false;
  for (unsigned round = 0;; ++round) {
    std::uint32_t mine = 0;
    if (State::parallel(b)) {  // every thread: the same batches, the same answer
      while (!overflow && state->fire(b)) {
        mine = 1;
        overflow = ++firings > max_firings;
      }
    } else if (threadIdx.x == 0) {
      while (!overflow && state->step(b)) {
        mine = 1;
        overflow = ++firings > max_firings;
      }
    }
    if (threadIdx.x == 0) {
      if (overflow) mine |= 2;
      if (mine != 0) Word(rounds->word[round % 3]).fetch_or(mine, relaxed);
      if (b == 0) Word(rounds->word[(round + 1) % 3]).store(0, relaxed);
    }
    grid.sync();
    const std::uint32_t word = Word(rounds->word[round % 3]).load(relaxed);
    if (word == 0 || (word & 2) != 0) {
      if (threadIdx.x == 0) {
        GpuIslandReporter r(rounds, report, iteration, b);
        if (overflow)
          r.report(GpuIslandReport::no_quiescence, firings, max_firings);
        else if (word == 0)
          state->finish(b, r);
      }
      return;
    }
  }
}

/// The same firing by one block: warp w runs the steps of members w, w + warps, ... (each until
/// it returns false; an adapter's on every lane, an actor's on lane 0), then every thread fires
/// the parallel members one after the other; a block barrier ends the round, whose word is in
/// shared memory. The first `adapters` members are the adapters.
template <class State, class Tokens>
__global__ void gpu_island_block_kernel(State* held, Tokens tokens, GpuIslandRounds* rounds,
                                        GpuIslandReport* report, std::int64_t iteration,
                                        std::uint64_t max_firings, unsigned members,
                                        unsigned adapters) {
  __shared__ std::uint32_t words[3];
  __shared__ unsigned busy;  // the warps that fired since they last found nothing to step
  // The state in shared memory for the firing where it fits: an actor's fields and the rings'
  // descriptors are then read and written at shared memory's latency, where a store to device
  // memory sends the next load of it to L2.
  constexpr bool shared_state = sizeof(State) <= kIslandSharedState;
  __shared__ alignas(State) unsigned char bytes[shared_state ? sizeof(State) : 1];
  State* const state = shared_state ? reinterpret_cast<State*>(bytes) : held;
  if constexpr (shared_state) {
    for (unsigned i = threadIdx.x; i < sizeof(State); i += blockDim.x)
      bytes[i] = reinterpret_cast<const unsigned char*>(held)[i];
    __syncthreads();
  }
  const unsigned warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const bool lead = threadIdx.x % 32 == 0;
  if (lead)
    for (unsigned b = warp; b < members; b += warps) state->begin(b, tokens);
  if (threadIdx.x == 0) {
    words[0] = 0;
    rounds->claimed = 0;
    island_adapter_lanes() = 32;
  }
  __syncthreads();
  std::uint64_t firings = 0;      // the warp's steps (lane 0)
  unsigned overflowed = members;  // the member that passed max_firings
  for (unsigned round = 0;; ++round) {
    std::uint32_t mine = 0;
    if (threadIdx.x == 0) busy = warps;
    __syncthreads();
    // The steps: a warp whose members find nothing to do polls them again while another warp
    // still fires, so that tokens flow through a chain of actors within one round (a producer's
    // commit is a consumer's next step) instead of one actor a round.
    for (bool active = true;;) {
      bool fired = false;
      for (unsigned b = warp; b < members && overflowed == members; b += warps) {
        if (State::parallel(b) || (b >= adapters && !lead)) continue;  // an adapter: every lane
        while (state->step(b)) {
          fired = true;
          if (++firings > max_firings) {
            overflowed = b;
            break;
          }
        }
      }
      fired = __any_sync(0xffffffffu, fired);
      overflowed = __shfl_sync(0xffffffffu, overflowed, 0);
      if (fired) mine = 1;
      if (fired && overflowed == members) {
        if (!active && lead) atomicAdd(&busy, 1u);
        active = true;
        continue;
      }
      if (active && lead) atomicSub(&busy, 1u);
      active = false;
      if (overflowed != members ||
          __shfl_sync(0xffffffffu, lead ? *static_cast<volatile unsigned*>(&busy) : 0u, 0) == 0)
        break;
    }
    __syncthreads();            // the steps' commits before the batches' probes
    std::uint64_t batches = 0;  // the same in every thread
    for (unsigned b = 0; b < members; ++b) {
      if (!State::parallel(b)) continue;
      while (batches <= max_firings && state->fire(b)) {
        mine = 1;
        ++batches;
      }
      if (batches > max_firings) {
        if (threadIdx.x == 0) overflowed = b;
        break;
      }
    }
    if (overflowed != members) mine |= 2;
    if (mine != 0 && lead) atomicOr(&words[round % 3], mine);
    if (threadIdx.x == 0) words[(round + 1) % 3] = 0;
    __syncthreads();
    const std::uint32_t word = words[round % 3];
    if (word == 0 || (word & 2) != 0) {
      if (lead)
        for (unsigned b = warp; b < members; b += warps) {
          GpuIslandReporter r(rounds, report, iteration, b);
          if (b == overflowed)
            r.report(GpuIslandReport::no_quiescence, max_firings + 1, max_firings);
          else if (word == 0)
            state->finish(b, r);
        }
      if (threadIdx.x == 0 && overflowed != members && overflowed % warps != 0) {
        GpuIslandReporter r(rounds, report, iteration, overflowed);
        r.report(GpuIslandReport::no_quiescence, max_firings + 1, max_firings);
      }
      break;
    }
  }
  if constexpr (shared_state) {
    __syncthreads();  // every member's last write before the copy back
    for (unsigned i = threadIdx.x; i < sizeof(State); i += blockDim.x)
      reinterpret_cast<unsigned char*>(held)[i] = bytes[i];
  }
}

}  // namespace detail

#endif

}  // namespace dfg
