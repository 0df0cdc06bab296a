// overlap_ref: the hand-written CUDA reference of the overlap benchmark (the PACCO journal paper,
// section 3 and figure 4), against which bench/harness.py (experiment overlap) measures the
// generated programs.
//
//   --gpus 1:  P (CPU) -> H2D -> Inc (GPU 0) -> D2H -> C (CPU)
//   --gpus 2:  P (CPU) -> H2D -> Inc (GPU 0) -> peer copy -> Inc (GPU 1) -> D2H -> C (CPU)
//
// The actors are the benchmark's own (bench/overlap/actors: Stamp and Probe, which like the
// paper's P and C do almost no processing) and the sample's Inc (samples/overlap/actors), called
// the way the generated program calls them, so the CPU work per token and the kernel's launch
// shape are the same; only the orchestration is written by hand here.
//
// With overlap (the default): pinned double buffers on the host, double buffers on every
// device, and one host thread per role, each owning its stream:
//   producer   fills host_in[k % 2] once the H2D of k-2 has completed;
//   h2d        copies host_in -> gpu0.in on gpu0's input stream, once gpu0's kernel of k-2 has
//              finished reading gpu0.in[k % 2];
//   gpu g      (g > 0) pulls gpu(g-1).out -> gpu g.in with cudaMemcpyPeerAsync on its input
//              stream, then launches Inc on its compute stream once the next stage has finished
//              reading gpu g.out[k % 2];
//   d2h        copies the last gpu's out -> host_out on its own stream once C has released
//              host_out[k % 2];
//   consumer   checks every element of host_out[k % 2] once that D2H has completed.
// Streams wait on each other through events (cudaStreamWaitEvent); the host threads only count
// issued operations (atomics), so H2D of k+1, the kernel of k and D2H of k-1 run at once.
// --cpu-threads 1 runs P and C on one thread (the generated program's single CPU worker): each
// step produces k and consumes k - (2 * gpus + 2), the generated schedule's latency.
//
// --no-overlap: one thread, single buffers, every stage in turn and waited for:
// P, H2D, Inc, [peer copy, Inc,] D2H, C; it also prints each stage's mean time, and that of a
// token's H2D and D2H at once on gpu 0 (measured after the run): the bound of a transfer-bound
// pipeline, which max(H2D, D2H) underestimates when the two directions share the link.
//
// Output: "iteration period: X ms over K iterations (after W warm-up cycles)", the line of the
// generated program's --stats, with the period measured the same way (consumer's iteration ends
// in steady state). Exit status 1 on a bad flag, a CUDA error or a token that fails its check.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <dfg/context.hpp>

#include "inc.cuh"
#include "probe.hpp"
#include "stamp.hpp"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "overlap_ref: error: %s\n", what.c_str());
  std::fflush(stderr);
  std::_Exit(1);  // other threads may be blocked on the GPU or on a counter: do not join them
}

void check_cuda(cudaError_t e, const char* call, int line) {
  if (e != cudaSuccess)
    fail(std::string(call) + " (overlap_ref.cu:" + std::to_string(line) +
         "): " + cudaGetErrorString(e));
}
#define CUDA_CHECK(call) check_cuda((call), #call, __LINE__)

// ---------------------------------------------------------------------------------------------
// Command line

struct Options {
  std::int64_t iterations = 200;
  int nb_loop = 100;
  int n = 2048;
  bool overlap = true;
  int gpus = 1;
  int cpu_threads = 2;
  std::int64_t warmup = 8;
};

const char* const kUsage =
    "usage: overlap_ref [flags]\n"
    "  --iterations N     iterations to run (default 200)\n"
    "  --nb-loop L        the incrementer's load, L >= 5 (default 100; below 5 the series rounds to 0)\n"
    "  --n N              matrix side: N * N floats a token (default 2048: 16 MiB)\n"
    "  --gpus G           1: P -> Inc -> C; 2: P -> Inc@gpu0 -> peer copy -> Inc@gpu1 -> C (default 1)\n"
    "  --no-overlap       run every stage in turn, single buffers, and print each stage's time\n"
    "  --cpu-threads T    2: P and C on their own threads (default); 1: on one thread\n"
    "  --warmup W         first iterations left out of the period (default 8)\n"
    "  --help             print this help\n";

