// The IDCT of the paper's table 2 as a network of GPU actors in one dfg::GpuIsland:
//
//   source (1 coefficient per firing) -> idct (64 in, 64 out: one 8x8 block) -> sink (1 per firing)
//
// over dfg::DeviceFifo rings, all on one GPU. The idct actor fires either serially (thread 0
// of its block runs the firings one after another: the sequential GPU actor) or in parallel
// (n firings on n threads, n from the tokens available and the room downstream:
// dfg::block_fire_parallel). Every output is checked against the CPU reference (the same
// integer IDCT in a plain loop), which is also timed. The parallel network runs a second way, as
// a CUDA graph whose conditional WHILE node relaunches one kernel per actor until every actor has
// ended (run_graph), to compare with the persistent island.
//
//   idct [--blocks N] [--reps R] [--csv FILE]
#include "common.hpp"
#include "idct_block.hpp"

#include "dfg/cuda/gpu_island.hpp"
#include "dfg/cuda/parallel_firing.hpp"
#include "dfg/cuda/stream.hpp"

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using Ring = dfg::RingRef<std::int16_t, cuda::thread_scope_device>;
constexpr std::size_t kBlock = 64;
constexpr unsigned kThreads = 512;
constexpr std::size_t kMaxIdctFirings = 1024;  // two firings per thread and step, at most
constexpr std::size_t kMaxCopyFirings = 16384;

__constant__ std::int32_t kBasisDevice[64];
std::int32_t kBasisHost[64];

void make_basis() {
  idct::make_basis(kBasisHost);
  DFG_CUDA_CHECK(cudaMemcpyToSymbol(kBasisDevice, kBasisHost, sizeof(kBasisHost)), "basis");
}

struct IdctAction {
  __device__ void operator()(std::size_t, dfg::RingSpan<const std::int16_t> in,
                             dfg::RingSpan<std::int16_t> out) const {
    idct::idct_block(in, out, kBasisDevice);
  }
};

struct Source {
  const std::int16_t* input;
  std::uint64_t total;
  std::uint64_t produced;
  Ring out;
  __device__ bool step() {
    const std::uint64_t left = total - produced;
    const std::size_t n = dfg::block_fire_parallel(
        left < kMaxCopyFirings ? static_cast<std::size_t>(left) : kMaxCopyFirings,
        [in = input](std::size_t, dfg::RingSpan<std::int16_t> o) { o[0] = in[o.start()]; },
        dfg::produce(out));
    if (threadIdx.x == 0) produced += n;
    return n != 0;
  }
  __device__ bool done() const { return produced == total; }
  __device__ void close() { out.close(); }
};

template <bool Parallel>
struct Idct {
  Ring in, out;
  __device__ bool step() {
    if constexpr (Parallel)
      return dfg::block_fire_parallel(kMaxIdctFirings, IdctAction{}, dfg::consume(in, kBlock),
                                      dfg::produce(out, kBlock)) != 0;
    else
      return dfg::block_fire_serial(kMaxIdctFirings, IdctAction{}, dfg::consume(in, kBlock),
                                    dfg::produce(out, kBlock)) != 0;
  }
  __device__ bool done() const { return in.drained(); }
  __device__ void close() { out.close(); }
};

struct Sink {
  Ring in;
  std::int16_t* output;
  __device__ bool step() {
    return dfg::block_fire_parallel(
               kMaxCopyFirings,
               [o = output](std::size_t, dfg::RingSpan<const std::int16_t> t) {
                 o[t.start()] = t[0];
               },
               dfg::consume(in)) != 0;
  }
  __device__ bool done() const { return in.drained(); }
  __device__ void close() {}
};

template <bool Parallel>
double run_gpu(const std::int16_t* input, std::int16_t* output, std::uint64_t tokens,
               std::size_t ring_tokens) {
  dfg::DeviceFifo<std::int16_t> a(0, "source -> idct", ring_tokens),
      b(0, "idct -> sink", ring_tokens);
  dfg::Stream stream(0, "idct island");
  dfg::GpuIsland island(Parallel ? "idct parallel" : "idct serial", 0, kThreads,
                        {"source", "idct", "sink"}, Source{input, tokens, 0, a.device()},
                        Idct<Parallel>{a.device(), b.device()}, Sink{b.device(), output});
  const auto t0 = bench::Clock::now();
  island.launch(stream.get());
  if (!island.wait_for(std::chrono::seconds(60))) {
    island.cancel();
    bench::fail(island.name() + ": did not end within 60 s");
  }
  const double s = bench::seconds_since(t0);
  if (island.firings(1) == 0) bench::fail(island.name() + ": idct never fired");
  return s;
}

// --- the same network as a CUDA graph with a conditional WHILE node ---
//
// The body launches one kernel per actor (one block each, no order among them), each stepping its
// actor while it fires, then a one-thread kernel that keeps the loop going until every actor has
// reached the end of its streams. No CPU thread either, but a launch of every actor per round.

