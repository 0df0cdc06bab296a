// Stress test and benchmark of the FIFO rings of dfg/cuda/mapped_fifo.hpp on one GPU.
//
// For tokens of 4, 64 and 512 bytes it streams millions of tokens, every token a function of its
// sequence number and checked on arrival, through:
//   g2c mapped   a producer kernel (one block of 256 threads, block_reserve/block_commit) ->
//                MappedFifo -> a consumer CPU thread
//   c2g mapped   a producer CPU thread -> MappedFifo -> a consumer kernel (one block, block_peek)
//   g2g device   producer kernel -> DeviceFifo -> consumer kernel, on two streams of one GPU
//   g2c copy-N   the mirrored-buffer design: per batch of N tokens a producer kernel writes a
//                device buffer and cudaMemcpyAsync brings it to pinned host memory, where the CPU
//                checks it; two buffers, so the CPU checks batch k while the GPU does k + 1
//   c2g copy-N   the same the other way: the CPU fills a pinned batch, cudaMemcpyAsync, a check
//                kernel (one block) reads the device copy
// and prints tokens/s, GB/s and the ratio mapped / copy per direction and token size. Exits 1 on
// any wrong token or a run over its deadline.
//
// Build: nvcc -std=c++20 -O2 -arch=sm_90 -I runtime/include bench/fifo/fifo_bench.cu -o fifo_bench
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/mapped_fifo.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr std::size_t kRingTokens = 4096;
constexpr double kDeadlineSeconds = 20.0;

template <int B>
struct Tok {
  std::uint32_t w[B / 4];
};

template <int B>
__host__ __device__ inline std::uint32_t word(std::uint64_t seq, int k) {
  return static_cast<std::uint32_t>(seq) * 2654435761u + static_cast<std::uint32_t>(k) * 40503u +
         static_cast<std::uint32_t>(seq >> 32);
}
template <int B>
__host__ __device__ inline void make(Tok<B>& t, std::uint64_t seq) {
  for (int k = 0; k < B / 4; ++k) t.w[k] = word<B>(seq, k);
}
template <int B>
__host__ __device__ inline bool ok(const Tok<B>& t, std::uint64_t seq) {
  bool good = true;
  for (int k = 0; k < B / 4; ++k) good &= t.w[k] == word<B>(seq, k);
  return good;
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  std::exit(1);
}

// --- kernels over the rings ---

template <int B, cuda::thread_scope S>
__global__ void produce(dfg::RingRef<Tok<B>, S> out, std::uint64_t total) {
  std::uint64_t next = 0;
  while (next < total) {
    const std::size_t want =
        total - next < kThreads ? static_cast<std::size_t>(total - next) : kThreads;
    const auto slots = out.block_reserve(want);
    if (slots.empty()) {
      __nanosleep(32);
      continue;
    }
    if (threadIdx.x < slots.size()) make<B>(slots[threadIdx.x], next + threadIdx.x);
    out.block_commit(slots.size());
    next += slots.size();
  }
  if (threadIdx.x == 0) out.close();
}

// result[0]: wrong tokens, result[1]: tokens received.
template <int B, cuda::thread_scope S>
__global__ void consume(dfg::RingRef<Tok<B>, S> in, unsigned long long* result) {
  std::uint64_t next = 0;
  unsigned long long errors = 0;
  for (;;) {
    const auto batch = in.block_peek(kThreads);
    if (batch.empty()) {
      if (in.block_drained()) break;
      __nanosleep(32);
      continue;
    }
    if (threadIdx.x < batch.size() && !ok<B>(batch[threadIdx.x], next + threadIdx.x)) ++errors;
    in.block_release(batch.size());
    next += batch.size();
  }
  if (errors != 0) atomicAdd(&result[0], errors);
  if (threadIdx.x == 0) result[1] = next;
}

// --- kernels of the mirrored design ---

template <int B>
__global__ void produce_batch(Tok<B>* out, std::uint64_t first, std::size_t n) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) make<B>(out[i], first + i);
}
template <int B>
__global__ void check_batch(const Tok<B>* in, std::uint64_t first, std::size_t n,
                            unsigned long long* errors) {
  unsigned long long e = 0;
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) e += ok<B>(in[i], first + i) ? 0 : 1;
  if (e != 0) atomicAdd(errors, e);
}

struct Result {
  std::string mode;
  int bytes;
  std::uint64_t tokens;
  double seconds;
};

