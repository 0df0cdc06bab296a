// The steps of the static pathway on a GPU, with the token layouts of cpu_stages.hpp. The FFTs
// are cuFFT's (plans built in init(), bound to the firing's stream in fire()); every other step
// is one fused kernel or two:
//   RetinaGpu          window (from the 8-bit frame), then the R2C FFT;
//   GaborBankGpu       one kernel writes the 24 filtered full spectra (the mirror half rebuilt
//                      from the half spectrum, 1 / (W H) folded in), then one batched C2C inverse;
//   InteractionsGpu    one kernel: magnitudes, interactions, the 24 maps written and the min, max
//                      and sum of each reduced per block; a one-block kernel finishes the Stats;
//   NormalizationsGpu  one kernel: per map normalisation, Itti's weight and threshold, the sum of
//                      the 24 maps, its min and max per block; a second normalises the sum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>
#include <cufft.h>
#include <dfg/context.hpp>
#include <dfg/cuda/check.hpp>

#include "cpu_stages.hpp"
#include "model.hpp"

namespace saliency {

// The kernels are static: every generated GPU source that includes this header has its own copy.

inline void check_cufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) throw std::runtime_error(std::string("cuFFT: ") + what + ": error " + std::to_string(static_cast<int>(r)));
}

inline constexpr float kTwoPi = 6.2831853f;
inline constexpr int kThreads = 256;
inline constexpr int kReduceBlocks = 264;  // blocks of the reducing kernels (grid-stride loops)

static __global__ void window_kernel(const std::uint8_t* frame, float* image, int w, int h) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const float wx = w > 1 ? 0.5f - 0.5f * cosf(kTwoPi * static_cast<float>(x) / static_cast<float>(w - 1)) : 1.0f;
  const float wy = h > 1 ? 0.5f - 0.5f * cosf(kTwoPi * static_cast<float>(y) / static_cast<float>(h - 1)) : 1.0f;
  const std::size_t i = static_cast<std::size_t>(y) * w + x;
  image[i] = static_cast<float>(frame[i]) * (1.0f / 255.0f) * wx * wy;
}

static __global__ void gabor_kernel(const float2* half_spectrum, float2* maps, int w, int h) {
  const int kx = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), ky = static_cast<int>(blockIdx.y);
  if (kx >= w) return;
  const int half = w / 2 + 1;
  const bool kept = kx < half;
  const float2 s = kept ? half_spectrum[static_cast<std::size_t>(ky) * half + kx]
                        : half_spectrum[static_cast<std::size_t>((h - ky) % h) * half + (w - kx)];
  const std::size_t pixels = static_cast<std::size_t>(w) * h;
  const float scale = 1.0f / static_cast<float>(pixels);
  const float re = s.x * scale, im = kept ? s.y * scale : -s.y * scale;
  const float u = static_cast<float>(signed_bin(kx, w)) / static_cast<float>(w);
  const float v = static_cast<float>(signed_bin(ky, h)) / static_cast<float>(h);
  const std::size_t i = static_cast<std::size_t>(ky) * w + kx;
#pragma unroll
  for (int o = 0; o < kOrientations; ++o) {
    const float theta = kTwoPi / 2 * static_cast<float>(o) / kOrientations;
    const float cs = cosf(theta), sn = sinf(theta);
#pragma unroll
    for (int j = 0; j < kFrequencies; ++j) {
      const float g = gabor(u, v, cs, sn, centre(j));
      maps[(o * kFrequencies + j) * pixels + i] = float2{re * g, im * g};
    }
  }
}

