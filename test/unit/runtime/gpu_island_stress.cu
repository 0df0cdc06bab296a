// Stress test of dfg::GpuIsland, dfg/cuda/parallel_firing.hpp and the rings under them, on one
// GPU (run by hand or by bench/dynamic/run on a GPU machine, also under compute-sanitizer; CI
// only compiles it, warnings as errors).
//
//   a CPU thread  --mapped-->  widen (GPU, parallel: 3 words in, 2 out)
//                 --device-->  sum (GPU, serial and stateful: 2 in, 1 out, running total)
//                 --mapped-->  a CPU thread that checks every token against the CPU reference
//
// The CPU ends push and pop random batch sizes; the rings are small, so they fill and wrap many
// times; the island ends on the end-of-stream token the producer sends. Then an island whose
// input never ends: wait_for() times out, cancel() stops it and wait() reports the actor.
//
//   gpu_island_stress [tokens]    exit 0: all checks passed
#include "dfg/cpu_partition.hpp"
#include "dfg/cuda/gpu_island.hpp"
#include "dfg/cuda/mapped_fifo.hpp"
#include "dfg/cuda/parallel_firing.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>

namespace {

using SysRing = dfg::RingRef<std::uint32_t, cuda::thread_scope_system>;
using DevRing = dfg::RingRef<std::uint32_t, cuda::thread_scope_device>;

__host__ __device__ std::uint32_t input_word(std::uint64_t k) {
  return static_cast<std::uint32_t>(k * 2654435761u) ^ 0x5bd1e995u;
}

// Three words in, two out: (a + b, b ^ c).
struct WidenAction {
  __host__ __device__ void operator()(std::size_t, dfg::RingSpan<const std::uint32_t> in,
                                      dfg::RingSpan<std::uint32_t> out) const {
    out[0] = in[0] + in[1];
    out[1] = in[1] ^ in[2];
  }
};

struct Widen {
  SysRing in;
  DevRing out;
  __device__ bool step() {
    return dfg::block_fire_parallel(4096, WidenAction{}, dfg::consume(in, 3),
                                    dfg::produce(out, 2)) != 0;
  }
  __device__ bool done() const { return in.drained(); }
  __device__ void close() { out.close(); }
};

// Two words in, one out: the running total of (a * 3 + b); state carried from firing to firing.
struct Sum {
  DevRing in;
  SysRing out;
  std::uint32_t total;
  __device__ bool step() {
    return dfg::block_fire_serial(
               64,
               [this](std::size_t, dfg::RingSpan<const std::uint32_t> i,
                      dfg::RingSpan<std::uint32_t> o) {
                 total += i[0] * 3u + i[1];
                 o[0] = total;
               },
               dfg::consume(in, 2), dfg::produce(out, 1)) != 0;
  }
  __device__ bool done() const { return in.drained(); }
  __device__ void close() { out.close(); }
};

// Never ends: its input is never closed.
struct Forever {
  SysRing in;
  __device__ bool step() {
    return dfg::block_fire_parallel(
               256, [](std::size_t, dfg::RingSpan<const std::uint32_t>) {}, dfg::consume(in, 1)) !=
           0;
  }
  __device__ bool done() const { return in.drained(); }
  __device__ void close() {}
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  std::exit(1);
}

int stream_test(std::uint64_t groups) {
  dfg::MappedFifo<std::uint32_t> to_gpu("cpu -> widen", 3 * 500), to_cpu("sum -> cpu", 300);
  dfg::DeviceFifo<std::uint32_t> between(0, "widen -> sum", 1000);
  dfg::Stream stream(0, "island");
  dfg::GpuIsland island("stress", 0, 256, {"widen", "sum"},
                        Widen{to_gpu.device(), between.device()},
                        Sum{between.device(), to_cpu.device(), 0});
  island.launch(stream.get());

  std::thread producer([&] {
    const SysRing ring = to_gpu.host();
    std::mt19937_64 rng(7);
    const std::uint64_t words = 3 * groups;
    std::uint64_t next = 0;
    while (next < words) {
      const auto slots = ring.reserve(1 + rng() % 700);
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(slots.size(), words - next));
      for (std::size_t i = 0; i < n; ++i) slots[i] = input_word(next + i);
      ring.commit(n);
      next += n;
      if (n == 0) std::this_thread::yield();
    }
    ring.close();
  });

  const SysRing out = to_cpu.host();
  std::mt19937_64 rng(11);
  std::uint64_t received = 0, wrong = 0;
  std::uint32_t total = 0;
  while (!out.drained()) {
    const auto got = out.peek(1 + rng() % 200);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::uint64_t g = received + i;
      const std::uint32_t a = input_word(3 * g), b = input_word(3 * g + 1),
                          c = input_word(3 * g + 2);
      total += (a + b) * 3u + (b ^ c);
      wrong += got[i] == total ? 0 : 1;
    }
    out.release(got.size());
    received += got.size();
    if (got.empty()) std::this_thread::yield();
  }
  producer.join();
  island.wait();
  const Sum sum = island.fetch<1>();
  std::printf(
      "stream: %llu groups, %llu received, %llu wrong; firings widen %llu, sum %llu; total %s\n",
      static_cast<unsigned long long>(groups), static_cast<unsigned long long>(received),
      static_cast<unsigned long long>(wrong), static_cast<unsigned long long>(island.firings(0)),
      static_cast<unsigned long long>(island.firings(1)), sum.total == total ? "ok" : "WRONG");
  if (received != groups || wrong != 0 || sum.total != total)
    fail("stream: tokens lost, reordered or wrong");
  if (!island.ended(0) || !island.ended(1)) fail("stream: an actor did not end");
  return 0;
}

int cancel_test() {
  dfg::MappedFifo<std::uint32_t> never("never closed", 64);
  dfg::Stream stream(0, "forever");
  dfg::GpuIsland island("forever", 0, 64, {"forever"}, Forever{never.device()});
  island.launch(stream.get());
  const SysRing ring = never.host();
  ring.reserve(5);
  ring.commit(5);
  if (island.wait_for(std::chrono::milliseconds(200)))
    fail("cancel: an island with an open input ended");
  island.cancel();
  try {
    island.wait();
  } catch (const dfg::IslandError& e) {
    std::printf("cancel: %s\n", e.what());
    if (ring.available() != 0) fail("cancel: the tokens before the cancel were not consumed");
    return 0;
  }
  fail("cancel: wait() did not report the actor that had not ended");
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t groups = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  try {
    stream_test(groups);
    cancel_test();
  } catch (const std::exception& e) {
    fail(e.what());
  }
  std::printf("gpu_island_stress: ok\n");
  return 0;
}