std::int64_t parse_int(std::string_view flag, std::string_view v, std::int64_t lo,
                       std::int64_t hi) {
  std::int64_t x = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size())
    fail(std::string(flag) + ": expected an integer, got '" + std::string(v) + "'");
  if (x < lo || x > hi)
    fail(std::string(flag) + ": " + std::to_string(x) + " is out of range [" + std::to_string(lo) +
         ", " + std::to_string(hi) + "]");
  return x;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int a = 1; a < argc; ++a) {
    std::string_view arg = argv[a];
    std::string_view flag = arg, value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    auto take = [&]() -> std::string_view {
      if (has_value) return value;
      if (a + 1 >= argc) fail(std::string(flag) + ": missing value");
      return argv[++a];
    };
    if (flag == "--help" || flag == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (flag == "--no-overlap" && !has_value) {
      o.overlap = false;
    } else if (flag == "--iterations") {
      o.iterations = parse_int(flag, take(), 1, 100000000);
    } else if (flag == "--nb-loop") {
      o.nb_loop = static_cast<int>(parse_int(flag, take(), 5, 1000000000));
    } else if (flag == "--n") {
      o.n = static_cast<int>(parse_int(flag, take(), 16, 32768));
    } else if (flag == "--gpus") {
      o.gpus = static_cast<int>(parse_int(flag, take(), 1, 2));
    } else if (flag == "--cpu-threads") {
      o.cpu_threads = static_cast<int>(parse_int(flag, take(), 1, 2));
    } else if (flag == "--warmup") {
      o.warmup = parse_int(flag, take(), 0, 100000000);
    } else {
      fail("unknown flag '" + std::string(arg) + "' (see --help)");
    }
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// How many operations of a kind have been issued (or completed, for the CPU roles): a
// monotonic counter other threads wait on.

class Counter {
 public:
  void publish(std::int64_t v) noexcept {
    value_.store(v, std::memory_order_release);
    value_.notify_all();
  }
  void wait_at_least(std::int64_t v) const noexcept {
    for (;;) {
      const std::int64_t now = value_.load(std::memory_order_acquire);
      if (now >= v) return;
      value_.wait(now, std::memory_order_acquire);
    }
  }

 private:
  std::atomic<std::int64_t> value_{0};
};

// ---------------------------------------------------------------------------------------------
// The pipeline's resources

struct Gpu {
  int device = 0;
  cudaStream_t in_stream = nullptr;  // H2D (gpu 0) or the peer copy from the previous gpu
  cudaStream_t compute = nullptr;
  float* in[2] = {nullptr, nullptr};
  float* out[2] = {nullptr, nullptr};
  cudaEvent_t in_done[2] = {nullptr, nullptr};    // in[s] holds the token
  cudaEvent_t kern_done[2] = {nullptr, nullptr};  // out[s] holds the result, in[s] may be reused
  Counter in_issued, kern_issued;
};

struct Pipeline {
  Options opt;
  std::size_t elements = 0;
  std::size_t bytes = 0;
  std::vector<Gpu> gpus;
  float* host_in[2] = {nullptr, nullptr};
  float* host_out[2] = {nullptr, nullptr};
  cudaStream_t d2h_stream = nullptr;  // on the last gpu
  cudaEvent_t d2h_done[2] = {nullptr, nullptr};
  Counter produced, d2h_issued, consumed;
  std::vector<Clock::time_point> iteration_end;  // when C finished iteration k
};

constexpr unsigned kEventFlags = cudaEventDisableTiming;

void set_up(Pipeline& p) {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < p.opt.gpus)
    fail("--gpus " + std::to_string(p.opt.gpus) + ": only " + std::to_string(count) +
         " CUDA device(s) visible");
  const std::size_t n = static_cast<std::size_t>(p.opt.n);
  p.elements = n * n;
  p.bytes = p.elements * sizeof(float);
  p.gpus = std::vector<Gpu>(static_cast<std::size_t>(p.opt.gpus));
  for (int g = 0; g < p.opt.gpus; ++g) {
    Gpu& gpu = p.gpus[static_cast<std::size_t>(g)];
    gpu.device = g;
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaStreamCreateWithFlags(&gpu.in_stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&gpu.compute, cudaStreamNonBlocking));
    for (int s = 0; s < 2; ++s) {
      CUDA_CHECK(cudaMalloc(&gpu.in[s], p.bytes));
      CUDA_CHECK(cudaMalloc(&gpu.out[s], p.bytes));
      CUDA_CHECK(cudaEventCreateWithFlags(&gpu.in_done[s], kEventFlags));
      CUDA_CHECK(cudaEventCreateWithFlags(&gpu.kern_done[s], kEventFlags));
    }
    if (g > 0) {  // peer access both ways, where the link allows it
      int forward = 0, backward = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&forward, g, g - 1));
      CUDA_CHECK(cudaDeviceCanAccessPeer(&backward, g - 1, g));
      if (forward && backward) {
        CUDA_CHECK(cudaDeviceEnablePeerAccess(g - 1, 0));
        CUDA_CHECK(cudaSetDevice(g - 1));
        CUDA_CHECK(cudaDeviceEnablePeerAccess(g, 0));
        CUDA_CHECK(cudaSetDevice(g));
      }
      std::printf("peer access gpu%d <-> gpu%d: %s\n", g - 1, g,
                  forward && backward ? "on" : "off (copies staged by the driver)");
    }
  }
  CUDA_CHECK(cudaSetDevice(p.opt.gpus - 1));
  CUDA_CHECK(cudaStreamCreateWithFlags(&p.d2h_stream, cudaStreamNonBlocking));
  for (int s = 0; s < 2; ++s) {
    CUDA_CHECK(cudaEventCreateWithFlags(&p.d2h_done[s], kEventFlags));
    CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&p.host_in[s]), p.bytes, cudaHostAllocPortable));
    CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&p.host_out[s]), p.bytes, cudaHostAllocPortable));
  }
  p.iteration_end.assign(static_cast<std::size_t>(p.opt.iterations), Clock::time_point{});
}