void report(std::vector<Result>& all, const char* mode, int bytes, std::uint64_t tokens, double s) {
  all.push_back({mode, bytes, tokens, s});
  std::printf("%-12s %4d B %10llu tokens %8.4f s %9.2f Mtok/s %7.3f GB/s\n", mode, bytes,
              static_cast<unsigned long long>(tokens), s, tokens / s / 1e6,
              tokens * double(bytes) / s / 1e9);
  std::fflush(stdout);
}

struct DeviceCounters {
  unsigned long long* d = nullptr;
  DeviceCounters() {
    DFG_CUDA_CHECK(cudaMalloc(&d, 2 * sizeof(unsigned long long)), "malloc counters");
  }
  ~DeviceCounters() { static_cast<void>(cudaFree(d)); }
  void clear() {
    DFG_CUDA_CHECK(cudaMemset(d, 0, 2 * sizeof(unsigned long long)), "clear counters");
    DFG_CUDA_CHECK(cudaDeviceSynchronize(),
                   "clear counters");  // non-blocking streams do not wait for it
  }
  std::pair<unsigned long long, unsigned long long> get() const {
    unsigned long long h[2] = {};
    DFG_CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), "read counters");
    return {h[0], h[1]};
  }
};

void wait_stream(cudaStream_t s, Clock::time_point t0, const char* what) {
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
    if (seconds_since(t0) > kDeadlineSeconds) fail(std::string(what) + ": over the deadline");
    std::this_thread::yield();
  }
  DFG_CUDA_CHECK(cudaStreamSynchronize(s), what);
}

template <int B>
double g2c_mapped(std::uint64_t total, cudaStream_t s) {
  dfg::MappedFifo<Tok<B>> fifo("g2c", kRingTokens);
  const auto host = fifo.host();
  const auto t0 = Clock::now();
  produce<B, cuda::thread_scope_system><<<1, kThreads, 0, s>>>(fifo.device(), total);
  DFG_CUDA_CHECK(cudaGetLastError(), "launch produce");
  std::uint64_t next = 0, errors = 0;
  while (!host.drained()) {
    const auto in = host.peek(kRingTokens);
    for (std::size_t i = 0; i < in.size(); ++i) errors += ok<B>(in[i], next + i) ? 0 : 1;
    host.release(in.size());
    next += in.size();
    if (in.empty() && seconds_since(t0) > kDeadlineSeconds) fail("g2c mapped: over the deadline");
  }
  const double t = seconds_since(t0);
  wait_stream(s, t0, "g2c mapped");
  if (errors != 0 || next != total)
    fail("g2c mapped: " + std::to_string(errors) + " wrong tokens, " + std::to_string(next) +
         " of " + std::to_string(total));
  return t;
}

template <int B>
double c2g_mapped(std::uint64_t total, cudaStream_t s, DeviceCounters& counters) {
  dfg::MappedFifo<Tok<B>> fifo("c2g", kRingTokens);
  const auto host = fifo.host();
  counters.clear();
  const auto t0 = Clock::now();
  consume<B, cuda::thread_scope_system><<<1, kThreads, 0, s>>>(fifo.device(), counters.d);
  DFG_CUDA_CHECK(cudaGetLastError(), "launch consume");
  std::uint64_t next = 0;
  while (next < total) {
    const std::uint64_t left = total - next;
    const auto out = host.reserve(left < 1024 ? static_cast<std::size_t>(left) : 1024);
    for (std::size_t i = 0; i < out.size(); ++i) make<B>(out[i], next + i);
    host.commit(out.size());
    next += out.size();
    if (out.empty() && seconds_since(t0) > kDeadlineSeconds) fail("c2g mapped: over the deadline");
  }
  host.close();
  wait_stream(s, t0, "c2g mapped");
  const double t = seconds_since(t0);
  const auto [errors, received] = counters.get();
  if (errors != 0 || received != total)
    fail("c2g mapped: " + std::to_string(errors) + " wrong tokens, " + std::to_string(received) +
         " of " + std::to_string(total));
  return t;
}

