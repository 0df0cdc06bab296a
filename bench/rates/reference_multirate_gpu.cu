// The multirate chain on one GPU (samples/multirate/one_gpu.dfg) as a hand-written sequential
// loop: the source on the host fills a pinned block, one copy to the GPU, the sample's GPU actors
// launched in schedule order on one stream, one copy back, a synchronisation, the check on the
// host. The sum is launched once per firing (two a cycle) unless BLOCK is 1 (one launch).
//   reference_multirate_gpu ITERATIONS N BLOCK  ->  "reference: <ms> ms an iteration"
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <dfg/context.hpp>

#include "actors/bank.cuh"
#include "actors/check.hpp"
#include "actors/decimate.cuh"
#include "actors/interpolate.cuh"
#include "actors/source.hpp"
#include "actors/sum.cuh"

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

struct Ctx {
  std::vector<std::size_t> elements;
  dfg::Context ctx;
  Ctx(std::vector<std::size_t> e, std::uint32_t firings, cudaStream_t stream)
      : elements(std::move(e)) {
    ctx.set_node(nullptr, firings, elements.data(), elements.size());
    ctx.set_stream(stream);
    ctx.set_device(0);
  }
  dfg::Context& at(std::int64_t i, std::uint32_t k = 0) {
    ctx.set_iteration(i);
    ctx.set_firing(k);
    return ctx;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t iterations = argc > 1 ? std::atoll(argv[1]) : 10000;
  const std::size_t n = argc > 2 ? static_cast<std::size_t>(std::atoll(argv[2])) : 64;
  const bool block = argc > 3 && std::atoi(argv[3]) == 1;
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "stream");
  float *hx, *hout, *x, *y, *low, *high, *lo2, *hi2, *out;
  check(cudaMallocHost(&hx, 2 * n * sizeof(float)), "host x");
  check(cudaMallocHost(&hout, 2 * n * sizeof(float)), "host out");
  for (float** p : {&x, &lo2, &hi2, &out}) check(cudaMalloc(p, 2 * n * sizeof(float)), "device");
  for (float** p : {&y, &low, &high}) check(cudaMalloc(p, n * sizeof(float)), "device");
  Source s;
  DecimateGpu d;
  BankGpu b;
  InterpolateGpu ul, uh;
  SumGpu m;
  Check k;
  Ctx cs({n}, 2, nullptr), cd({2 * n, n}, 1, stream), cb({n, n, n}, 1, stream),
      cu({n, 2 * n}, 1, stream), ck({2 * n}, 2, nullptr);
  Ctx cm(block ? std::vector<std::size_t>{2 * n, 2 * n, 2 * n} : std::vector<std::size_t>{n, n, n},
         2, stream);
  b.init(cb.ctx);
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < iterations; ++i) {
    for (std::uint32_t f = 0; f < 2; ++f) s.fire(hx + f * n, cs.at(i, f));
    check(cudaMemcpyAsync(x, hx, 2 * n * sizeof(float), cudaMemcpyHostToDevice, stream), "copy in");
    d.fire(x, y, cd.at(i));
    b.fire(y, low, high, cb.at(i));
    ul.fire(low, lo2, cu.at(i));
    uh.fire(high, hi2, cu.at(i));
    if (block)
      m.fire(lo2, hi2, out, cm.at(i));
    else
      for (std::uint32_t f = 0; f < 2; ++f)
        m.fire(lo2 + f * n, hi2 + f * n, out + f * n, cm.at(i, f));
    check(cudaMemcpyAsync(hout, out, 2 * n * sizeof(float), cudaMemcpyDeviceToHost, stream),
          "copy out");
    check(cudaStreamSynchronize(stream), "synchronise");
    k.fire(hout, ck.at(i));
  }
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  std::printf("reference: %.6f ms an iteration\n", took.count() / static_cast<double>(iterations));
  return 0;
}