void tear_down(Pipeline& p) {
  for (Gpu& gpu : p.gpus) {
    CUDA_CHECK(cudaSetDevice(gpu.device));
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int s = 0; s < 2; ++s) {
      CUDA_CHECK(cudaFree(gpu.in[s]));
      CUDA_CHECK(cudaFree(gpu.out[s]));
      CUDA_CHECK(cudaEventDestroy(gpu.in_done[s]));
      CUDA_CHECK(cudaEventDestroy(gpu.kern_done[s]));
    }
    CUDA_CHECK(cudaStreamDestroy(gpu.in_stream));
    CUDA_CHECK(cudaStreamDestroy(gpu.compute));
  }
  CUDA_CHECK(cudaSetDevice(p.opt.gpus - 1));
  for (int s = 0; s < 2; ++s) {
    CUDA_CHECK(cudaEventDestroy(p.d2h_done[s]));
    CUDA_CHECK(cudaFreeHost(p.host_in[s]));
    CUDA_CHECK(cudaFreeHost(p.host_out[s]));
  }
  CUDA_CHECK(cudaStreamDestroy(p.d2h_stream));
}

// ---------------------------------------------------------------------------------------------
// The actors, called as the generated program calls them

class Actors {
 public:
  explicit Actors(const Pipeline& p) : port_elements_{p.elements, p.elements} {
    inc_.nb_loop = p.opt.nb_loop;
    consumer_.increments = p.opt.gpus;  // one increment per gpu
    ctx_.set_node(nullptr, 1, port_elements_, 2);
  }
  Actors(const Actors&) = delete;  // ctx_ points into port_elements_
  Actors& operator=(const Actors&) = delete;
  void produce(std::int64_t k, float* m) {
    ctx_.set_iteration(k);
    producer_.fire(m, ctx_);
  }
  void consume(std::int64_t k, const float* m) {
    ctx_.set_iteration(k);
    try {
      consumer_.fire(m, ctx_);
    } catch (const std::exception& e) {
      fail(std::string("token check failed: ") + e.what());
    }
  }
  void increment(const float* a, float* b, cudaStream_t stream) {
    ctx_.set_stream(stream);
    inc_.fire(a, b, ctx_);
    CUDA_CHECK(cudaGetLastError());
  }

