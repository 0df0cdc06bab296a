/// \file
/// dfg::fill_initial_tokens: the initial tokens of an input fed by an edge with a delay
/// (`f.y -> f.state delay 2 = 0.5;`), one token a slot, every element set to the value. A node
/// reads initial token j in its iteration j < delay, then its producer's tokens (the generated
/// worker chooses the pointer per firing). fill_initial_tokens_with has a function fill them.
///
/// Guarantees: runs at start-up only, on the thread that owns the storage; `buffer` is a host
/// buffer (HostBuffer, PinnedBuffer) or, through dfg/cuda/initial_tokens.hpp, a device buffer.
/// Allocates nothing (the host fill) and throws nothing but what the GPU copy reports.
#pragma once

#include <algorithm>
#include <cstddef>

namespace dfg {

/// Sets every element of every slot of `buffer` (slots of `elements` T each) to `value`.
template <class T, class Buffer>
void fill_initial_tokens(const Buffer& buffer, std::size_t elements, T value) noexcept {
  for (std::size_t i = 0; i < buffer.slots(); ++i)
    std::fill_n(buffer.template slot_as<T>(i), elements, value);
}

/// Fills initial token j of `buffer` (slot j, `elements` T) by `fill(j, token, elements)`: the
/// consumer's member function named after `=` (`delay 2 = fill()`). Throws what `fill` throws.
template <class T, class Buffer, class Fill>
void fill_initial_tokens_with(const Buffer& buffer, std::size_t elements, Fill&& fill) {
  for (std::size_t i = 0; i < buffer.slots(); ++i) fill(i, buffer.template slot_as<T>(i), elements);
}

}  // namespace dfg
