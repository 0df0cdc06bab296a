// GPU implementations of test/generated/stream_end.dfg's two stages.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void stream_end_add(const std::int64_t* x, const std::int64_t* t,
                                      std::int64_t* y, std::size_t n) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) y[k] = x[k] + t[k];
}

static __global__ void stream_end_scale(const std::int64_t* y, std::int64_t* z, std::size_t n) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) z[k] = 2 * y[k];
}

struct AddGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, const std::int64_t* t, std::int64_t* y,
            dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    stream_end_add<<<static_cast<unsigned>((n + 127) / 128), 128, 0, ctx.stream()>>>(x, t, y, n);
  }
};

struct ScaleGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* y, std::int64_t* z, dfg::Context& ctx) const {
    const std::size_t n = ctx.elements(0);
    stream_end_scale<<<static_cast<unsigned>((n + 127) / 128), 128, 0, ctx.stream()>>>(y, z, n);
  }
};