 private:
  std::size_t port_elements_[2];
  dfg::Context ctx_;
  Stamp producer_;
  Inc inc_;
  Probe consumer_;
};

// ---------------------------------------------------------------------------------------------
// With overlap: one thread per role. Iteration k uses slot s = k % 2 of every double buffer.
// An event of slot s is re-recorded for k only after every waiter of its k-2 record has
// enqueued or finished its wait, which the counters guarantee; that is why each wait below
// first waits for the counter of the operation whose event it reads.

void produce_step(Pipeline& p, Actors& actors, std::int64_t k) {
  const int s = static_cast<int>(k % 2);
  if (k >= 2) {  // host_in[s] is free once the H2D of k-2 has completed
    p.gpus[0].in_issued.wait_at_least(k - 1);
    CUDA_CHECK(cudaEventSynchronize(p.gpus[0].in_done[s]));
  }
  actors.produce(k, p.host_in[s]);
  p.produced.publish(k + 1);
}

void consume_step(Pipeline& p, Actors& actors, std::int64_t k) {
  const int s = static_cast<int>(k % 2);
  p.d2h_issued.wait_at_least(k + 1);
  CUDA_CHECK(cudaEventSynchronize(p.d2h_done[s]));
  actors.consume(k, p.host_out[s]);
  p.iteration_end[static_cast<std::size_t>(k)] = Clock::now();
  p.consumed.publish(k + 1);
}

void h2d_role(Pipeline& p) {
  Gpu& g0 = p.gpus[0];
  CUDA_CHECK(cudaSetDevice(g0.device));
  for (std::int64_t k = 0; k < p.opt.iterations; ++k) {
    const int s = static_cast<int>(k % 2);
    p.produced.wait_at_least(k + 1);
    if (k >= 2) {  // g0.in[s] is free once the kernel of k-2 has read it
      g0.kern_issued.wait_at_least(k - 1);
      CUDA_CHECK(cudaStreamWaitEvent(g0.in_stream, g0.kern_done[s], 0));
    }
    CUDA_CHECK(
        cudaMemcpyAsync(g0.in[s], p.host_in[s], p.bytes, cudaMemcpyHostToDevice, g0.in_stream));
    CUDA_CHECK(cudaEventRecord(g0.in_done[s], g0.in_stream));
    g0.in_issued.publish(k + 1);
  }
}