template <int B>
double g2g_device(std::uint64_t total, cudaStream_t s1, cudaStream_t s2, DeviceCounters& counters) {
  dfg::DeviceFifo<Tok<B>> fifo(0, "g2g", kRingTokens);
  counters.clear();
  const auto t0 = Clock::now();
  consume<B, cuda::thread_scope_device><<<1, kThreads, 0, s2>>>(fifo.device(), counters.d);
  produce<B, cuda::thread_scope_device><<<1, kThreads, 0, s1>>>(fifo.device(), total);
  DFG_CUDA_CHECK(cudaGetLastError(), "launch g2g");
  wait_stream(s1, t0, "g2g producer");
  wait_stream(s2, t0, "g2g consumer");
  const double t = seconds_since(t0);
  const auto [errors, received] = counters.get();
  if (errors != 0 || received != total)
    fail("g2g device: " + std::to_string(errors) + " wrong tokens, " + std::to_string(received) +
         " of " + std::to_string(total));
  return t;
}

template <int B>
double g2c_copy(std::uint64_t total, std::size_t batch, cudaStream_t s) {
  Tok<B>* dev[2] = {};
  Tok<B>* host[2] = {};
  cudaEvent_t done[2] = {};
  for (int k = 0; k < 2; ++k) {
    DFG_CUDA_CHECK(cudaMalloc(&dev[k], batch * sizeof(Tok<B>)), "malloc");
    DFG_CUDA_CHECK(cudaHostAlloc(&host[k], batch * sizeof(Tok<B>), cudaHostAllocDefault),
                   "host alloc");
    DFG_CUDA_CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming), "event");
  }
  const std::uint64_t batches = (total + batch - 1) / batch;
  auto enqueue = [&](std::uint64_t b) {
    const int k = static_cast<int>(b % 2);
    const std::uint64_t first = b * batch;
    const std::size_t n = static_cast<std::size_t>(total - first < batch ? total - first : batch);
    produce_batch<B><<<1, kThreads, 0, s>>>(dev[k], first, n);
    DFG_CUDA_CHECK(cudaMemcpyAsync(host[k], dev[k], n * sizeof(Tok<B>), cudaMemcpyDeviceToHost, s),
                   "copy");
    DFG_CUDA_CHECK(cudaEventRecord(done[k], s), "record");
  };
  const auto t0 = Clock::now();
  std::uint64_t errors = 0;
  enqueue(0);
  for (std::uint64_t b = 0; b < batches; ++b) {
    const int k = static_cast<int>(b % 2);
    DFG_CUDA_CHECK(cudaEventSynchronize(done[k]), "wait batch");
    if (b + 1 < batches) enqueue(b + 1);  // the other buffer: free since batch b - 1 was checked
    const std::uint64_t first = b * batch;
    const std::size_t n = static_cast<std::size_t>(total - first < batch ? total - first : batch);
    for (std::size_t i = 0; i < n; ++i) errors += ok<B>(host[k][i], first + i) ? 0 : 1;
  }
  const double t = seconds_since(t0);
  for (int k = 0; k < 2; ++k) {
    static_cast<void>(cudaFree(dev[k]));
    static_cast<void>(cudaFreeHost(host[k]));
    static_cast<void>(cudaEventDestroy(done[k]));
  }
  if (errors != 0) fail("g2c copy: " + std::to_string(errors) + " wrong tokens");
  return t;
}

template <int B>
double c2g_copy(std::uint64_t total, std::size_t batch, cudaStream_t s, DeviceCounters& counters) {
  Tok<B>* dev[2] = {};
  Tok<B>* host[2] = {};
  cudaEvent_t done[2] = {};
  for (int k = 0; k < 2; ++k) {
    DFG_CUDA_CHECK(cudaMalloc(&dev[k], batch * sizeof(Tok<B>)), "malloc");
    DFG_CUDA_CHECK(cudaHostAlloc(&host[k], batch * sizeof(Tok<B>), cudaHostAllocDefault),
                   "host alloc");
    DFG_CUDA_CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming), "event");
  }
  counters.clear();
  const std::uint64_t batches = (total + batch - 1) / batch;
  const auto t0 = Clock::now();
  for (std::uint64_t b = 0; b < batches; ++b) {
    const int k = static_cast<int>(b % 2);
    if (b >= 2)
      DFG_CUDA_CHECK(cudaEventSynchronize(done[k]),
                     "wait batch");  // batch b - 2 copied and checked
    const std::uint64_t first = b * batch;
    const std::size_t n = static_cast<std::size_t>(total - first < batch ? total - first : batch);
    for (std::size_t i = 0; i < n; ++i) make<B>(host[k][i], first + i);
    DFG_CUDA_CHECK(cudaMemcpyAsync(dev[k], host[k], n * sizeof(Tok<B>), cudaMemcpyHostToDevice, s),
                   "copy");
    check_batch<B><<<1, kThreads, 0, s>>>(dev[k], first, n, counters.d);
    DFG_CUDA_CHECK(cudaEventRecord(done[k], s), "record");
  }
  DFG_CUDA_CHECK(cudaStreamSynchronize(s), "c2g copy");
  const double t = seconds_since(t0);
  for (int k = 0; k < 2; ++k) {
    static_cast<void>(cudaFree(dev[k]));
    static_cast<void>(cudaFreeHost(host[k]));
    static_cast<void>(cudaEventDestroy(done[k]));
  }
  if (counters.get().first != 0)
    fail("c2g copy: " + std::to_string(counters.get().first) + " wrong tokens");
  return t;
}

