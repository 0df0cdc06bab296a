// GPU implementations of test/generated/peek.dfg's two filters: the same windows as the CPU's,
// in the GPU's memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

static __global__ void peek_fir(const std::int64_t* x, std::int64_t* y, std::size_t firings,
                                std::size_t elems) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= firings * elems) return;
  const std::size_t k = i / elems, e = i % elems;
  std::int64_t sum = 0;
  for (std::size_t t = 0; t < 11; ++t) sum += x[(4 * k + t) * elems + e];
  y[i] = sum;
}

static __global__ void peek_diff(const std::int64_t* y, std::int64_t* z, std::size_t elems) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < elems) z[e] = y[e] - 2 * y[elems + e] + 3 * y[2 * elems + e];
}

struct FirGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    const std::size_t firings = ctx.firings(), elems = ctx.elements("y") / firings;
    const auto blocks = static_cast<unsigned>((firings * elems + 127) / 128);
    peek_fir<<<blocks, 128, 0, ctx.stream()>>>(x, y, firings, elems);
  }
};

struct DiffGpu {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* y, std::int64_t* z, dfg::Context& ctx) const {
    const std::size_t elems = ctx.elements("z");
    peek_diff<<<static_cast<unsigned>((elems + 127) / 128), 128, 0, ctx.stream()>>>(y, z, elems);
  }
};