void gpu_role(Pipeline& p, int g) {
  Gpu& gpu = p.gpus[static_cast<std::size_t>(g)];
  const bool last = g + 1 == p.opt.gpus;
  Actors actors(p);
  CUDA_CHECK(cudaSetDevice(gpu.device));
  for (std::int64_t k = 0; k < p.opt.iterations; ++k) {
    const int s = static_cast<int>(k % 2);
    if (g > 0) {  // pull the previous gpu's result into in[s] over the peer link
      Gpu& prev = p.gpus[static_cast<std::size_t>(g - 1)];
      prev.kern_issued.wait_at_least(k + 1);
      CUDA_CHECK(cudaStreamWaitEvent(gpu.in_stream, prev.kern_done[s], 0));
      if (k >= 2)
        CUDA_CHECK(cudaStreamWaitEvent(gpu.in_stream, gpu.kern_done[s], 0));  // in[s] read by k-2
      CUDA_CHECK(cudaMemcpyPeerAsync(gpu.in[s], gpu.device, prev.out[s], prev.device, p.bytes,
                                     gpu.in_stream));
      CUDA_CHECK(cudaEventRecord(gpu.in_done[s], gpu.in_stream));
      gpu.in_issued.publish(k + 1);
    }
    gpu.in_issued.wait_at_least(k + 1);
    CUDA_CHECK(cudaStreamWaitEvent(gpu.compute, gpu.in_done[s], 0));
    if (k >= 2) {  // out[s] is free once the next stage has read the result of k-2
      if (last) {
        p.d2h_issued.wait_at_least(k - 1);
        CUDA_CHECK(cudaStreamWaitEvent(gpu.compute, p.d2h_done[s], 0));
      } else {
        Gpu& next = p.gpus[static_cast<std::size_t>(g + 1)];
        next.in_issued.wait_at_least(k - 1);
        CUDA_CHECK(cudaStreamWaitEvent(gpu.compute, next.in_done[s], 0));
      }
    }
    actors.increment(gpu.in[s], gpu.out[s], gpu.compute);
    CUDA_CHECK(cudaEventRecord(gpu.kern_done[s], gpu.compute));
    gpu.kern_issued.publish(k + 1);
  }
}

void d2h_role(Pipeline& p) {
  Gpu& last = p.gpus.back();
  CUDA_CHECK(cudaSetDevice(last.device));
  for (std::int64_t k = 0; k < p.opt.iterations; ++k) {
    const int s = static_cast<int>(k % 2);
    last.kern_issued.wait_at_least(k + 1);
    CUDA_CHECK(cudaStreamWaitEvent(p.d2h_stream, last.kern_done[s], 0));
    if (k >= 2) p.consumed.wait_at_least(k - 1);  // host_out[s] checked by C for k-2
    CUDA_CHECK(
        cudaMemcpyAsync(p.host_out[s], last.out[s], p.bytes, cudaMemcpyDeviceToHost, p.d2h_stream));
    CUDA_CHECK(cudaEventRecord(p.d2h_done[s], p.d2h_stream));
    p.d2h_issued.publish(k + 1);
  }
}

void run_overlapped(Pipeline& p) {
  const std::int64_t n = p.opt.iterations;
  std::vector<std::thread> threads;
  threads.emplace_back(h2d_role, std::ref(p));
  for (int g = 0; g < p.opt.gpus; ++g) threads.emplace_back(gpu_role, std::ref(p), g);
  threads.emplace_back(d2h_role, std::ref(p));
  if (p.opt.cpu_threads == 2) {
    threads.emplace_back([&p, n] {
      CUDA_CHECK(cudaSetDevice(0));
      Actors actors(p);
      for (std::int64_t k = 0; k < n; ++k) produce_step(p, actors, k);
    });
    threads.emplace_back([&p, n] {
      CUDA_CHECK(cudaSetDevice(p.opt.gpus - 1));
      Actors actors(p);
      for (std::int64_t k = 0; k < n; ++k) consume_step(p, actors, k);
    });
  } else {
    // One CPU worker: step t produces t and consumes t - lag, as the generated schedule does.
    threads.emplace_back([&p, n] {
      CUDA_CHECK(cudaSetDevice(0));
      Actors actors(p);
      const std::int64_t lag = 2 * p.opt.gpus + 2;
      for (std::int64_t t = 0; t < n + lag; ++t) {
        if (t < n) produce_step(p, actors, t);
        if (t >= lag) consume_step(p, actors, t - lag);
      }
    });
  }
  for (std::thread& t : threads) t.join();
}

// ---------------------------------------------------------------------------------------------
// Without overlap: every stage in turn, single buffers, each one timed.

struct StageTimes {
  std::vector<std::string> names;
  std::vector<double> sum_ms;
  void add(std::size_t i, double ms) { sum_ms[i] += ms; }
};