// Loads a kernel now. With lazy module loading (CUDA_MODULE_LOADING=LAZY, the default since CUDA
// 12.2) the first launch of a kernel may wait for the kernels already running: a producer launched
// beside a spinning consumer would never start.
template <class K>
void preload(K* kernel) {
  cudaFuncAttributes attributes{};
  DFG_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel), "load kernel");
}

template <int B>
void run_size(std::uint64_t total, std::vector<Result>& all, cudaStream_t s1, cudaStream_t s2,
              DeviceCounters& counters) {
  preload(produce<B, cuda::thread_scope_system>);
  preload(consume<B, cuda::thread_scope_system>);
  preload(produce<B, cuda::thread_scope_device>);
  preload(consume<B, cuda::thread_scope_device>);
  preload(produce_batch<B>);
  preload(check_batch<B>);
  // Each path: a short warm-up (first touches), not reported, then the measured run.
  static_cast<void>(g2c_mapped<B>(10000, s1));
  report(all, "g2c mapped", B, total, g2c_mapped<B>(total, s1));
  static_cast<void>(c2g_mapped<B>(10000, s1, counters));
  report(all, "c2g mapped", B, total, c2g_mapped<B>(total, s1, counters));
  for (std::size_t batch : {std::size_t{256}, std::size_t{4096}}) {
    const std::string g2c = "g2c copy-" + std::to_string(batch),
                      c2g = "c2g copy-" + std::to_string(batch);
    static_cast<void>(g2c_copy<B>(10000, batch, s1));
    report(all, g2c.c_str(), B, total, g2c_copy<B>(total, batch, s1));
    static_cast<void>(c2g_copy<B>(10000, batch, s1, counters));
    report(all, c2g.c_str(), B, total, c2g_copy<B>(total, batch, s1, counters));
  }
  static_cast<void>(g2g_device<B>(10000, s1, s2, counters));
  report(all, "g2g device", B, total, g2g_device<B>(total, s1, s2, counters));
}

}  // namespace

int main(int argc, char** argv) {
  // --quick: fewer tokens (a smoke run); the default streams 16 M / 4 M / 1 M tokens.
  const std::uint64_t scale = argc > 1 && std::string(argv[1]) == "--quick" ? 16 : 1;
  cudaDeviceProp prop{};
  DFG_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0), "device properties");
  std::printf("device: %s (sm_%d%d), ring %zu tokens, one block of %d threads per GPU end\n",
              prop.name, prop.major, prop.minor, kRingTokens, kThreads);
  std::fflush(stdout);
  cudaStream_t s1 = nullptr, s2 = nullptr;
  DFG_CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
  DFG_CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
  DeviceCounters counters;
  std::vector<Result> all;
  run_size<4>(16'000'000 / scale, all, s1, s2, counters);
  run_size<64>(4'000'000 / scale, all, s1, s2, counters);
  run_size<512>(1'000'000 / scale, all, s1, s2, counters);

  std::map<std::pair<std::string, int>, double> rate;
  for (const Result& r : all) rate[{r.mode, r.bytes}] = r.tokens / r.seconds;
  std::printf("\nratio zero-copy mapped ring / mirrored copies (throughput; > 1: mapped faster)\n");
  for (int bytes : {4, 64, 512}) {
    for (const char* dir : {"g2c", "c2g"}) {
      const double mapped = rate[{std::string(dir) + " mapped", bytes}];
      std::printf("%s %4d B   vs copy-256 %6.2fx   vs copy-4096 %6.2fx\n", dir, bytes,
                  mapped / rate[{std::string(dir) + " copy-256", bytes}],
                  mapped / rate[{std::string(dir) + " copy-4096", bytes}]);
    }
  }
  std::printf("all tokens checked: OK\n");
  return 0;
}
