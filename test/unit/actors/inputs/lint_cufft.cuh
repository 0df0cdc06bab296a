// The overlap lint's rules for cuFFT: every line of LintCufft::fire marked "warn" must be
// reported, the others not. Ports: `in a`, `out b` (floats).
#pragma once

#include <cufft.h>
#include <dfg/context.hpp>

struct Plan {
  cufftHandle handle = 0;
};

struct LintCufft {
  cufftHandle forward = 0, inverse = 0;
  Plan plan;
  cudaStream_t own = nullptr;

  void init(dfg::Context& ctx) { cufftSetStream(forward, ctx.stream()); }  // init is not fire

  void fire(const float* a, float* b, dfg::Context& ctx) {
    auto* in = reinterpret_cast<cufftComplex*>(const_cast<float*>(a));
    auto* out = reinterpret_cast<cufftComplex*>(b);
    cufftExecC2C(forward, in, out, CUFFT_FORWARD);  // warn: no stream bound before it
    cufftSetStream(forward, ctx.stream());
    cufftExecC2C(forward, in, out, CUFFT_FORWARD);
    cufftExecC2C(inverse, out, out, CUFFT_INVERSE);  // warn: another plan
    cufftSetStream(inverse, own);                    // warn: other stream
    cufftSetStream(plan.handle, 0);                  // warn: stream 0
    cufftExecR2C(plan.handle, b, out);               // warn: plan.handle bound to stream 0
    run_inverse(out);
  }

  void run_inverse(cufftComplex* out) {
    cufftExecC2C(plan.handle, out, out, CUFFT_INVERSE);  // warn: called from fire, still unbound
  }
};

struct CufftBoundInHelper {
  cufftHandle plan = 0;
  void fire(const float* a, float* b, dfg::Context& ctx) {
    cufftSetStream(plan, ctx.stream());
    exec(a, b);
  }
  void exec(const float* a, float* b) {
    cufftExecR2C(plan, const_cast<float*>(a), reinterpret_cast<cufftComplex*>(b));
  }
};
