// Openings of a 3D volume with growing structuring elements (6-neighbour unit element): opening k
// erodes the volume k times and dilates the result k times; counts[k - 1] is the number of voxels
// left. The eroded volume carries over from one opening to the next, so the head hands the tail
// the volume eroded `last` times.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void morpho_step(const std::uint8_t* in, std::uint8_t* out, int side, bool erode) {
  const std::size_t n = static_cast<std::size_t>(side) * side * side;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int x = static_cast<int>(i % side), y = static_cast<int>(i / side % side);
  const int z = static_cast<int>(i / (static_cast<std::size_t>(side) * side));
  std::uint8_t v = in[i];
  const int dx[6] = {1, -1, 0, 0, 0, 0}, dy[6] = {0, 0, 1, -1, 0, 0}, dz[6] = {0, 0, 0, 0, 1, -1};
  for (int d = 0; d < 6; ++d) {
    const int a = x + dx[d], b = y + dy[d], c = z + dz[d];
    const bool inside = a >= 0 && a < side && b >= 0 && b < side && c >= 0 && c < side;
    const std::uint8_t w = inside ? in[(static_cast<std::size_t>(c) * side + b) * side + a] : 0;
    v = erode ? (w < v ? w : v) : (w > v ? w : v);
  }
  out[i] = v;
}

// One block per z-slice counts its voxels (coalesced reads, a shared-memory reduction); then one
// thread adds the slices up. No atomics, so the count does not depend on the order of the blocks.
static constexpr unsigned kCountThreads = 256;

static __global__ void count_slices(const std::uint8_t* in, int side, long long* per_slice) {
  __shared__ long long partial[kCountThreads];
  const std::size_t plane = static_cast<std::size_t>(side) * side;
  const std::uint8_t* slice = in + blockIdx.x * plane;
  long long count = 0;
  for (std::size_t i = threadIdx.x; i < plane; i += blockDim.x) count += slice[i] != 0;
  partial[threadIdx.x] = count;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) per_slice[blockIdx.x] = partial[0];
}

static __global__ void add_slices(const long long* per_slice, int side, std::int64_t* count) {
  long long total = 0;
  for (int z = 0; z < side; ++z) total += per_slice[z];
  *count = total;
}

/// Scratch volumes and the opening loop shared by the head and the tail.
struct OpeningsBase {
  int first = 1;
  int last = 1;
  std::uint8_t* eroded_ = nullptr;
  std::uint8_t* work_[2] = {nullptr, nullptr};
  long long* per_slice_ = nullptr;
  std::size_t n_ = 0;
  int side_ = 0;

  void init(dfg::Context& ctx) {
    n_ = ctx.elements(0);
    while (static_cast<std::size_t>(side_) * side_ * side_ < n_) ++side_;
    cudaMalloc(&eroded_, n_);
    cudaMalloc(&work_[0], n_);
    cudaMalloc(&work_[1], n_);
    cudaMalloc(&per_slice_, static_cast<std::size_t>(side_) * sizeof(long long));
  }

  void run(const std::uint8_t* start, std::int64_t* counts, dfg::Context& ctx) {
    const unsigned threads = 256, blocks = static_cast<unsigned>((n_ + threads - 1) / threads);
    cudaMemcpyAsync(eroded_, start, n_, cudaMemcpyDeviceToDevice, ctx.stream());
    cudaMemsetAsync(counts, 0, ctx.elements(counts_port()) * sizeof(std::int64_t), ctx.stream());
    for (int k = first; k <= last; ++k) {
      morpho_step<<<blocks, threads, 0, ctx.stream()>>>(eroded_, work_[0], side_, true);
      cudaMemcpyAsync(eroded_, work_[0], n_, cudaMemcpyDeviceToDevice, ctx.stream());
      for (int d = 0; d < k; ++d)
        morpho_step<<<blocks, threads, 0, ctx.stream()>>>(work_[d % 2], work_[(d + 1) % 2], side_,
                                                          false);
      count_slices<<<static_cast<unsigned>(side_), kCountThreads, 0, ctx.stream()>>>(work_[k % 2], side_,
                                                                                     per_slice_);
      add_slices<<<1, 1, 0, ctx.stream()>>>(per_slice_, side_, counts + (k - 1));
    }
  }
  virtual std::size_t counts_port() const = 0;
};

struct OpeningsHead : OpeningsBase {
  void fire(const std::uint8_t* volume, std::uint8_t* eroded, std::int64_t* counts,
            dfg::Context& ctx) {
    run(volume, counts, ctx);
    cudaMemcpyAsync(eroded, eroded_, n_, cudaMemcpyDeviceToDevice, ctx.stream());
  }
  std::size_t counts_port() const override { return 2; }
};

struct OpeningsTail : OpeningsBase {
  void fire(const std::uint8_t* eroded, std::int64_t* counts, dfg::Context& ctx) {
    run(eroded, counts, ctx);
  }
  std::size_t counts_port() const override { return 1; }
};
