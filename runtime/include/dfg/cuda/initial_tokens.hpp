/// \file
/// dfg::fill_initial_tokens for a GPU's input (dfg/initial_tokens.hpp): the tokens are built in
/// host memory and copied into each slot of the device buffer.
///
/// Guarantees: start-up only, on the thread that owns the device; allocates the host copy of one
/// token; throws dfg::CudaError when a copy fails.
#pragma once

#include <cstddef>
#include <vector>

#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/initial_tokens.hpp"

namespace dfg {

template <class T>
void fill_initial_tokens(const DeviceBuffer& buffer, std::size_t elements, T value) {
  DeviceGuard guard(buffer.device());
  const std::vector<T> token(elements, value);
  for (std::size_t i = 0; i < buffer.slots(); ++i)
    DFG_CUDA_CHECK(
        cudaMemcpy(buffer.slot(i), token.data(), elements * sizeof(T), cudaMemcpyHostToDevice),
        "copy the initial tokens of " + buffer.name());
}

/// Initial token j is built in host memory by `fill(j, token, elements)`, then copied to slot j.
template <class T, class Fill>
void fill_initial_tokens_with(const DeviceBuffer& buffer, std::size_t elements, Fill&& fill) {
  DeviceGuard guard(buffer.device());
  std::vector<T> token(elements);
  for (std::size_t i = 0; i < buffer.slots(); ++i) {
    fill(i, token.data(), elements);
    DFG_CUDA_CHECK(
        cudaMemcpy(buffer.slot(i), token.data(), elements * sizeof(T), cudaMemcpyHostToDevice),
        "copy the initial tokens of " + buffer.name());
  }
}

}  // namespace dfg
