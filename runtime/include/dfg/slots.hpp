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
/// so that every worker can address the storage of every PE it shares memory with.
///
/// Guarantees: pure, noexcept, no allocation, no synchronisation: which thread touches which
/// slot in which cycle is the schedule's business.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dfg {

/// (cycle - lag) mod slots, in [0, slots).
constexpr std::size_t slot(std::int64_t cycle, std::int64_t lag, std::int64_t slots) noexcept {
  const std::int64_t x = (cycle - lag) % slots;
  return static_cast<std::size_t>(x < 0 ? x + slots : x);
}

class SlotView {
 public:
  constexpr SlotView() noexcept = default;
  constexpr SlotView(void* base, std::size_t stride) noexcept
      : base_(static_cast<std::byte*>(base)), stride_(stride) {}

  /// The view of a buffer's storage (anything with data() and stride()).
  template <class Buffer>
  static SlotView of(const Buffer& buffer) noexcept {
    return SlotView(buffer.data(), buffer.stride());
  }

  void* at(std::size_t i) const noexcept { return base_ + i * stride_; }
  template <class T>
  T* as(std::size_t i) const noexcept {
    return static_cast<T*>(at(i));
  }

 private:
  std::byte* base_ = nullptr;
  std::size_t stride_ = 0;
};

}  // namespace dfg
