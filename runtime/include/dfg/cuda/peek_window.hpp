/// \file
/// dfg::GpuPeekWindow: dfg::PeekWindow (dfg/peek_window.hpp) of a node on a GPU: its halves in
/// the GPU's memory, each cycle's window filled by one kernel on the node's stream before the
/// node's kernels: the history from the other half, then the block (from the GPU's memory, or
/// from mapped host memory where the block stays there).
///
/// Guarantees: the constructor allocates and fills the halves (at start-up, synchronously:
/// AllocError, CudaError); window() enqueues and returns, throws CudaError for a failed enqueue,
/// and is called by the GPU's worker for cycles j, j + 1, ... in stream order, so each cycle's
/// copies follow the previous cycle's kernels that read the other half. save() (a checkpoint)
/// waits for the stream; restore() copies synchronously before the first window.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/state.hpp"

namespace dfg {

namespace detail {
/// One cycle's window: the `history` tokens before `block` (the end of the other half), then the
/// block, grid-stride. One launch costs less than the two copies it replaces (a copy is a
/// launch of its own when the cycle is not a CUDA graph).
template <class T>
__global__ void peek_window_fill(T* now, const T* before, std::size_t history, const T* block,
                                 std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < history + count; i += stride)
    now[i] = i < history ? before[i] : block[i - history];
}
}  // namespace detail

template <class T>
class GpuPeekWindow {
 public:
  GpuPeekWindow() noexcept = default;
  GpuPeekWindow(int device, std::string_view name, std::size_t block, std::size_t history, T value)
      : buffer_(device, name, (block + history) * sizeof(T), 2), block_(block), history_(history) {
    DeviceGuard guard(device);
    const std::vector<T> half(block + history, value);
    for (std::size_t i = 0; i < 2; ++i)
      DFG_CUDA_CHECK(cudaMemcpy(buffer_.template slot_as<T>(i), half.data(),
                                half.size() * sizeof(T), cudaMemcpyHostToDevice),
                     "fill the history of " + buffer_.name());
  }

  /// Cycle j's window on the device, its fill enqueued on `stream`.
  const T* window(std::int64_t j, const T* block, cudaStream_t stream) {
    T* now = buffer_.template slot_as<T>(static_cast<std::size_t>(j & 1));
    const T* before = buffer_.template slot_as<T>(static_cast<std::size_t>((j + 1) & 1));
    constexpr unsigned threads = 256;
    const std::size_t blocks = (history_ + block_ + threads - 1) / threads;
    detail::peek_window_fill<<<static_cast<unsigned>(std::min<std::size_t>(blocks, 1024)), threads,
                               0, stream>>>(now, before + block_, history_, block, block_);
    DFG_CUDA_CHECK(cudaGetLastError(), "fill the window of " + buffer_.name());
    last_ = j;
    stream_ = stream;
    return now;
  }

  /// A checkpoint (after the window of a cycle, call by call): the history the next cycle
  /// begins with, copied to the host once the stream has made it.
  void save(State& s) const {
    std::vector<T> history(history_);
    DFG_CUDA_CHECK(
        cudaMemcpyAsync(history.data(),
                        buffer_.template slot_as<T>(static_cast<std::size_t>(last_ & 1)) + block_,
                        history_ * sizeof(T), cudaMemcpyDeviceToHost, stream_),
        "copy the history of " + buffer_.name() + " for a checkpoint");
    DFG_CUDA_CHECK(cudaStreamSynchronize(stream_),
                   "copy the history of " + buffer_.name() + " for a checkpoint");
    s.write(history.data(), history_ * sizeof(T));
  }
  /// A restart (before the first window): the history the first cycle begins with, in both
  /// halves.
  void restore(const State& s) {
    std::vector<T> history(history_);
    s.read(history.data(), history_ * sizeof(T));
    DeviceGuard guard(buffer_.device());
    for (std::size_t i = 0; i < 2; ++i)
      DFG_CUDA_CHECK(cudaMemcpy(buffer_.template slot_as<T>(i) + block_, history.data(),
                                history_ * sizeof(T), cudaMemcpyHostToDevice),
                     "restore the history of " + buffer_.name());
  }

 private:
  DeviceBuffer buffer_;
  std::size_t block_ = 0, history_ = 0;
  std::int64_t last_ = -1;         ///< the cycle of the last window
  cudaStream_t stream_ = nullptr;  ///< the stream of the last window
};

}  // namespace dfg
