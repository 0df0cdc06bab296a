// GPU smoke test of the dfg/cuda runtime (needs a GPU; not part of the CI build):
//   nvcc -std=c++20 -O2 -arch=sm_90 -Iruntime/include test/unit/runtime/cuda_smoke.cu -o cuda_smoke
//   ./cuda_smoke            # P (CPU) -> H2D -> Inc (GPU) -> D2H -> C (CPU), every element checked
//   ./cuda_smoke --fail 17  # a CUDA error at iteration 17: one error line, exit status 1, no hang
// The GPU worker uses three streams joined only by EventRings; the CPU threads never wait for the
// GPU except where they read or overwrite pinned memory that a copy uses.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/event_ring.hpp"
#include "dfg/cuda/gpu_timer.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/stats.hpp"
#include "dfg/trace.hpp"
#include "dfg/worker.hpp"

namespace {

__global__ void inc(const float* a, float* b, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = a[i] + 1.0f;
}

float token(std::int64_t k, std::size_t i) { return static_cast<float>(k % 4096) + static_cast<float>(i % 13); }

}  // namespace

int main(int argc, char** argv) {
  std::int64_t fail_at = -1;
  std::int64_t iterations = 400;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--fail") == 0) fail_at = std::stoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--iterations") == 0) iterations = std::stoll(argv[i + 1]);
  }
  constexpr std::size_t kN = std::size_t{1} << 22;  // 16 MiB tokens
  constexpr std::size_t kBytes = kN * sizeof(float);
  return dfg::main_guard(std::cerr, [&] {
    dfg::Tracer tracer(0, true);
    const int gpu_track = tracer.add_track("A.g0 compute");
    dfg::Stats stats(iterations, 2);
    const int cpu_pe = stats.add_pe("A.cpu");
    const int gpu_pe = stats.add_pe("A.g0");
    const int inc_entry = stats.add_entry("firing", "i1 (Inc)", "A.g0");

    dfg::Stream h2d(0, "A.g0 h2d"), compute(0, "A.g0 compute"), d2h(0, "A.g0 d2h");
    dfg::PinnedBuffer p_m("p.m@A.cpu", kBytes, 2), c_m("c.m@A.cpu", kBytes, 2);
    dfg::DeviceBuffer i1_a(0, "i1.a@A.g0", kBytes, 2), i1_b(0, "i1.b@A.g0", kBytes, 2);
    stats.note_alloc(cpu_pe, p_m.bytes() + c_m.bytes());
    stats.note_alloc(gpu_pe, i1_a.bytes() + i1_b.bytes());
    // p.m: CPU writer, read by the H2D copy; i1.a: H2D writer, read by Inc; i1.b: Inc writer,
    // read by the D2H copy; c.m: D2H writer, read by the CPU.
    dfg::EventRing ring_p(2, -1, {0}), ring_a(2, 0, {0}), ring_b(2, 0, {0}), ring_c(2, 0, {-1});
    dfg::GpuTimer timer(0, compute, 8, tracer.epoch());

    std::int64_t bad = 0, consumed = 0;
    dfg::Workers workers;
    workers.spawn("A.cpu producer", [&](dfg::Where& where) {
      for (std::int64_t k = 0; k < iterations; ++k) {
        where.at("node p (Producer) @ A.cpu", k);
        ring_p.wait_writable_host(k);
        float* out = p_m.slot_as<float>(ring_p.slot(k));
        for (std::size_t i = 0; i < kN; ++i) out[i] = token(k, i);
        ring_p.publish_host(k);
      }
    });
    workers.spawn("A.g0", [&](dfg::Where& where) {
      for (std::int64_t k = 0; k < iterations; ++k) {
        where.at("transfer p.m -> i1.a", k);
        ring_p.wait_readable(0, k, h2d);
        ring_a.wait_writable(k, h2d);
        const std::size_t bytes = k == fail_at ? std::size_t{1} << 40 : kBytes;  // out of bounds
        dfg::copy_async(i1_a.slot(ring_a.slot(k)), p_m.slot(ring_p.slot(k)), bytes, h2d, "cudaMemcpyAsync");
        ring_p.release(0, k, h2d);
        ring_a.publish(k, h2d);

        where.at("node i1 (Inc) @ A.g0", k);
        ring_a.wait_readable(0, k, compute);
        ring_b.wait_writable(k, compute);
        timer.start(compute);
        inc<<<static_cast<unsigned>((kN + 255) / 256), 256, 0, compute>>>(
            i1_a.slot_as<const float>(ring_a.slot(k)), i1_b.slot_as<float>(ring_b.slot(k)), kN);
        DFG_CUDA_CHECK(cudaGetLastError(), "launch inc");
        timer.stop(compute, k);
        ring_a.release(0, k, compute);
        ring_b.publish(k, compute);

        where.at("transfer i1.b -> c.m", k);
        ring_b.wait_readable(0, k, d2h);
        ring_c.wait_writable(k, d2h);
        dfg::copy_async(c_m.slot(ring_c.slot(k)), i1_b.slot(ring_b.slot(k)), kBytes, d2h, "cudaMemcpyAsync");
        ring_b.release(0, k, d2h);
        ring_c.publish(k, d2h);

        timer.poll([&](std::int64_t it, double begin_us, double dur_us) {
          tracer.record_us(gpu_track, "i1 (Inc)", "fire", begin_us, dur_us, it);
          stats.add_time(inc_entry, dur_us * 1e-6);
        });
        stats.end_cycle(gpu_pe, k);
      }
      d2h.synchronize();
    });
    workers.spawn("A.cpu consumer", [&](dfg::Where& where) {
      for (std::int64_t k = 0; k < iterations; ++k) {
        where.at("node c (Consumer) @ A.cpu", k);
        ring_c.wait_readable_host(0, k);
        const float* in = c_m.slot_as<const float>(ring_c.slot(k));
        for (std::size_t i = 0; i < kN; ++i) {
          if (in[i] != token(k, i) + 1.0f) {
            ++bad;
            break;
          }
        }
        ++consumed;
        ring_c.release_host(0, k);
        stats.end_cycle(cpu_pe, k);
      }
    });
    const int status = workers.join_and_report(std::cerr);
    if (status != 0) return status;
    std::printf("consumed %lld tokens, %lld bad\n", static_cast<long long>(consumed), static_cast<long long>(bad));
    stats.print(std::cout);
    std::printf("trace events: %zu\n", tracer.event_count());
    return bad == 0 && consumed == iterations ? 0 : 1;
  });
}
