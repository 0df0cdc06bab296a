// GPU dynamic actors with mistakes (test/errors/actors/step_gpu_*.dfg).
#pragma once

#include <cstdint>

#include "dfg/cuda/gpu_ports.hpp"
#include "dfg/ports.hpp"

// The CPU views on a GPU.
struct StepGpuCpuViews {
  __device__ bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    return x.available() && y.room();
  }
};

// A step the kernel cannot call.
struct StepGpuHost {
  bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y) { return false; }
};

// A member that owns memory: the actor cannot go to the device as bytes.
struct StepGpuNotCopyable {
  int* table = nullptr;
  ~StepGpuNotCopyable() { delete[] table; }
  __device__ bool step(dfg::GpuIn<std::int32_t> x, dfg::GpuOut<std::int32_t> y) { return false; }
};
