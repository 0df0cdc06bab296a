/// \file
/// dfg::Node: one node of the data-flow graph as its worker holds it: the actor, the elements of
/// each port's token, and the dfg::Context the actor's fire() and init() read.
///
///     dfg::Node<::Inc, 2> i1_node_;                              // a member of the worker
///     i1_node_.set_up(run.runtime_params, {elements_Matrix(params), elements_Matrix(params)});
///     i1_node_.fire(j, a, b);              // actor.fire(a, b, ctx) for iteration j
///
/// A node that fires q > 1 times per cycle (rates, a batch) is told so by set_up(params, blocks,
/// q, block, batch). Its ports' pointers are to whole blocks; without `block`, the worker calls
/// fire once per firing k with part(port, k, block), firing k's tokens, and ctx.elements(port)
/// counts one firing's elements. A block node gets one call per cycle with the whole blocks.
///
/// With a batch of K (the app's `batch K`), cycle j runs iterations j K .. j K + K - 1 and the
/// node's q firings a cycle are K times its firings per iteration: firing k of cycle j is the
/// context's firing k mod (q / K) of iteration j K + k / (q / K), so that an actor cannot tell
/// it runs batched. A block node's context says iteration j K and q firings.
///
/// A restarted run (--restart, dfg/checkpoint.hpp) numbers its cycles from 0: the context adds
/// the cycle it resumed with, so that an actor sees the iterations of the uninterrupted run.
///
/// Guarantees: a Node belongs to the worker of its PE: set up by the worker's constructor, used
/// by its thread only. at() neither blocks nor allocates. Not copyable (its context points at its
/// own elements).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "dfg/context.hpp"

namespace dfg {

template <class Actor, std::size_t Ports>
class Node {
 public:
  Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  /// What the node's context reads: the run's runtime params (`params`, the run state's table,
  /// which outlives the node), the elements of each port's block (one cycle's tokens) in the
  /// actor's port order, its firings per iteration, and whether one call makes them all
  /// (`block`) or each firing is a call of its own, on its part of each block.
  /// `batch` divides `firings`.
  void set_up(const RuntimeParamValues& params, const std::array<std::size_t, Ports>& blocks,
              std::uint32_t firings = 1, bool block = true, std::uint32_t batch = 1) noexcept {
    const std::size_t q = block ? 1 : firings;
    for (std::size_t p = 0; p < Ports; ++p) elements_[p] = blocks[p] / q;
    batch_ = batch;
    first_ = params.first_cycle;
    per_cycle_ = firings;
    per_iteration_ = firings / batch;
    ctx.set_node(&params, block ? firings : per_iteration_, elements_.data(), elements_.size());
  }
  /// The actor's port names, in its declaration order (ctx.elements("x")): string literals, or
  /// what outlives the node. After set_up().
  void name_ports(const std::array<const char*, Ports>& names) noexcept {
    names_ = names;
    ctx.set_port_names(names_.data());
  }
  /// A node whose actor says `ends stream;`: its context's end_stream() ends the run's stream
  /// `end`, in the name `who` ("node r (Reader) @ A.c0"). In a program unfolded for replicas,
  /// `copies` blocks make a cycle (at() is given block j x copies + copy). After set_up().
  void may_end(StreamEnd& end, const char* who, std::int64_t copies = 1) noexcept {
    ctx.set_end(&end, who, batch_ * copies, first_);
  }
  /// A node whose first `firings` firings see values from before the stream (ctx.warm_up()):
  /// its context numbers each firing from then on (ctx.warming_up()). After set_up().
  void warm_up(std::int64_t firings) noexcept {
    warm_up_ = firings;
    ctx.set_warm_up(firings);
  }
  /// A GPU node: the stream its firings enqueue on, its device.
  void set_gpu(CUstream_st* stream, int device) noexcept {
    ctx.set_stream(stream);
    ctx.set_device(device);
  }
  /// The context of the firing of cycle j (its first iteration, j x batch).
  Context& at(std::int64_t j) noexcept {
    last_ = j;
    ctx.set_iteration((j + first_) * batch_);
    if (warm_up_ > 0) ctx.set_number((j + first_) * per_cycle_);
    return ctx;
  }
  /// The context of firing k of cycle j (a node that is not `block`).
  Context& at(std::int64_t j, std::uint32_t k) noexcept {
    last_ = j;
    if (batch_ == 1) {  // no division a firing where nothing is batched
      ctx.set_firing(k);
      ctx.set_iteration(j + first_);
    } else {
      ctx.set_firing(k % per_iteration_);
      ctx.set_iteration((j + first_) * batch_ + k / per_iteration_);
    }
    if (warm_up_ > 0) ctx.set_number((j + first_) * per_cycle_ + k);
    return ctx;
  }
  /// Fires cycle j of an actor whose fire() takes the context last: actor.fire(args..., ctx).
  template <class... Args>
  void fire(std::int64_t j, Args&&... args) {
    actor.fire(std::forward<Args>(args)..., at(j));
  }
  /// After a run that completed: the actor's finish(), by an instance that fired the run's last
  /// cycle, whose block is `last` or later (of a node that migrates, the instance it ended on).
  /// Returns whether it ran.
  bool finish(std::int64_t last) {
    if (last_ < last) return false;
    finish();
    return true;
  }
  /// The same for a node that never moves: its one instance fired every cycle of the run (where
  /// a GPU relaunches its cycles as CUDA graphs, without calling fire() on the host).
  void finish() {
    if constexpr (requires { actor.finish(ctx); }) {
      actor.finish(ctx);
    } else {
      actor.finish();
    }
  }
  /// Firing k of cycle j, on the parts of the blocks that part() gives.
  template <class... Args>
  void fire_part(std::int64_t j, std::uint32_t k, Args&&... args) {
    actor.fire(std::forward<Args>(args)..., at(j, k));
  }
  /// Firing k's tokens within the block of `port` that starts at `block`.
  template <class T>
  T* part(std::size_t port, std::uint32_t k, T* block) const noexcept {
    return block + static_cast<std::size_t>(k) * elements_[port];
  }

  Actor actor;
  Context ctx;

 private:
  std::array<std::size_t, Ports>
      elements_{};  ///< what the context reports: a call's part of each block
  std::array<const char*, Ports> names_{};  ///< the ports' names (name_ports)
  std::uint32_t batch_ = 1;                 ///< iterations a cycle
  std::int64_t first_ = 0;                  ///< a restarted run's first cycle (RuntimeParamValues)
  std::int64_t last_ = -1;                  ///< the last cycle (block) it fired
  std::uint32_t per_iteration_ = 1;         ///< firings an iteration: q / batch
  std::int64_t per_cycle_ = 1;              ///< firings a cycle: q
  std::int64_t warm_up_ = 0;                ///< its first firings that see values before the stream
};

}  // namespace dfg