__device__ inline float warp_min(float v) {
  for (int d = 16; d > 0; d /= 2) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
__device__ inline float warp_max(float v) {
  for (int d = 16; d > 0; d /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
__device__ inline float warp_sum(float v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// partials[block][m][0..2] = min, max, sum of map m over the block's pixels.
static __global__ void __launch_bounds__(kThreads) interactions_kernel(const float2* maps, float* energy, float* partials,
                                                                std::size_t n) {
  float low[kMaps], high[kMaps], sum[kMaps];
#pragma unroll
  for (int m = 0; m < kMaps; ++m) low[m] = 1e30f, high[m] = -1e30f, sum[m] = 0.0f;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float e[kMaps];
#pragma unroll
    for (int m = 0; m < kMaps; ++m) {
      const float2 c = maps[m * n + i];
      e[m] = sqrtf(c.x * c.x + c.y * c.y);
    }
    float same_band[kFrequencies];
#pragma unroll
    for (int j = 0; j < kFrequencies; ++j) {
      same_band[j] = 0.0f;
#pragma unroll
      for (int o = 0; o < kOrientations; ++o) same_band[j] += e[o * kFrequencies + j];
    }
#pragma unroll
    for (int m = 0; m < kMaps; ++m) {
      const int j = m % kFrequencies;
      float v = e[m];
      if (j > 0) v += kExcite * e[m - 1];
      if (j + 1 < kFrequencies) v += kExcite * e[m + 1];
      v = fmaxf(0.0f, v - kInhibit * (same_band[j] - e[m]) / (kOrientations - 1));
      energy[m * n + i] = v;
      low[m] = fminf(low[m], v);
      high[m] = fmaxf(high[m], v);
      sum[m] += v;
    }
  }
  __shared__ float block[kThreads / 32][kMaps * 3];
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
#pragma unroll
  for (int m = 0; m < kMaps; ++m) {
    const float a = warp_min(low[m]), b = warp_max(high[m]), c = warp_sum(sum[m]);
    if (lane == 0) block[warp][3 * m] = a, block[warp][3 * m + 1] = b, block[warp][3 * m + 2] = c;
  }
  __syncthreads();
  for (int k = static_cast<int>(threadIdx.x); k < kMaps * 3; k += blockDim.x) {
    float v = block[0][k];
    for (int w = 1; w < kThreads / 32; ++w)
      v = k % 3 == 0 ? fminf(v, block[w][k]) : k % 3 == 1 ? fmaxf(v, block[w][k]) : v + block[w][k];
    partials[blockIdx.x * kMaps * 3 + k] = v;
  }
}

// stats[m] = min, max, sum (in double) of the blocks' partials: one warp a statistic (kMaps * 3
// of them), its lanes over the blocks, then a fixed tree of shuffles (the same sum every run).
inline constexpr int kStatsThreads = 256;
inline constexpr int kStatsBlocks = (kMaps * 3 * 32 + kStatsThreads - 1) / kStatsThreads;

static __global__ void __launch_bounds__(kStatsThreads) stats_kernel(const float* partials, int blocks, float* stats) {
  const int k = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32), lane = static_cast<int>(threadIdx.x % 32);
  if (k >= kMaps * 3) return;
  const int op = k % 3;  // 0: min, 1: max, 2: sum
  double v = op == 0 ? 1e300 : op == 1 ? -1e300 : 0.0;
  for (int b = lane; b < blocks; b += 32) {
    const double p = partials[b * kMaps * 3 + k];
    v = op == 0 ? fmin(v, p) : op == 1 ? fmax(v, p) : v + p;
  }
  for (int d = 16; d > 0; d /= 2) {
    const double o = __shfl_xor_sync(0xffffffffu, v, d);
    v = op == 0 ? fmin(v, o) : op == 1 ? fmax(v, o) : v + o;
  }
  if (lane == 0) {
    stats[(k / 3) * kStats + op] = static_cast<float>(v);
    if (op == 0) stats[(k / 3) * kStats + 3] = 0.0f;
  }
}

// out = the sum over the maps of the thresholded, weighted, normalised maps; partials[block] =
// its min and max over the block's pixels.
static __global__ void __launch_bounds__(kThreads) fuse_kernel(const float* energy, const float* stats, float* out,
                                                        float* partials, std::size_t n) {
  __shared__ float low[kMaps], scale[kMaps], weight[kMaps];
  if (threadIdx.x < kMaps) {
    const int m = static_cast<int>(threadIdx.x);
    const float l = stats[kStats * m], range = stats[kStats * m + 1] - l;
    const float s = range > 0 ? 1.0f / range : 0.0f;
    const float mean = (stats[kStats * m + 2] / static_cast<float>(n) - l) * s;
    low[m] = l, scale[m] = s, weight[m] = (1.0f - mean) * (1.0f - mean);
  }
  __syncthreads();
  float lo = 1e30f, hi = -1e30f;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float s = 0.0f;
#pragma unroll
    for (int m = 0; m < kMaps; ++m) {
      const float v = (energy[m * n + i] - low[m]) * scale[m];
      s += v < kThreshold ? 0.0f : v * weight[m];
    }
    out[i] = s;
    lo = fminf(lo, s), hi = fmaxf(hi, s);
  }
  __shared__ float block[kThreads / 32][2];
  lo = warp_min(lo), hi = warp_max(hi);
  if (threadIdx.x % 32 == 0) block[threadIdx.x / 32][0] = lo, block[threadIdx.x / 32][1] = hi;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kThreads / 32; ++w) lo = fminf(lo, block[w][0]), hi = fmaxf(hi, block[w][1]);
    lo = fminf(block[0][0], lo), hi = fmaxf(block[0][1], hi);
    partials[2 * blockIdx.x] = lo, partials[2 * blockIdx.x + 1] = hi;
  }
}

