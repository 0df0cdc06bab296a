// Compile-only check of the dfg/cuda runtime headers: includes every header and instantiates
// what a generated GPU worker uses. Nothing here runs; the build fails on any warning.
#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/event_ring.hpp"
#include "dfg/cuda/gpu_timer.hpp"
#include "dfg/cuda/nvtx.hpp"
#include "dfg/cuda/stream.hpp"

#include "dfg/context.hpp"
#include "dfg/cycle_barrier.hpp"
#include "dfg/flags.hpp"
#include "dfg/host_buffer.hpp"
#include "dfg/slot_ring.hpp"
#include "dfg/stats.hpp"
#include "dfg/trace.hpp"
#include "dfg/window.hpp"
#include "dfg/worker.hpp"

#include <cstdint>
#include <iostream>
#include <vector>

namespace {

__global__ void inc(const float* a, float* b, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = a[i] + 1.0f;
}

struct Inc {
  void fire(const float* a, float* b, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    inc<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(a, b, n);
  }
};

}  // namespace

// A GPU worker of the P -> I -> C pipeline on one host: H2D, fire, D2H.
int dfg_cuda_headers_check(std::int64_t iterations) {
  dfg::Tracer tracer(0, false);
  const int track = tracer.add_track("A.g0");
  dfg::Stats stats(iterations, 1);
  const int entry = stats.add_entry("firing", "i1 (Inc)", "A.g0");
  dfg::enable_peer_access(0, 1);
  dfg::Stream compute(0, "A.g0 compute"), h2d(0, "A.g0 h2d"), d2h(0, "A.g0 d2h");
  dfg::PinnedBuffer p_m("p.m@A.cpu", 1024 * sizeof(float), 2);
  dfg::DeviceBuffer i1_a(0, "i1.a@A.g0", 1024 * sizeof(float), 2), i1_b(0, "i1.b@A.g0", 1024 * sizeof(float), 2);
  dfg::PinnedBuffer c_m("c.m@A.cpu", 1024 * sizeof(float), 2);
  dfg::EventRing ring_p(2, -1, {0}), ring_a(2, 0, {0}), ring_b(2, 0, {0}), ring_c(2, 0, {-1});
  dfg::GpuTimer timer(0, compute, 8, tracer.epoch());
  const std::size_t elements[] = {1024, 1024};
  dfg::Context ctx;
  ctx.set_stream(compute);
  ctx.set_device(0);
  ctx.set_port_elements(elements, 2);
  Inc i1;
  const dfg::Window initial[] = {{0, dfg::Window::kForever}, {1, dfg::Window::kForever}};
  dfg::WindowTable windows(initial, 1);
  dfg::WindowCursor win = windows.cursor(0);
  dfg::Workers workers;
  workers.spawn("A.g0", [&](dfg::Where& where) {
    for (std::int64_t k = 0; k < iterations + 1; ++k) {
      win.begin(k);
      if (win.active(0)) {  // transfer p.m -> i1.a
        where.at("transfer p.m -> i1.a", k);
        ring_p.wait_readable(0, k, h2d);
        ring_a.wait_writable(k, h2d);
        dfg::copy_async(i1_a.slot(ring_a.slot(k)), p_m.slot(ring_p.slot(k)), p_m.slot_bytes(), h2d,
                        "cudaMemcpyAsync");
        ring_p.release(0, k, h2d);
        ring_a.publish(k, h2d);
      }
      if (win.active(1)) {  // node i1 (Inc) @ A.g0
        const std::int64_t j = k - 1;
        where.at("node i1 (Inc) @ A.g0", j);
        DFG_NVTX_RANGE("i1 (Inc)");
        ring_a.wait_readable(0, j, compute);
        ring_b.wait_writable(j, compute);
        ctx.set_iteration(j);
        timer.start(compute);
        i1.fire(i1_a.slot_as<const float>(ring_a.slot(j)), i1_b.slot_as<float>(ring_b.slot(j)), ctx);
        timer.stop(compute, j);
        DFG_CUDA_CHECK(cudaGetLastError(), "launch");
        ring_a.release(0, j, compute);
        ring_b.publish(j, compute);
        ring_b.wait_readable(0, j, d2h);
        ring_c.wait_writable(j, d2h);
        dfg::copy_async(c_m.slot(ring_c.slot(j)), i1_b.slot(ring_b.slot(j)), i1_b.slot_bytes(), d2h,
                        "cudaMemcpyAsync", cudaMemcpyDeviceToHost);
        ring_b.release(0, j, d2h);
        ring_c.publish(j, d2h);
      }
      timer.poll([&](std::int64_t it, double begin_us, double dur_us) {
        tracer.record_us(track, "i1 (Inc)", "fire", begin_us, dur_us, it);
        stats.add_time(entry, dur_us * 1e-6);
      });
      stats.end_cycle(0, k);
    }
    win.finish();
  });
  // The CPU side of the same rank: produce and consume.
  workers.spawn("A.cpu", [&](dfg::Where&) {
    for (std::int64_t k = 0; k < iterations; ++k) {
      ring_p.wait_writable_host(k);
      p_m.slot_as<float>(ring_p.slot(k))[0] = static_cast<float>(k);
      ring_p.publish_host(k);
      ring_c.wait_readable_host(0, k);
      ring_c.release_host(0, k);
    }
  });
  dfg::Event done(0, dfg::Event::Timing::on);
  done.record(d2h);
  if (done.query()) done.synchronize();
  dfg::copy_peer_async(i1_b.data(), 1, i1_a.data(), 0, 16, d2h, "peer");
  static_cast<void>(dfg::elapsed_ms(done, done));
  dfg::cuda_check_noexcept(cudaSuccess, "nothing");
  try {
    throw dfg::CudaError(cudaErrorInvalidValue, dfg::cuda_error_message(cudaErrorInvalidValue, "check"));
  } catch (const dfg::CudaError& e) {
    if (e.code() != cudaErrorInvalidValue) return 2;
  }
  return workers.join_and_report(std::cerr);
}
