/// \file
/// dfg::PeekWindow: the storage of an input that peeks (`in Sample x rate 4 peek 64 = 0.5;`). A
/// firing of such an input sees its rate's tokens and the `peek - rate` tokens before them, the
/// history: the last tokens of the cycle before, and before the stream's first token the value
/// the spec gives (zeros without one). The node keeps the history, so the window works whatever
/// carried the block there (a buffer of the PE, a copy from another PE or host).
///
///     dfg::PeekWindow<float> w("f.x window", elements_Frame_x4(params), 60 *
///     elements_Sample(params), 0.5f); const float* x = w.window(j, block);  // cycle j: [history |
///     block], consecutive j for (k = 0; k < q; ++k) fire(x + k * rate_elements, ...);  // firing
///     k's window
///
/// Two halves of history + block elements each take turns: cycle j writes half j % 2, the
/// history first (the last `history` elements of half (j - 1) % 2, which the window of cycle
/// j - 1 left there), then the block. Nothing is moved within a half, so a history longer than
/// a block needs no overlapping copy; the GPU's (dfg/cuda/peek_window.hpp) is one kernel on the
/// node's stream, the same for every cycle of one parity (CUDA graphs capture two phases).
///
/// A checkpoint holds the history as a part of its own ("f.x window"): save() after a cycle's
/// window, restore() before a restarted run's first.
///
/// Guarantees: the constructor allocates (at start-up, AllocError); window() allocates nothing,
/// throws nothing, and is called by the one thread that fires the node, cycle after cycle (j,
/// j + 1, ...) from any first cycle, as are save() and restore() (State's allocation and
/// std::out_of_range). The cost a cycle is one copy of the block and one of the history: what an
/// actor that keeps its own history copies.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "dfg/host_buffer.hpp"
#include "dfg/state.hpp"

namespace dfg {

template <class T>
class PeekWindow {
 public:
  PeekWindow() noexcept = default;
  /// `block`: the elements of one cycle's block of the input; `history`: the elements a firing
  /// sees before its own, each `value` until the stream's own arrive.
  PeekWindow(std::string_view name, std::size_t block, std::size_t history, T value)
      : buffer_(name, (block + history) * sizeof(T), 2), block_(block), history_(history) {
    for (std::size_t half = 0; half < 2; ++half)
      std::fill_n(buffer_.template slot_as<T>(half), block + history, value);
  }

  /// Cycle j's window: the history, then the `block` elements of cycle j's block.
  const T* window(std::int64_t j, const T* block) noexcept {
    T* now = half(j);
    std::memcpy(now, half(j + 1) + block_, history_ * sizeof(T));
    std::memcpy(now + history_, block, block_ * sizeof(T));
    last_ = j;
    return now;
  }

  /// A checkpoint (dfg::Checkpoints::save, after the window of a cycle): the history the next
  /// cycle begins with.
  void save(State& s) const { s.write(half(last_) + block_, history_ * sizeof(T)); }
  /// A restart (before the first window): the history the first cycle begins with.
  void restore(const State& s) {
    s.read(half(1) + block_, history_ * sizeof(T));
    std::memcpy(half(0) + block_, half(1) + block_, history_ * sizeof(T));
  }

 private:
  T* half(std::int64_t j) const noexcept {
    return buffer_.template slot_as<T>(static_cast<std::size_t>(j & 1));
  }

  HostBuffer buffer_;
  std::size_t block_ = 0, history_ = 0;
  std::int64_t last_ = -1;  ///< the cycle of the last window
};

}  // namespace dfg
