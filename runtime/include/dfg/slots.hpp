/// \file
/// dfg::slot and dfg::SlotView: how the generated program addresses buffer storage. Every colour
/// of buffer nodes (buffers that share one allocation) has `slots` slots; in cycle c an access
/// with lag L uses slot (c - L) mod slots, where L adds the access's lag and the buffer's colour
/// lag, both constants the compiler writes inline:
///
///     p.fire(p_m.as<float>(dfg::slot(c, 0, 2)), p_ctx);      // write slot c mod 2
///     i1.fire(p_m.as<const float>(dfg::slot(c, 1, 2)), ...);  // read what cycle c - 1 wrote
///
/// A SlotView is the (base, stride) of one allocation (HostBuffer, PinnedBuffer, DeviceBuffer),
/// so that every worker can address the storage of every PE it shares memory with; for an
/// allocation of bounded tokens also its length cells (dfg/bounded.hpp):
///
///     fire(j, p_m.bounded<const std::uint8_t>(dfg::slot(c, 1, 2), 1500, "in"));
///     items.copy(entry, h2d_, dst.token(dfg::slot(c, 0, 2)), src.token(dfg::slot(c, 1, 2)));
///
/// Guarantees: pure, noexcept, no allocation, no synchronisation: which thread touches which
/// slot in which cycle is the schedule's business.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/bounded.hpp"

namespace dfg {

/// (cycle - lag) mod slots, in [0, slots).
constexpr std::size_t slot(std::int64_t cycle, std::int64_t lag, std::int64_t slots) noexcept {
  const std::int64_t x = (cycle - lag) % slots;
  return static_cast<std::size_t>(x < 0 ? x + slots : x);
}

class SlotView {
 public:
  constexpr SlotView() noexcept = default;
  constexpr SlotView(void* base, std::size_t stride, std::uint64_t* lengths = nullptr) noexcept
      : base_(static_cast<std::byte*>(base)), stride_(stride), lengths_(lengths) {}

  /// The view of a buffer's storage (anything with data(), stride() and lengths()).
  template <class Buffer>
  static SlotView of(const Buffer& buffer) noexcept {
    return SlotView(buffer.data(), buffer.stride(), buffer.lengths());
  }

  void* at(std::size_t i) const noexcept { return base_ + i * stride_; }
  template <class T>
  T* as(std::size_t i) const noexcept {
    return static_cast<T*>(at(i));
  }

  /// Slot i of an allocation with lengths: its first byte and its length cell.
  SlotToken token(std::size_t i) const noexcept { return {at(i), lengths_ + i}; }
  /// Slot i as a bounded token of `capacity` elements, for the actor's port `port`.
  template <class T>
  Bounded<T> bounded(std::size_t i, std::size_t capacity, const char* port) const noexcept {
    return Bounded<T>(as<T>(i), lengths_ + i, capacity, port);
  }

 private:
  std::byte* base_ = nullptr;
  std::size_t stride_ = 0;
  std::uint64_t* lengths_ = nullptr;  ///< one cell per slot, or null: fixed-size tokens
};

}  // namespace dfg
