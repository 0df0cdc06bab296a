// The dynamic actors of the FIR network on a GPU (one_gpu.dfg): the actions and guards of
// actors/fir.hpp, with `__device__ bool step` on dfg::GpuIn and dfg::GpuOut.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/cuda/gpu_ports.hpp"

/// A delay of one sample with two readers: y and next give x[t-1] (0 at t = 0).
struct TapGpu {
  std::int32_t previous = 0;
  __device__ bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y,
                       dfg::GpuOut<std::int32_t> next) {
    if (x.available() < 1 || y.room() < 1 || next.room() < 1) return false;
    y.push(previous);
    next.push(previous);
    previous = x.pop();
    return true;
  }
};

/// A delay of one sample: y gives x[t-1] (0 at t = 0).
struct DelayGpu {
  std::int32_t previous = 0;
  __device__ bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y) {
    if (x.available() < 1 || y.room() < 1) return false;
    y.push(previous);
    previous = x.pop();
    return true;
  }
};

/// y = coef * x, on as many samples as are there and fit.
struct MulGpu {
  int coef = 1;
  __device__ bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y) {
    std::size_t n = x.available();
    if (n > y.room()) n = y.room();
    if (n == 0) return false;
    auto in = x.peek(n);
    auto out = y.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = coef * in[i];
    y.commit(n);
    x.release(n);
    return true;
  }
};

/// s = a + b.
struct AddGpu {
  __device__ bool step(dfg::GpuIn<std::int32_t> a, dfg::GpuIn<std::int32_t> b,
                       dfg::GpuOut<std::int32_t> s) {
    if (a.available() < 1 || b.available() < 1 || s.room() < 1) return false;
    s.push(a.pop() + b.pop());
    return true;
  }
};

/// y = x >> shift; with `bad` > 0 it drops the first sample of that iteration's block.
struct ShiftGpu {
  int shift = 0;
  int bad = 0;
  int block = 0;  // samples per block
  std::int64_t seen = 0;
  __device__ bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y) {
    if (x.available() < 1 || y.room() < 1) return false;
    const std::int32_t v = x.pop();
    if (bad > 0 && seen++ == std::int64_t{bad} * block) return true;
    y.push(v >> shift);
    return true;
  }
};
