// The overlap lint: every line of LintStreams::fire marked "warn" must be reported, the others
// not. Ports: `in a`, `out b` (floats).
#pragma once

#include <cuda_runtime.h>
#include <dfg/context.hpp>

__global__ void copy_kernel(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }

struct LintStreams {
  cudaStream_t own = nullptr;

  void fire(const float* a, float* b, dfg::Context& ctx) {
    cudaMemcpyAsync(b, a, 4, cudaMemcpyDeviceToDevice, ctx.stream());
    cudaStream_t s = ctx.stream();
    cudaStream_t t = s;
    cudaMemsetAsync(b, 0, 4, t);
    copy_kernel<<<1, 32, 0, ctx.stream()>>>(a, b);
    copy_kernel<<<1, 32, 0, s>>>(a, b);
    cudaMemcpyAsync(b, a, 4, cudaMemcpyDeviceToDevice);          // warn: no stream
    cudaMemcpyAsync(b, a, 4, cudaMemcpyDeviceToDevice, 0);       // warn: stream 0
    cudaMemsetAsync(b, 0, 4, own);                               // warn: other stream
    cudaMemcpyPeerAsync(b, 1, a, 0, 4, nullptr);                 // warn: stream 0
    cudaLaunchKernel((const void*)copy_kernel, 1, 32, nullptr);  // warn: no stream
    copy_kernel<<<1, 32>>>(a, b);                                // warn: no stream
    copy_kernel<<<1, 32, 0, 0>>>(a, b);                          // warn: stream 0
    copy_kernel<<<1, 32, 0, own>>>(a, b);                        // warn: other stream
    auto* kernel = &copy_kernel;
    kernel<<<1, 32>>>(a, b);                                    // warn: no stream
    auto later = [&] { cudaStreamSynchronize(ctx.stream()); };  // warn: in a lambda
    later();
    clear(b);
    clear(b);
  }

  void clear(float* b) { cudaMemset(b, 0, 4); }  // warn: called from fire

 private:
  void unused(float* b) { cudaMemset(b, 0, 4); }  // not called from fire: not linted
};

__device__ float lint_symbol;

// Every synchronous call the lint knows.
struct LintSync {
  void fire(const float* a, float* b, dfg::Context& ctx) {
    void* p = nullptr;
    std::size_t pitch = 0;
    cudaEvent_t e{};
    cudaMemcpy(b, a, 4, cudaMemcpyDeviceToDevice);
    cudaMemcpy2D(b, 4, a, 4, 4, 1, cudaMemcpyDeviceToDevice);
    cudaMemcpy3D(nullptr);
    cudaMemset(b, 0, 4);
    cudaMemcpyToSymbol(&lint_symbol, a, 4);
    cudaMemcpyFromSymbol(b, &lint_symbol, 4);
    cudaDeviceSynchronize();
    cudaStreamSynchronize(ctx.stream());
    cudaEventSynchronize(e);
    cudaMalloc(&p, 4);
    cudaMallocHost(&p, 4);
    cudaHostAlloc(&p, 4, cudaHostAllocDefault);
    cudaMallocManaged(&p, 4);
    cudaMallocPitch(&p, &pitch, 4, 4);
    cudaFree(p);
    cudaFreeHost(p);
    cudaDeviceReset();
    cudaSetDevice(ctx.device());
  }
};