void run_serial(Pipeline& p, StageTimes& times) {
  const int gpus = p.opt.gpus;
  Actors actors(p);
  times.names.push_back("P");
  times.names.push_back("H2D");
  for (int g = 0; g < gpus; ++g) {
    if (g > 0)
      times.names.push_back("peer gpu" + std::to_string(g - 1) + ">gpu" + std::to_string(g));
    times.names.push_back("kernel gpu" + std::to_string(g));
  }
  times.names.push_back("D2H");
  times.names.push_back("C");
  times.sum_ms.assign(times.names.size(), 0.0);

  std::vector<cudaEvent_t> start(static_cast<std::size_t>(gpus)),
      stop(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaEventCreate(&start[static_cast<std::size_t>(g)]));
    CUDA_CHECK(cudaEventCreate(&stop[static_cast<std::size_t>(g)]));
  }
  // Times one asynchronous operation enqueued by `op` on `stream` of gpu g, waiting for it.
  auto timed = [&](int g, cudaStream_t stream, auto op) {
    const auto gi = static_cast<std::size_t>(g);
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaEventRecord(start[gi], stream));
    op();
    CUDA_CHECK(cudaEventRecord(stop[gi], stream));
    CUDA_CHECK(cudaEventSynchronize(stop[gi]));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start[gi], stop[gi]));
    return static_cast<double>(ms);
  };
  auto host_ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };

  for (std::int64_t k = 0; k < p.opt.iterations; ++k) {
    const bool steady = k >= p.opt.warmup;
    std::size_t stage = 0;
    const auto t0 = Clock::now();
    actors.produce(k, p.host_in[0]);
    const double p_ms = host_ms(t0, Clock::now());
    if (steady) times.add(stage, p_ms);
    ++stage;
    Gpu& g0 = p.gpus[0];
    double ms = timed(0, g0.in_stream, [&] {
      CUDA_CHECK(
          cudaMemcpyAsync(g0.in[0], p.host_in[0], p.bytes, cudaMemcpyHostToDevice, g0.in_stream));
    });
    if (steady) times.add(stage, ms);
    ++stage;
    for (int g = 0; g < gpus; ++g) {
      Gpu& gpu = p.gpus[static_cast<std::size_t>(g)];
      if (g > 0) {
        Gpu& prev = p.gpus[static_cast<std::size_t>(g - 1)];
        ms = timed(g, gpu.in_stream, [&] {
          CUDA_CHECK(cudaMemcpyPeerAsync(gpu.in[0], gpu.device, prev.out[0], prev.device, p.bytes,
                                         gpu.in_stream));
        });
        if (steady) times.add(stage, ms);
        ++stage;
      }
      ms = timed(g, gpu.compute, [&] { actors.increment(gpu.in[0], gpu.out[0], gpu.compute); });
      if (steady) times.add(stage, ms);
      ++stage;
    }
    Gpu& last = p.gpus.back();
    ms = timed(last.device, p.d2h_stream, [&] {
      CUDA_CHECK(cudaMemcpyAsync(p.host_out[0], last.out[0], p.bytes, cudaMemcpyDeviceToHost,
                                 p.d2h_stream));
    });
    if (steady) times.add(stage, ms);
    ++stage;
    const auto t1 = Clock::now();
    actors.consume(k, p.host_out[0]);
    p.iteration_end[static_cast<std::size_t>(k)] = Clock::now();
    if (steady) times.add(stage, host_ms(t1, p.iteration_end[static_cast<std::size_t>(k)]));
  }
  // The bound of a transfer-bound pipeline on one GPU: a token in and a token out at once (the
  // two copy engines share the link), measured apart from the iterations above so as not to
  // change their period. The spare slots 1 keep the tokens of the run intact.
  times.names.push_back("H2D+D2H at once");
  times.sum_ms.push_back(0.0);
  Gpu& g0 = p.gpus[0];
  cudaEvent_t fork = nullptr, join = nullptr;
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  for (std::int64_t k = 0; k < p.opt.iterations; ++k) {
    const double ms = timed(0, g0.in_stream, [&] {
      CUDA_CHECK(cudaEventRecord(fork, g0.in_stream));
      CUDA_CHECK(cudaStreamWaitEvent(g0.compute, fork, 0));
      CUDA_CHECK(
          cudaMemcpyAsync(g0.in[1], p.host_in[1], p.bytes, cudaMemcpyHostToDevice, g0.in_stream));
      CUDA_CHECK(
          cudaMemcpyAsync(p.host_out[1], g0.out[1], p.bytes, cudaMemcpyDeviceToHost, g0.compute));
      CUDA_CHECK(cudaEventRecord(join, g0.compute));
      CUDA_CHECK(cudaStreamWaitEvent(g0.in_stream, join, 0));
    });
    if (k >= p.opt.warmup) times.add(times.names.size() - 1, ms);
  }
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(join));
  for (int g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaEventDestroy(start[static_cast<std::size_t>(g)]));
    CUDA_CHECK(cudaEventDestroy(stop[static_cast<std::size_t>(g)]));
  }
}