// out to [0, 1] by the min and max of the fuse kernel's partials (each block reduces them).
static __global__ void __launch_bounds__(kThreads) rescale_kernel(float* out, const float* partials, int blocks, std::size_t n) {
  __shared__ float range[2];
  if (threadIdx.x < 32) {
    float lo = 1e30f, hi = -1e30f;
    for (int b = static_cast<int>(threadIdx.x); b < blocks; b += 32)
      lo = fminf(lo, partials[2 * b]), hi = fmaxf(hi, partials[2 * b + 1]);
    lo = warp_min(lo), hi = warp_max(hi);
    if (threadIdx.x == 0) range[0] = lo, range[1] = hi > lo ? 1.0f / (hi - lo) : 0.0f;
  }
  __syncthreads();
  const float lo = range[0], scale = range[1];
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = (out[i] - lo) * scale;
}

/// A device buffer of `count` T, freed with its owner.
template <class T>
struct DeviceBuffer {
  T* data = nullptr;
  void allocate(std::size_t count, const char* what) {
    DFG_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data), count * sizeof(T)), what);
  }
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data) cudaFree(data);
  }
};

/// A cuFFT plan, destroyed with its owner.
struct FftPlan {
  cufftHandle handle = 0;
  bool made = false;
  FftPlan() = default;
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  ~FftPlan() {
    if (made) cufftDestroy(handle);
  }
};

}  // namespace saliency

/// Hanning window and forward FFT: frame -> half spectrum.
struct RetinaGpu {
  // Scratch and plans that init() sets up: nothing carries from one firing to the next, so
  // the node may run replicas (`@ {A.g0, A.g1}`) or migrate.
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;
  saliency::DeviceBuffer<float> image_;
  saliency::FftPlan plan_;

  void init(dfg::Context& ctx) {
    shape_ = saliency::Shape::of(ctx, "RetinaGpu", 0, 1);
    image_.allocate(shape_.pixels(), "the windowed image");
    saliency::check_cufft(cufftPlan2d(&plan_.handle, shape_.h, shape_.w, CUFFT_R2C), "R2C plan");
    plan_.made = true;
  }

  void fire(const std::uint8_t* frame, float* spectrum, dfg::Context& ctx) const {
    const dim3 grid((static_cast<unsigned>(shape_.w) + saliency::kThreads - 1) / saliency::kThreads,
                    static_cast<unsigned>(shape_.h));
    saliency::window_kernel<<<grid, saliency::kThreads, 0, ctx.stream()>>>(frame, image_.data, shape_.w, shape_.h);
    DFG_CUDA_CHECK(cudaGetLastError(), "window kernel");
    saliency::check_cufft(cufftSetStream(plan_.handle, ctx.stream()), "stream of the R2C plan");
    saliency::check_cufft(cufftExecR2C(plan_.handle, image_.data, reinterpret_cast<cufftComplex*>(spectrum)), "R2C");
  }
};

