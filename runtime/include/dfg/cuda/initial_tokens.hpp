/// \file
/// dfg::fill_initial_tokens for a GPU's input (dfg/initial_tokens.hpp): the tokens are built in
/// host memory and copied into each slot of the device buffer.
///
/// Guarantees: start-up only, on the thread that owns the device; allocates the host copy of one
/// token; throws dfg::CudaError when a copy fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dfg/checkpoint.hpp"
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

/// A restarted run (dfg/checkpoint.hpp): the initial tokens of delayed input `input` are those
/// its checkpoint kept, copied into the device buffer's slots.
inline void restore_initial_tokens(const Checkpoints& checkpoints, std::size_t input,
                                   const DeviceBuffer& buffer) {
  DeviceGuard guard(buffer.device());
  for (std::size_t k = 0; k < buffer.slots(); ++k) {
    const std::byte* saved = checkpoints.restored_token(input, static_cast<std::int64_t>(k));
    if (saved == nullptr) return;
    DFG_CUDA_CHECK(
        cudaMemcpy(buffer.slot(k), saved, checkpoints.token_bytes(input), cudaMemcpyHostToDevice),
        "copy the restarted tokens of " + buffer.name());
  }
}

/// The token of delayed input `input` that a GPU node reads in cycle j (device memory), kept when
/// a checkpoint needs it: copied to the host on the node's stream, after the work that made it.
template <class T>
T* keep_on_device(Checkpoints& checkpoints, std::size_t input, std::int64_t j, T* token,
                  cudaStream_t stream) {
  return checkpoints.keep_with(input, j, token, [&](std::byte* to, std::size_t n) {
    DFG_CUDA_CHECK(
        cudaMemcpyAsync(to, static_cast<const void*>(token), n, cudaMemcpyDefault, stream),
        "copy a delayed token for a checkpoint");
    DFG_CUDA_CHECK(cudaStreamSynchronize(stream), "copy a delayed token for a checkpoint");
  });
}

}  // namespace dfg