template <class A>
__global__ void graph_step(A* actor, int* done) {
  if (*done != 0) return;
  while (actor->step()) __syncthreads();
  if (threadIdx.x == 0 && actor->done()) {
    actor->close();
    *done = 1;
  }
}

__global__ void graph_condition(cudaGraphConditionalHandle loop, const int* done, int actors,
                                unsigned* rounds) {
  int all = 1;
  for (int i = 0; i < actors; ++i) all &= done[i] != 0 ? 1 : 0;
  ++*rounds;
  cudaGraphSetConditional(loop, all != 0 ? 0u : 1u);
}

struct GraphActors {
  Source source;
  Idct<true> idct;
  Sink sink;
  int done[3];
  unsigned rounds;
};

// Seconds from the graph's launch to its end; `rounds` gets the WHILE loop's iterations.
double run_graph(const std::int16_t* input, std::int16_t* output, std::uint64_t tokens,
                 std::size_t ring_tokens, unsigned& rounds) {
  dfg::DeviceFifo<std::int16_t> a(0, "source -> idct", ring_tokens),
      b(0, "idct -> sink", ring_tokens);
  dfg::Stream stream(0, "idct graph");
  const GraphActors host{Source{input, tokens, 0, a.device()},
                         Idct<true>{a.device(), b.device()},
                         Sink{b.device(), output},
                         {0, 0, 0},
                         0};
  GraphActors* dev = nullptr;
  DFG_CUDA_CHECK(cudaMalloc(&dev, sizeof(GraphActors)), "graph actors");
  DFG_CUDA_CHECK(cudaMemcpy(dev, &host, sizeof(GraphActors), cudaMemcpyHostToDevice),
                 "graph actors");

  cudaGraph_t graph = nullptr;
  DFG_CUDA_CHECK(cudaGraphCreate(&graph, 0), "graph");
  cudaGraphConditionalHandle loop{};
  DFG_CUDA_CHECK(cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault),
                 "conditional handle");
  cudaGraphNodeParams while_node{};
  while_node.type = cudaGraphNodeTypeConditional;
  while_node.conditional.handle = loop;
  while_node.conditional.type = cudaGraphCondTypeWhile;
  while_node.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  DFG_CUDA_CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &while_node), "while node");
  cudaGraph_t body = while_node.conditional.phGraph_out[0];

  Source* s = &dev->source;
  Idct<true>* i = &dev->idct;
  Sink* k = &dev->sink;
  int* d0 = &dev->done[0];
  int* d1 = &dev->done[1];
  int* d2 = &dev->done[2];
  int* done = dev->done;
  int actors = 3;
  unsigned* r = &dev->rounds;
  void* source_args[] = {&s, &d0};
  void* idct_args[] = {&i, &d1};
  void* sink_args[] = {&k, &d2};
  void* condition_args[] = {&loop, &done, &actors, &r};
  cudaGraphNode_t steps[3];
  const auto add = [&](cudaGraphNode_t* out, const void* fn, void** args, unsigned threads,
                       const cudaGraphNode_t* deps, std::size_t n) {
    cudaKernelNodeParams p{};
    p.func = const_cast<void*>(fn);
    p.gridDim = dim3(1);
    p.blockDim = dim3(threads);
    p.kernelParams = args;
    DFG_CUDA_CHECK(cudaGraphAddKernelNode(out, body, deps, n, &p), "kernel node");
  };
  add(&steps[0], reinterpret_cast<const void*>(&graph_step<Source>), source_args, kThreads, nullptr,
      0);
  add(&steps[1], reinterpret_cast<const void*>(&graph_step<Idct<true>>), idct_args, kThreads,
      nullptr, 0);
  add(&steps[2], reinterpret_cast<const void*>(&graph_step<Sink>), sink_args, kThreads, nullptr, 0);
  cudaGraphNode_t condition = nullptr;
  add(&condition, reinterpret_cast<const void*>(&graph_condition), condition_args, 1, steps, 3);
  cudaGraphExec_t exec = nullptr;
  DFG_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  DFG_CUDA_CHECK(cudaGraphUpload(exec, stream.get()), "upload");
  DFG_CUDA_CHECK(cudaStreamSynchronize(stream.get()), "upload");

  const auto t0 = bench::Clock::now();
  DFG_CUDA_CHECK(cudaGraphLaunch(exec, stream.get()), "graph launch");
  DFG_CUDA_CHECK(cudaStreamSynchronize(stream.get()), "graph run");
  const double seconds = bench::seconds_since(t0);
  DFG_CUDA_CHECK(cudaMemcpy(&rounds, r, sizeof(unsigned), cudaMemcpyDeviceToHost), "rounds");
  DFG_CUDA_CHECK(cudaGraphExecDestroy(exec), "graph");
  DFG_CUDA_CHECK(cudaGraphDestroy(graph), "graph");
  DFG_CUDA_CHECK(cudaFree(dev), "graph actors");
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t blocks = 1 << 16;
  int reps = 5;
  std::string csv;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--blocks")
      blocks = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (a == "--csv")
      csv = argv[i + 1];
    else
      bench::fail("unknown option " + a);
  }
  try {
    make_basis();
    const std::uint64_t tokens = blocks * kBlock;
    std::vector<std::int16_t> input(tokens), reference(tokens), output(tokens);
    std::mt19937 rng(1);
    for (std::uint64_t k = 0; k < tokens; ++k) input[k] = idct::coefficient(k, rng());
    std::vector<double> cpu;
    for (int r = 0; r < 3; ++r) {
      const auto t0 = bench::Clock::now();
      for (std::uint64_t b = 0; b < blocks; ++b)
        idct::idct_block(input.data() + b * kBlock, reference.data() + b * kBlock, kBasisHost);
      cpu.push_back(bench::seconds_since(t0));
    }
    std::int16_t *d_in = nullptr, *d_out = nullptr;
    DFG_CUDA_CHECK(cudaMalloc(&d_in, tokens * sizeof(std::int16_t)), "input");
    DFG_CUDA_CHECK(cudaMalloc(&d_out, tokens * sizeof(std::int16_t)), "output");
    DFG_CUDA_CHECK(
        cudaMemcpy(d_in, input.data(), tokens * sizeof(std::int16_t), cudaMemcpyHostToDevice),
        "input");
    const std::size_t ring_tokens = 2 * kMaxIdctFirings * kBlock;
    std::vector<double> serial, parallel, graph;
    unsigned rounds = 0;
    for (int r = 0; r < reps; ++r) {
      for (int variant = 0; variant < 3; ++variant) {
        DFG_CUDA_CHECK(cudaMemset(d_out, 0x5a, tokens * sizeof(std::int16_t)),
                       "poison");  // every output written
        DFG_CUDA_CHECK(cudaDeviceSynchronize(), "poison");
        const double s = variant == 0   ? run_gpu<false>(d_in, d_out, tokens, ring_tokens)
                         : variant == 1 ? run_gpu<true>(d_in, d_out, tokens, ring_tokens)
                                        : run_graph(d_in, d_out, tokens, ring_tokens, rounds);
        (variant == 0 ? serial : variant == 1 ? parallel : graph).push_back(s);
        DFG_CUDA_CHECK(
            cudaMemcpy(output.data(), d_out, tokens * sizeof(std::int16_t), cudaMemcpyDeviceToHost),
            "output");
        std::uint64_t wrong = 0;
        for (std::uint64_t k = 0; k < tokens; ++k) wrong += output[k] == reference[k] ? 0 : 1;
        if (wrong != 0)
          bench::fail(std::string("idct ") +
                      (variant == 0   ? "serial"
                       : variant == 1 ? "parallel"
                                      : "graph") +
                      ": " + std::to_string(wrong) + " of " + std::to_string(tokens) +
                      " pixels differ from the CPU reference");
      }
    }
    const double c = bench::median(cpu), s = bench::median(serial), p = bench::median(parallel),
                 g = bench::median(graph);
    std::printf(
        "idct: %llu blocks of 8x8, %d repetitions, every pixel checked against the CPU reference\n",
        static_cast<unsigned long long>(blocks), reps);
    std::printf("  %-34s %10.3f ms  %8.1f Mblocks/s\n", "cpu loop (one thread)", 1e3 * c,
                blocks / c / 1e6);
    std::printf("  %-34s %10.3f ms  %8.1f Mblocks/s\n", "gpu island, idct serial (1 thread)",
                1e3 * s, blocks / s / 1e6);
    std::printf("  %-34s %10.3f ms  %8.1f Mblocks/s\n", "gpu island, idct parallel (n thr.)",
                1e3 * p, blocks / p / 1e6);
    std::printf("  %-34s %10.3f ms  %8.1f Mblocks/s  (%u rounds)\n",
                "gpu graph while-loop, idct parallel", 1e3 * g, blocks / g / 1e6, rounds);
    std::printf(
        "  parallel / serial: %.1fx   parallel / cpu: %.2fx   (paper: gpu parallel / cpu 2.02-2.18x)\n",
        s / p, c / p);
    std::printf("  graph while-loop / persistent island (both parallel): %.2fx the time\n", g / p);
    if (!csv.empty()) {
      FILE* f = std::fopen(csv.c_str(), "w");
      if (f == nullptr) bench::fail("cannot write " + csv);
      std::fprintf(f, "benchmark,variant,blocks,seconds_median\n");
      const auto n = static_cast<unsigned long long>(blocks);
      std::fprintf(
          f, "idct,cpu_loop,%llu,%.6f\nidct,gpu_serial,%llu,%.6f\nidct,gpu_parallel,%llu,%.6f\n", n,
          c, n, s, n, p);
      std::fprintf(f, "idct,gpu_graph_while_parallel,%llu,%.6f\n", n, g);
      std::fclose(f);
    }
    static_cast<void>(cudaFree(d_in));
    static_cast<void>(cudaFree(d_out));
  } catch (const std::exception& e) {
    bench::fail(e.what());
  }
  return 0;
}
