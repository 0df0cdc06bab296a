// The dynamic actors of the decoder on a GPU: the same actions and guards as actors/stages.hpp,
// with `__device__ bool step` on dfg::GpuIn and dfg::GpuOut. Each step runs on one thread of its
// block in the island's kernel; the cosine table goes to the device inside the actor, filled on
// the host by init() before the island copies its actors there. RowsParallel and
// ColumnsParallel (parallel_gpu.dfg) are the two passes as parallel actions: one firing is one
// 8x8 block, and the island fires as many blocks at once as its rings allow, one a thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dfg/context.hpp"
#include "dfg/cuda/gpu_ports.hpp"
#include "idct.hpp"

/// Run-length decoding into 64 coefficients a block (actors/stages.hpp, Parse).
struct ParseGpu {
  std::int32_t pos = 0;    // coefficients of the current block given
  std::int32_t zeros = 0;  // zeros to give
  bool pending = false;
  std::int32_t value = 0;

  __device__ bool step(dfg::GpuIn<std::int32_t> code, dfg::GpuOut<std::int32_t> coef) {
    if (zeros > 0 || pending) {
      if (coef.room() < 1) return false;
      if (zeros > 0) {
        coef.push(0);
        --zeros;
      } else {
        coef.push(value);
        pending = false;
      }
      ++pos;
      return true;
    }
    if (code.available() < 1) return false;
    auto head = code.peek(2);
    if (head[0] == idct::kPad) {
      code.release(1);
      return true;
    }
    if (head[0] == idct::kEob) {
      code.release(1);
      zeros = 64 - pos;
      pos = -zeros;  // back to 0 once they are given
      return true;
    }
    if (head.size() < 2) return false;
    zeros = head[0];
    value = head[1];
    pending = true;
    code.release(2);
    return true;
  }
};

/// One IDCT pass on a whole block of 64 (idct::pass), with the table the actor holds.
struct GpuPass {
  std::int32_t c[8][8];

  void init(dfg::Context&) {
    for (int k = 0; k < 8; ++k)
      for (int n = 0; n < 8; ++n) c[k][n] = idct::table()[k][n];
  }
  __device__ bool fire(dfg::GpuIn<std::int32_t>& in, dfg::GpuOut<std::int32_t>& out,
                       std::size_t within, std::size_t between, bool clamp) const {
    if (in.available() < 64 || out.room() < 64) return false;
    std::int32_t a[64];
    auto block = in.peek(64);
    for (std::size_t i = 0; i < 64; ++i) a[i] = block[i];
    in.release(64);
    transform(a, out.reserve(64), within, between, clamp);
    out.commit(64);
    return true;
  }
  /// The pass of one block from `a` (64 coefficients) into `slots` (64 slots).
  template <class Coefficients>
  __device__ void transform(const Coefficients& a, dfg::RingSpan<std::int32_t> slots,
                            std::size_t within, std::size_t between, bool clamp) const {
    for (std::size_t v = 0; v < 8; ++v)
      for (std::size_t n = 0; n < 8; ++n) {
        std::int64_t acc = 0;
        for (std::size_t k = 0; k < 8; ++k)
          acc += std::int64_t{c[k][n]} * a[v * between + k * within];
        std::int32_t x = static_cast<std::int32_t>((acc + 4096) >> 13);
        if (clamp) x = x + 128 < 0 ? 0 : x + 128 > 255 ? 255 : x + 128;
        slots[v * between + n * within] = x;
      }
  }
};

struct RowsGpu {
  GpuPass pass;
  void init(dfg::Context& ctx) { pass.init(ctx); }
  __device__ bool step(dfg::GpuIn<std::int32_t> in, dfg::GpuOut<std::int32_t> out) {
    return pass.fire(in, out, 1, 8, false);
  }
};

struct ColumnsGpu {
  GpuPass pass;
  void init(dfg::Context& ctx) { pass.init(ctx); }
  __device__ bool step(dfg::GpuIn<std::int32_t> in, dfg::GpuOut<std::int32_t> out) {
    return pass.fire(in, out, 8, 1, true);
  }
};

/// The row pass as a parallel action (`parallel (in 64, out 64)`): each call is one firing, one
/// block of 64 in and 64 out, on its own thread; const, as the firings of a batch run at once.
struct RowsParallel {
  GpuPass pass;
  void init(dfg::Context& ctx) { pass.init(ctx); }
  __device__ void fire(dfg::RingSpan<const std::int32_t> in, dfg::RingSpan<std::int32_t> out) const {
    pass.transform(in, out, 1, 8, false);
  }
};

struct ColumnsParallel {
  GpuPass pass;
  void init(dfg::Context& ctx) { pass.init(ctx); }
  __device__ void fire(dfg::RingSpan<const std::int32_t> in, dfg::RingSpan<std::int32_t> out) const {
    pass.transform(in, out, 8, 1, true);
  }
};
