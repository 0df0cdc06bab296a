/// \file
/// dfg::RingSpan<T>: a batch of consecutive positions of a power-of-two ring (dfg::Fifo, the
/// rings of dfg/cuda/mapped_fifo.hpp): by index (position start + i, wrapping), or as two
/// contiguous pieces for copies. A view: it owns nothing and synchronises nothing. Usable in
/// host code and, compiled by nvcc, in device code. dfg::fit_firings: how many firings of a
/// parallel action the rings' tokens and room allow (dfg/ports.hpp on a CPU,
/// dfg/cuda/parallel_firing.hpp on a GPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__CUDACC__) || defined(__CUDA__)  // nvcc, or Clang reading CUDA
#define DFG_HOST_DEVICE __host__ __device__
#else
#define DFG_HOST_DEVICE
#endif

namespace dfg {

template <class T>
class RingSpan {
 public:
  RingSpan() = default;
  DFG_HOST_DEVICE RingSpan(T* slots, std::size_t mask, std::uint64_t start, std::size_t count)
      : slots_(slots), mask_(mask), start_(start), count_(count) {}

  /// The number of tokens (reserved slots or peeked tokens); may be less than asked for.
  DFG_HOST_DEVICE std::size_t size() const { return count_; }
  DFG_HOST_DEVICE bool empty() const { return count_ == 0; }
  /// The ring position of element 0; element i is position start() + i.
  DFG_HOST_DEVICE std::uint64_t start() const { return start_; }

  DFG_HOST_DEVICE T& operator[](std::size_t i) const {
    return slots_[static_cast<std::size_t>(start_ + i) & mask_];
  }
  /// Elements [offset, offset + count) of this batch (the caller keeps them inside it).
  DFG_HOST_DEVICE RingSpan sub(std::size_t offset, std::size_t count) const {
    return RingSpan(slots_, mask_, start_ + offset, count);
  }

  /// The contiguous piece from element 0 up to the end of the ring or of the batch, and the
  /// rest (at the beginning of the ring; empty unless the batch wraps).
  DFG_HOST_DEVICE T* first_data() const {
    return slots_ + (static_cast<std::size_t>(start_) & mask_);
  }
  DFG_HOST_DEVICE std::size_t first_size() const {
    const std::size_t to_end = mask_ + 1 - (static_cast<std::size_t>(start_) & mask_);
    return count_ < to_end ? count_ : to_end;
  }
  DFG_HOST_DEVICE T* second_data() const { return slots_; }
  DFG_HOST_DEVICE std::size_t second_size() const { return count_ - first_size(); }

  /// Copies all size() tokens from / to contiguous memory (host code: memcpy of the pieces).
  void copy_from(const std::remove_const_t<T>* src) const {
    static_assert(!std::is_const_v<T>, "dfg::RingSpan: copy_from into read-only tokens");
    const std::size_t n1 = first_size();
    if (n1 != 0) std::memcpy(first_data(), src, n1 * sizeof(T));
    if (count_ > n1) std::memcpy(second_data(), src + n1, (count_ - n1) * sizeof(T));
  }
  void copy_to(std::remove_const_t<T>* dst) const {
    const std::size_t n1 = first_size();
    if (n1 != 0) std::memcpy(dst, first_data(), n1 * sizeof(T));
    if (count_ > n1) std::memcpy(dst + n1, second_data(), (count_ - n1) * sizeof(T));
  }

 private:
  T* slots_ = nullptr;
  std::size_t mask_ = 0;
  std::uint64_t start_ = 0;
  std::size_t count_ = 0;
};

/// Tokens (or free slots) on one port and the tokens one firing takes (or gives) there.
struct PortBudget {
  std::size_t tokens;
  std::size_t rate;
};

/// The number of firings that fit: at most max_n, at most tokens / rate on every port with a
/// non-zero rate.
DFG_HOST_DEVICE constexpr std::size_t fit_firings(std::size_t max_n) { return max_n; }
template <class... B>
DFG_HOST_DEVICE constexpr std::size_t fit_firings(std::size_t max_n, PortBudget first, B... rest) {
  const std::size_t here = first.rate == 0 ? max_n : first.tokens / first.rate;
  return fit_firings(here < max_n ? here : max_n, rest...);
}

}  // namespace dfg