/// The 24 Gabor filters on the spectrum, then one batched inverse FFT of the 24 maps.
struct GaborBankGpu {
  // Scratch and plans that init() sets up: nothing carries from one firing to the next, so
  // the node may run replicas (`@ {A.g0, A.g1}`) or migrate.
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;
  saliency::FftPlan plan_;

  void init(dfg::Context& ctx) {
    shape_ = saliency::Shape::of(ctx, "GaborBankGpu", 1, 2 * saliency::kMaps);
    int dims[2] = {shape_.h, shape_.w};
    const int pixels = static_cast<int>(shape_.pixels());
    saliency::check_cufft(cufftPlanMany(&plan_.handle, 2, dims, nullptr, 1, pixels, nullptr, 1, pixels, CUFFT_C2C,
                                        saliency::kMaps),
                          "batched C2C plan");
    plan_.made = true;
  }

  void fire(const float* spectrum, float* maps, dfg::Context& ctx) const {
    const dim3 grid((static_cast<unsigned>(shape_.w) + saliency::kThreads - 1) / saliency::kThreads,
                    static_cast<unsigned>(shape_.h));
    auto* out = reinterpret_cast<cufftComplex*>(maps);
    saliency::gabor_kernel<<<grid, saliency::kThreads, 0, ctx.stream()>>>(reinterpret_cast<const float2*>(spectrum),
                                                                           out, shape_.w, shape_.h);
    DFG_CUDA_CHECK(cudaGetLastError(), "Gabor kernel");
    saliency::check_cufft(cufftSetStream(plan_.handle, ctx.stream()), "stream of the C2C plan");
    saliency::check_cufft(cufftExecC2C(plan_.handle, out, out, CUFFT_INVERSE), "inverse C2C");
  }
};

/// The interactions between the 24 maps, and the min, max and sum of each.
struct InteractionsGpu {
  // Scratch and plans that init() sets up: nothing carries from one firing to the next, so
  // the node may run replicas (`@ {A.g0, A.g1}`) or migrate.
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;
  saliency::DeviceBuffer<float> partials_;

  void init(dfg::Context& ctx) {
    shape_ = saliency::Shape::of(ctx, "InteractionsGpu", 1, saliency::kMaps);
    partials_.allocate(static_cast<std::size_t>(saliency::kReduceBlocks) * saliency::kMaps * 3, "the partial stats");
  }

  void fire(const float* maps, float* energy, float* stats, dfg::Context& ctx) const {
    saliency::interactions_kernel<<<saliency::kReduceBlocks, saliency::kThreads, 0, ctx.stream()>>>(
        reinterpret_cast<const float2*>(maps), energy, partials_.data, shape_.pixels());
    saliency::stats_kernel<<<saliency::kStatsBlocks, saliency::kStatsThreads, 0, ctx.stream()>>>(
        partials_.data, saliency::kReduceBlocks, stats);
    DFG_CUDA_CHECK(cudaGetLastError(), "interactions kernels");
  }
};

/// Normalisations, Itti's weight and threshold, fusion of the 24 maps, and the result to [0, 1].
struct NormalizationsGpu {
  // Scratch and plans that init() sets up: nothing carries from one firing to the next, so
  // the node may run replicas (`@ {A.g0, A.g1}`) or migrate.
  static constexpr bool dfg_stateless = true;
  saliency::Shape shape_;
  saliency::DeviceBuffer<float> partials_;

  void init(dfg::Context& ctx) {
    shape_ = saliency::Shape::of(ctx, "NormalizationsGpu", 2, 1);
    partials_.allocate(2 * static_cast<std::size_t>(saliency::kReduceBlocks), "the partial range");
  }

  void fire(const float* energy, const float* stats, float* saliency, dfg::Context& ctx) const {
    saliency::fuse_kernel<<<saliency::kReduceBlocks, saliency::kThreads, 0, ctx.stream()>>>(
        energy, stats, saliency, partials_.data, shape_.pixels());
    saliency::rescale_kernel<<<saliency::kReduceBlocks, saliency::kThreads, 0, ctx.stream()>>>(
        saliency, partials_.data, saliency::kReduceBlocks, shape_.pixels());
    DFG_CUDA_CHECK(cudaGetLastError(), "normalisation kernels");
  }
};
