/// \file
/// A counted token: the static token of a copied fifo edge between an island on a CPU and one on
/// a GPU (`dfgc compile --fifos=copied`, the comparison of the zero-copy FIFO paper): a count cell
/// of 8 bytes (kCountedHeader<T> elements), then room for the edge's capacity of elements, of
/// which the count are used. The static cycle copies the whole token each iteration (H2D, D2H),
/// so the GPU side can fill the count on the device; the producing island's adapter packs what its
/// ring holds after the cell and sets it, the consuming island's unpacks that many.
///
///     port_a1_s_.begin(a1_s + dfg::kCountedHeader<std::int32_t>, 64);   // producer
///     dfg::set_counted_length(a1_s, port_a1_s_.finish());
///     port_a2_a_.load(a2_a + dfg::kCountedHeader<std::int32_t>, dfg::counted_length(a2_a));
///
/// Guarantees: plain functions on the token's memory, host or device; no allocation, no
/// synchronisation (the static cycle orders the token's writes and reads).
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/detail/ring_span.hpp"

namespace dfg {

/// The elements that the count cell takes at the start of a counted token of T.
template <class T>
inline constexpr std::size_t kCountedHeader = (sizeof(std::uint64_t) + sizeof(T) - 1) / sizeof(T);

/// The elements used in `token`.
template <class T>
DFG_HOST_DEVICE std::uint64_t counted_length(const T* token) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(token);
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[i];
  return n;
}

/// Records that `n` elements of `token` are used.
template <class T>
DFG_HOST_DEVICE void set_counted_length(T* token, std::uint64_t n) {
  auto* bytes = reinterpret_cast<unsigned char*>(token);
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(n >> (8 * i));
}

}  // namespace dfg
