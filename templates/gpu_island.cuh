$header$
// island $name$ @ $pe$ (a GPU): the dynamic nodes $members$ on rings in device memory, run to
// quiescence in each firing of node $name$ by one kernel on the node's stream: one block, a warp
// per adapter and per node, its lane 0 the step, or every thread a node's parallel action (or,
// with DFG_GPU_ISLAND_KERNEL=grid, a cooperative kernel of one block per adapter and per node:
// dfg/cuda/gpu_island_cycle.hpp).
#pragma once

#include <cstdint>

#include "dfg/context.hpp"
#include "dfg/cuda/gpu_island_cycle.hpp"
#include "dfg/cuda/gpu_ports.hpp"
$includes$

namespace $name$_device {

/// One firing's tokens, in device memory.
struct Tokens {
  $tokens$
};

/// What the kernel holds in device memory: the adapters, the nodes and their rings. Member b is
/// adapter b (in the node's port order), then the nodes.
struct State {
  $adapters$
  $actors$
  $rings$

  /// Threads a block: $threads_why$.
  static constexpr unsigned threads = $threads$;
  /// Threads of the block kernel's block: a warp per member, at least a batch, at most 1024 (the
  /// run caps it at what the device runs the kernel with).
  static constexpr unsigned block_threads = $block_threads$;

  __device__ void begin(unsigned b, const Tokens& t) {
    switch (b) {
      $begin$
      default:
        break;
    }
  }
  __device__ bool step(unsigned b) {
    switch (b) {
      $step$
      default:
        return false;
    }
  }
  /// Whether member b fires by its parallel action.
  __device__ static bool parallel(unsigned b) {
    switch (b) {
      $parallel$
      default:
        return false;
    }
  }
  /// Member b's parallel action, by every thread of its block: one batch of firings, as many as
  /// the elements there and the room downstream allow, up to one a thread; whether it fired.
  __device__ bool fire(unsigned b) {
    switch (b) {
      $fire$
      default:
        return false;
    }
  }
  __device__ void finish(unsigned b, dfg::GpuIslandReporter& r) const {
    switch (b) {
      $finish$
      default:
        break;
    }
  }
};

}  // namespace $name$_device

class $cls$ {
 public:
  $cls$() = default;
  $cls$(const $cls$&) = delete;
  $cls$& operator=(const $cls$&) = delete;

  /// The rings on the GPU, the nodes' params and their init (on the host), then the state to
  /// the device.
  void init(dfg::Context& ctx) {
    $name$_device::State s{};
    $make$
    $setup$
    kernel_.set_up(ctx.device(), s);
  }
  /// One firing: enqueues the kernel on the node's stream and returns; an island that is stuck
  /// or produced no token is reported with the node and the iteration once the kernel ended.
  void fire($params$dfg::Context& ctx) {
    kernel_.fire({$args$}, ctx.stream(), ctx.iteration());
  }

 private:
  $owners$
  dfg::GpuIslandCycle<$name$_device::State, $name$_device::Tokens> kernel_{
      "$name$", "$who$", {$blocks$}, $count$};
};
