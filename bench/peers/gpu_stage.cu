// GpuStage (gpu_stage.hpp): mapped host memory, one stream, one kernel a firing.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include "gpu_stage.hpp"

namespace peers {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void stage_kernel(const Token* in, Token* out) {
  out->v[threadIdx.x] = in->v[threadIdx.x] + 1;
}

}  // namespace

GpuStage::GpuStage() {
  check(cudaHostAlloc(&in_, sizeof(Token), cudaHostAllocMapped), "cudaHostAlloc");
  check(cudaHostAlloc(&out_, sizeof(Token), cudaHostAllocMapped), "cudaHostAlloc");
  check(cudaHostGetDevicePointer(&device_in_, in_, 0), "cudaHostGetDevicePointer");
  check(cudaHostGetDevicePointer(&device_out_, out_, 0), "cudaHostGetDevicePointer");
  check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
}

GpuStage::~GpuStage() {
  cudaStreamDestroy(stream_);
  cudaFreeHost(in_);
  cudaFreeHost(out_);
}

Token GpuStage::fire(const Token& in) {
  std::memcpy(in_, &in, sizeof(Token));
  stage_kernel<<<1, 8, 0, stream_>>>(device_in_, device_out_);
  check(cudaStreamSynchronize(stream_), "stage kernel");
  Token out;
  std::memcpy(&out, out_, sizeof(Token));
  return out;
}

}  // namespace peers
