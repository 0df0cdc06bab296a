/// \file
/// dfg::Node: one node of the data-flow graph as its worker holds it: the actor, the elements of
/// each port's token, and the dfg::Context the actor's fire() and init() read.
///
///     dfg::Node<::Inc, 2> i1_node_;                              // a member of the worker
///     i1_node_.set_up(run.runtime_params, {elements_Matrix(params), elements_Matrix(params)});
///     i1_node_.fire(j, a, b);              // actor.fire(a, b, ctx) for iteration j
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
  /// which outlives the node), the elements of each port's token in the actor's port order, and
  /// the firings one call makes (its entry of the repetition vector).
  void set_up(const RuntimeParamValues& params, const std::array<std::size_t, Ports>& elements,
              std::uint32_t firings = 1) noexcept {
    elements_ = elements;
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
  /// Fires iteration j of an actor whose fire() takes the context last: actor.fire(args..., ctx).
  template <class... Args>
  void fire(std::int64_t j, Args&&... args) {
    actor.fire(std::forward<Args>(args)..., at(j));
  }

  Actor actor;
  Context ctx;

 private:
  std::array<std::size_t, Ports> elements_{};
};

}  // namespace dfg