// One launch of the kernel on every gpu before timing: module loading stays out of the numbers.
void warm_up_kernels(Pipeline& p) {
  Actors actors(p);
  for (Gpu& gpu : p.gpus) {
    CUDA_CHECK(cudaSetDevice(gpu.device));
    CUDA_CHECK(cudaMemsetAsync(gpu.in[0], 0, p.bytes, gpu.compute));
    actors.increment(gpu.in[0], gpu.out[0], gpu.compute);
    CUDA_CHECK(cudaStreamSynchronize(gpu.compute));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Pipeline p;
  p.opt = parse_options(argc, argv);
  const Options& o = p.opt;
  set_up(p);

  std::string names;
  for (int g = 0; g < o.gpus; ++g) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, g));
    names += (g ? ", " : "") + std::string(prop.name);
  }
  std::printf(
      "overlap_ref: %d gpu(s) (%s), n %d (%zu bytes a token), nb_loop %d, %s, cpu threads %d, %lld iterations\n",
      o.gpus, names.c_str(), o.n, p.bytes, o.nb_loop, o.overlap ? "overlap" : "no overlap (serial)",
      o.overlap ? o.cpu_threads : 1, static_cast<long long>(o.iterations));
  std::fflush(stdout);

  warm_up_kernels(p);
  StageTimes stages;
  if (o.overlap)
    run_overlapped(p);
  else
    run_serial(p, stages);
  for (Gpu& gpu : p.gpus) {
    CUDA_CHECK(cudaSetDevice(gpu.device));
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  const std::int64_t first = std::min(o.warmup, o.iterations - 1);
  const std::int64_t last = o.iterations - 1;
  const std::int64_t periods = last - first;
  if (!o.overlap && periods > 0) {
    for (std::size_t i = 0; i < stages.names.size(); ++i)
      std::printf("stage %s: %.4f ms\n", stages.names[i].c_str(),
                  stages.sum_ms[i] / static_cast<double>(periods + 1));
  }
  if (periods > 0) {
    const double period_s =
        std::chrono::duration<double>(p.iteration_end[static_cast<std::size_t>(last)] -
                                      p.iteration_end[static_cast<std::size_t>(first)])
            .count() /
        static_cast<double>(periods);
    std::printf("iteration period: %.3f ms over %lld iterations (after %lld warm-up cycles)\n",
                period_s * 1e3, static_cast<long long>(periods), static_cast<long long>(first));
    std::printf("throughput: %.1f iterations/s, %.2f GB/s a direction\n", 1.0 / period_s,
                static_cast<double>(p.bytes) / period_s / 1e9);
  } else {
    std::printf("iteration period: not measured (too few iterations after the warm-up)\n");
  }
  std::printf("tokens checked: %lld of %lld, every element as expected\n",
              static_cast<long long>(o.iterations), static_cast<long long>(o.iterations));
  tear_down(p);
  return 0;
}
