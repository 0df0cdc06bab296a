/// \file
/// dfg::Bounded: a token of a bounded type (`type Packet = uint8[<= 1500];`) as a firing sees it:
/// the slot's elements, sized at the capacity, and the token's length, which travels with it.
///
///     void fire(dfg::Bounded<const std::uint8_t> in, dfg::Bounded<std::uint8_t> out) {
///       out.resize(in.size() / 2);                // throws dfg::LengthError over the capacity
///       for (std::size_t i = 0; i < out.size(); ++i) out[i] = in[2 * i];
///     }
///
/// The length lives in host memory beside the slot (one cell per slot of the buffer's
/// allocation, dfg::SlotLengths), whatever memory holds the elements: a GPU actor reads and sets
/// it in `fire` on the host, where it enqueues its kernels, and passes it to them; data() is then
/// a device pointer. Transfers copy the length and the used bytes only (H2D, D2H, peer copies,
/// MPI messages, received at the capacity and counted with MPI_Get_count).
///
/// Guarantees: a view is two pointers and a capacity, trivially copyable; nothing blocks or
/// allocates, except resize() beyond the capacity, which throws (allocating its message). A cell
/// is plain memory: which thread may touch which slot's length in which cycle is the schedule's
/// business, exactly as for the slot's elements (dfg/slots.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace dfg {

/// A token's length beyond its type's capacity: what() names the port, the length and the
/// capacity; the generated program adds the node and the iteration.
class LengthError final : public std::length_error {
 public:
  using std::length_error::length_error;
};

/// Tag of a buffer constructor: the allocation also keeps one length cell per slot.
struct WithLengths {};
inline constexpr WithLengths kWithLengths{};

/// One length cell (used bytes) per slot, zeroed: every token starts empty. Host memory.
class SlotLengths {
 public:
  SlotLengths() noexcept = default;
  explicit SlotLengths(std::size_t slots) : cells_(new std::uint64_t[slots == 0 ? 1 : slots]()) {}
  std::uint64_t* data() const noexcept { return cells_.get(); }

 private:
  std::unique_ptr<std::uint64_t[]> cells_;
};

/// A slot of a bounded buffer: its first byte and its length cell (bytes used).
struct SlotToken {
  void* data = nullptr;
  std::uint64_t* used_bytes = nullptr;
};

/// A token copied on the host (a CPU's worker moving a mapped token, dfg/cuda/buffers.hpp): its
/// `bytes` from `src` to `dst`.
inline void copy_token(void* dst, const void* src, std::size_t bytes) noexcept {
  std::memcpy(dst, src, bytes);
}
/// The bytes a bounded token uses, which a copy moves: its length cell, checked. Throws
/// dfg::LengthError where it is over `capacity` (bytes).
inline std::size_t used_bytes(SlotToken src, std::size_t capacity) {
  const std::uint64_t used = *src.used_bytes;
  if (used > capacity) {
    throw LengthError("a token of " + std::to_string(used) + " bytes is over the capacity of " +
                      std::to_string(capacity) + " bytes");
  }
  return static_cast<std::size_t>(used);
}

/// The same for a bounded token: its length cell and its used bytes only. Throws
/// dfg::LengthError where the source's length is over `capacity` (bytes).
inline void copy_token(SlotToken dst, SlotToken src, std::size_t capacity) {
  const std::size_t used = used_bytes(src, capacity);
  *dst.used_bytes = used;
  std::memcpy(dst.data, src.data, used);
}

template <class T>
class Bounded {
 public:
  using value_type = std::remove_const_t<T>;

  Bounded(T* data, std::uint64_t* used_bytes, std::size_t capacity, const char* port) noexcept
      : data_(data), used_(used_bytes), capacity_(capacity), port_(port) {}

  /// The elements (a device pointer on a GPU).
  T* data() const noexcept { return data_; }
  /// The token's length in elements, at most capacity().
  std::size_t size() const noexcept { return static_cast<std::size_t>(*used_ / sizeof(T)); }
  bool empty() const noexcept { return *used_ == 0; }
  /// The most elements a token of the type holds: the slot's size.
  std::size_t capacity() const noexcept { return capacity_; }
  /// The port's name, as the spec declares it.
  const char* port() const noexcept { return port_; }

  T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size(); }

  /// Sets the length of an output token. Throws dfg::LengthError for n > capacity().
  void resize(std::size_t n) const
    requires(!std::is_const_v<T>)
  {
    if (n > capacity_) {
      throw LengthError("output '" + std::string(port_) + "': length " + std::to_string(n) +
                        " is over the capacity " + std::to_string(capacity_) + " of its type");
    }
    *used_ = static_cast<std::uint64_t>(n) * sizeof(T);
  }

 private:
  T* data_;
  std::uint64_t* used_;
  std::size_t capacity_;
  const char* port_;
};

}  // namespace dfg
