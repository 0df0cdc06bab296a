/// \file
/// dfg::Node: one node of the data-flow graph as its worker holds it: the actor, the elements of
/// each port's token, and the dfg::Context the actor's fire() and init() read.
///
///     dfg::Node<::Inc, 2> i1_node_;                              // a member of the worker
///     i1_node_.set_up(run.runtime_params, {elements_Matrix(params), elements_Matrix(params)});
///     i1_node_.fire(j, a, b);              // actor.fire(a, b, ctx) for iteration j
///
/// A node that fires q > 1 times per iteration (rates) is told so by set_up(params, blocks, q,
/// block). Its ports' pointers are to whole blocks; without `block`, the worker calls fire once per
/// firing k with part(port, k, block), firing k's tokens, and ctx.elements(port) counts one
/// firing's elements. A block node gets one call per iteration with the whole blocks.
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
  void set_up(const RuntimeParamValues& params, const std::array<std::size_t, Ports>& blocks,
              std::uint32_t firings = 1, bool block = true) noexcept {
    const std::size_t q = block ? 1 : firings;
    for (std::size_t p = 0; p < Ports; ++p) elements_[p] = blocks[p] / q;
    ctx.set_node(&params, firings, elements_.data(), elements_.size());
  }
  /// A GPU node: the stream its firings enqueue on, its device.
  void set_gpu(CUstream_st* stream, int device) noexcept {
    ctx.set_stream(stream);
    ctx.set_device(device);
  }
  /// The context of the firing of iteration j.
  Context& at(std::int64_t j) noexcept {
    ctx.set_iteration(j);
    return ctx;
  }
  /// The context of firing k of iteration j (a node that is not `block`).
  Context& at(std::int64_t j, std::uint32_t k) noexcept {
    ctx.set_firing(k);
    return at(j);
  }
  /// Fires iteration j of an actor whose fire() takes the context last: actor.fire(args..., ctx).
  template <class... Args>
  void fire(std::int64_t j, Args&&... args) {
    actor.fire(std::forward<Args>(args)..., at(j));
  }
  /// Firing k of iteration j, on the parts of the blocks that part() gives.
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
};

}  // namespace dfg
