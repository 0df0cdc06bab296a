// The low-pass filter's taps: a triangle, h[t] = min(t + 1, 64 - t), t = 0 .. 63, gain 1 / 1024.
#pragma once

#if defined(__CUDACC__) || defined(__CUDA__)  // nvcc, or Clang reading CUDA
#define DECIMATE_HD __host__ __device__
#else
#define DECIMATE_HD
#endif

constexpr int kDecimateTaps = 64;

DECIMATE_HD inline float decimate_tap(int t) {
  return static_cast<float>(t + 1 < kDecimateTaps - t ? t + 1 : kDecimateTaps - t);
}
