/// \file
/// dfg::HostBuffer: the storage of a buffer node (or of a colour of shared buffer nodes) on a
/// CPU-only processing element: `slots` slots of `slot_bytes` each, every slot 64-byte aligned,
/// zero-initialised, freed on destruction, named for error messages:
///     cannot allocate 16 MiB for buffer i1.b@A.cpu
///
/// Guarantees: construction allocates (start-up only) and throws dfg::AllocError on failure;
/// everything else is noexcept and never allocates. A buffer is not synchronised: who may touch
/// which slot when is the schedule's business (dfg/slots.hpp). Movable, not copyable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "dfg/bounded.hpp"
#include "dfg/bytes.hpp"

namespace dfg {

/// A buffer that could not be allocated; what() is the whole message.
class AllocError final : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

inline constexpr std::size_t kSlotAlignment = 64;

inline constexpr std::size_t round_up(std::size_t n, std::size_t a) noexcept {
  return (n + a - 1) / a * a;
}

/// "cannot allocate 16 MiB for buffer i1.b@A.cpu" (+ ": reason" when given).
inline std::string alloc_message(std::string_view name, std::size_t bytes,
                                 std::string_view reason = {}) {
  std::string m = "cannot allocate " + format_bytes(bytes) + " for buffer " + std::string(name);
  if (!reason.empty()) m += ": " + std::string(reason);
  return m;
}

/// The slot layout every buffer shares (HostBuffer here, dfg::PinnedBuffer and dfg::DeviceBuffer
/// in dfg/cuda/buffers.hpp): `slots` slots of `slot_bytes`, each starting a multiple of
/// `alignment` bytes after the first (its stride), `bytes` in all; its name, the raw pointer the
/// derived class allocates, and the slots' length cells (kWithLengths).
class SlottedMemory {
 public:
  /// Slot i's first byte (i < slots()).
  void* slot(std::size_t i) const noexcept { return static_cast<std::byte*>(data_) + i * stride_; }
  template <class T>
  T* slot_as(std::size_t i) const noexcept {
    return static_cast<T*>(slot(i));
  }
  void* data() const noexcept { return data_; }
  std::size_t slot_bytes() const noexcept { return slot_bytes_; }
  std::size_t slots() const noexcept { return slots_; }
  std::size_t stride() const noexcept { return stride_; }
  std::size_t bytes() const noexcept { return bytes_; }
  const std::string& name() const noexcept { return name_; }
  /// The slots' length cells, in host memory; null unless built with dfg::kWithLengths.
  std::uint64_t* lengths() const noexcept { return lengths_.data(); }

 protected:
  SlottedMemory() noexcept = default;
  /// The layout only: the derived class allocates data_. Throws AllocError when the bytes
  /// overflow a size_t.
  SlottedMemory(std::string_view name, std::size_t slot_bytes, std::size_t slots,
                std::size_t alignment)
      : name_(name), slot_bytes_(slot_bytes), slots_(slots) {
    const std::size_t most = static_cast<std::size_t>(-1);
    if (slot_bytes != 0 && slots != 0 &&
        (slot_bytes > most - alignment || round_up(slot_bytes, alignment) > most / slots))
      throw AllocError(alloc_message(name, most));
    // With no slots, a slot size too large to round up lays out nothing.
    stride_ = slot_bytes > most - alignment ? 0 : round_up(slot_bytes, alignment);
    bytes_ = stride_ * slots;
  }
  void swap(SlottedMemory& o) noexcept {
    std::swap(name_, o.name_);
    std::swap(data_, o.data_);
    std::swap(slot_bytes_, o.slot_bytes_);
    std::swap(slots_, o.slots_);
    std::swap(stride_, o.stride_);
    std::swap(bytes_, o.bytes_);
    std::swap(lengths_, o.lengths_);
  }

  std::string name_;
  void* data_ = nullptr;
  std::size_t slot_bytes_ = 0;
  std::size_t slots_ = 0;
  std::size_t stride_ = 0;
  std::size_t bytes_ = 0;
  SlotLengths lengths_;
};

}  // namespace detail

class HostBuffer : public detail::SlottedMemory {
 public:
  HostBuffer() noexcept = default;

  /// Allocates `slots` zeroed slots of `slot_bytes` bytes each. Throws AllocError.
  HostBuffer(std::string_view name, std::size_t slot_bytes, std::size_t slots = 1)
      : SlottedMemory(name, slot_bytes, slots, detail::kSlotAlignment) {
    data_ =
        std::aligned_alloc(detail::kSlotAlignment, bytes_ == 0 ? detail::kSlotAlignment : bytes_);
    if (data_ == nullptr) throw AllocError(detail::alloc_message(name, bytes_));
    std::memset(data_, 0, bytes_);
  }
  /// The same, and one length cell per slot (a colour of bounded tokens), all zero.
  HostBuffer(std::string_view name, std::size_t slot_bytes, std::size_t slots, WithLengths)
      : HostBuffer(name, slot_bytes, slots) {
    lengths_ = SlotLengths(slots);
  }

  ~HostBuffer() { std::free(data_); }

  HostBuffer(HostBuffer&& o) noexcept { swap(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    HostBuffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
};

}  // namespace dfg
