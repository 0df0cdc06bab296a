// Compile-only check of the dfg/cuda runtime headers: includes every header and instantiates
// what a generated GPU worker uses. Nothing here runs; the build fails on any warning.
#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/gpu_cycles.hpp"
#include "dfg/cuda/gpu_island.hpp"
#include "dfg/cuda/gpu_island_cycle.hpp"
#include "dfg/cuda/gpu_items.hpp"
#include "dfg/cuda/gpu_probes.hpp"
#include "dfg/cuda/gpu_timer.hpp"
#include "dfg/cuda/gpu_worker.hpp"
#include "dfg/cuda/mapped_fifo.hpp"
#include "dfg/cuda/mapped_ring.hpp"
#include "dfg/cuda/parallel_firing.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/nvtx.hpp"

#include "dfg/context.hpp"
#include "dfg/cpu_partition.hpp"
#include "dfg/cycle_barrier.hpp"
#include "dfg/fifo.hpp"
#include "dfg/flags.hpp"
#include "dfg/host_buffer.hpp"
#include "dfg/neighbour_sync.hpp"
#include "dfg/ports.hpp"
#include "dfg/probe.hpp"
#include "dfg/slots.hpp"
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

// A block-wide copy from one ring to another: the FIFO forms a dynamic GPU actor uses.
template <cuda::thread_scope In, cuda::thread_scope Out>
__global__ void forward(dfg::RingRef<float, In> in, dfg::RingRef<float, Out> out) {
  for (;;) {
    const auto batch = in.block_peek(blockDim.x);
    if (batch.empty()) {
      if (in.block_drained()) break;
      __nanosleep(100);
      continue;
    }
    auto room = out.block_reserve(batch.size());
    if (threadIdx.x < room.size()) room[threadIdx.x] = batch[threadIdx.x] + 1.0f;
    out.block_commit(room.size());
    in.block_release(room.size());
  }
  if (threadIdx.x == 0) out.close();
}

}  // namespace

// A GPU island's step on a ring whose other end is a CPU thread (system scope).
__global__ void double_all(dfg::DeviceRing<float> in, dfg::DeviceRing<float> out) {
  dfg::GpuIn<float> x(in);
  dfg::GpuOut<float> y(out);
  while (x.available() > 0 && y.room() > 0) y.push(2.0f * x.pop());
}

int dfg_mapped_ring_check() {
  dfg::MappedRing<float> to_gpu("cpu -> g0", 64, 1, 0.0f), to_cpu("g0 -> cpu", 64);
  dfg::Out<float> out(to_gpu.host());
  for (int i = 0; i < 64; ++i) out.push(static_cast<float>(i));
  double_all<<<1, 1>>>(dfg::device_ring(to_gpu), dfg::device_ring(to_cpu));
  DFG_CUDA_CHECK(cudaDeviceSynchronize(), "double_all");
  dfg::In<float> in(to_cpu.host());
  return static_cast<int>(in.available());
}

// A GPU island of one input adapter, one actor and one output adapter, as dfgc generates it:
// both kernels (one block; the cooperative grid) and the three adapters are instantiated.
namespace island_check {
struct Tokens {
  const float* x;
  float* y;
  float* some;
};
struct Twice {
  __device__ bool step(dfg::GpuIn<float> x, dfg::GpuOut<float> y) {
    if (x.available() < 1 || y.room() < 1) return false;
    y.push(2.0f * x.pop());
    return true;
  }
};
struct State {
  dfg::GpuUnpack<float> port_x_;
  dfg::GpuPack<float> port_y_;
  dfg::GpuPackSome<float> port_some_;
  Twice node_t_;
  dfg::DeviceRing<float> fifo0_, fifo1_;
  static constexpr unsigned threads = 1;
  static constexpr unsigned block_threads = 128;
  __device__ void begin(unsigned b, const Tokens& t) {
    if (b == 0) port_x_.begin(t.x, 64);
    if (b == 1) port_y_.begin(t.y, 64);
    if (b == 2) port_some_.begin(t.some, 16);
  }
  __device__ bool step(unsigned b) {
    switch (b) {
      case 0: return port_x_.step();
      case 1: return port_y_.step();
      case 2: return port_some_.step();
      case 3: return node_t_.step(dfg::GpuIn<float>(fifo0_), dfg::GpuOut<float>(fifo1_));
      default: return false;
    }
  }
  __device__ static bool parallel(unsigned) { return false; }
  __device__ bool fire(unsigned) { return false; }
  __device__ void finish(unsigned b, dfg::GpuIslandReporter& r) const {
    if (b == 0) port_x_.finish(r);
    if (b == 1) port_y_.finish(r);
    if (b == 2) port_some_.finish(r);
  }
};
}  // namespace island_check

void dfg_gpu_island_cycle_check(int device, const island_check::Tokens& tokens,
                                cudaStream_t stream) {
  dfg::GpuIslandCycle<island_check::State, island_check::Tokens> island(
      "island_t", "node island_t (Island_t) @ A.g0", {"x", "y", "some", "t"}, 3);
  dfg::GpuIslandRing<float> fifo0("island_t: x -> t.x", 64),
      fifo1("island_t: t.y -> y", 64, 2, 0.5f);
  island_check::State s{};
  s.fifo0_ = s.port_x_.ring = island.ring(fifo0);
  s.fifo1_ = s.port_y_.ring = island.ring(fifo1);
  island.set_up(device, s);
  island.fire(tokens, stream, 0);
}

// CPU -> mapped ring -> kernel -> device ring -> kernel -> mapped ring -> CPU.
int dfg_cuda_fifo_check() {
  dfg::MappedFifo<float> to_gpu("cpu -> g0", 1000), to_cpu("g0 -> cpu", 1000);
  dfg::DeviceFifo<float> between(0, "g0 -> g0", 256);
  dfg::Stream first(0, "first"), second(0, "second");
  // Both ends of the device ring are loaded before either runs (lazy loading could serialise them).
  cudaFuncAttributes attributes{};
  DFG_CUDA_CHECK(cudaFuncGetAttributes(
                     &attributes, forward<cuda::thread_scope_system, cuda::thread_scope_device>),
                 "load");
  DFG_CUDA_CHECK(cudaFuncGetAttributes(
                     &attributes, forward<cuda::thread_scope_device, cuda::thread_scope_system>),
                 "load");
  forward<<<1, 128, 0, first.get()>>>(to_gpu.device(), between.device());
  forward<<<1, 128, 0, second.get()>>>(between.device(), to_cpu.device());
  const float values[3] = {1, 2, 3};
  const auto host_in = to_gpu.host();
  host_in.reserve(3).copy_from(values);
  host_in.commit(3);
  host_in.close();
  const auto host_out = to_cpu.host();
  float got[3] = {};
  std::size_t n = 0;
  dfg::Fifo<float> local(4);
  while (!host_out.drained()) {
    const auto in = host_out.peek(3 - n);
    in.copy_to(got + n);
    n += in.size();
    host_out.release(in.size());
  }
  static_cast<void>(local.push_some(got, n));
  return n == 3 && got[2] == 5.0f && host_out.capacity() == 1024 ? 0 : 1;
}

// The GPU worker of P -> I -> C on one host with overlap: H2D, fire, D2H, as generated.
int dfg_cuda_headers_check(std::int64_t iterations) {
  dfg::Tracer tracer(0, false);
  const int track = tracer.add_track("A.g0 compute");
  dfg::Stats stats(iterations + 3, 3);
  stats.add_pe("A.cpu");
  stats.add_pe("A.g0");
  stats.add_entry("transfer", "p.m@A.cpu -> p.m@A.g0", "A.cpu>A.g0", 4096);
  stats.add_entry("firing", "i1 (Inc)", "A.g0");
  stats.add_entry("transfer", "i1.b@A.g0 -> i1.b@A.cpu", "A.g0>A.cpu", 4096);
  dfg::Probes probes(tracer, &stats);
  probes.add(track, "p.m@A.cpu -> p.m@A.g0", "transfer");
  probes.add(track, "i1 (Inc)", "firing");
  probes.add(track, "i1.b@A.g0 -> i1.b@A.cpu", "transfer");
  if (dfg::can_access_peer(0, 1)) dfg::enable_peer_access(0, 1);
  dfg::Stream compute(0, "A.g0 compute"), h2d(0, "A.g0 h2d"), d2h(0, "A.g0 d2h");
  dfg::GpuProbes gpu_probes(probes);
  gpu_probes.add(0, 0, h2d);
  gpu_probes.add(1, 0, compute);
  gpu_probes.add(2, 0, d2h);
  dfg::PinnedBuffer p_m_cpu("p.m@A.cpu", 1024 * sizeof(float), 2),
      i1_b_cpu("i1.b@A.cpu", 1024 * sizeof(float), 2);
  dfg::DeviceBuffer p_m_g0(0, "p.m@A.g0", 1024 * sizeof(float), 2),
      i1_b_g0(0, "i1.b@A.g0", 1024 * sizeof(float), 2);
  const dfg::SlotView p_m_A_cpu = dfg::SlotView::of(p_m_cpu),
                      i1_b_A_cpu = dfg::SlotView::of(i1_b_cpu);
  const dfg::SlotView p_m_A_g0 = dfg::SlotView::of(p_m_g0), i1_b_A_g0 = dfg::SlotView::of(i1_b_g0);
  const std::size_t elements[] = {1024, 1024};
  dfg::Context ctx;
  ctx.set_stream(compute);
  ctx.set_device(0);
  ctx.set_node(nullptr, 1, elements, 2);
  Inc i1;
  const dfg::Window initial[] = {{1, iterations + 1}, {2, iterations + 2}, {3, iterations + 3}};
  dfg::WindowTable windows(initial, 2);
  dfg::NeighbourSync sync({{1}, {0}});
  dfg::Workers workers;
  workers.spawn("A.g0", [&](dfg::Where& where) {
    dfg::WindowCursor win = windows.cursor(1);
    for (std::int64_t c = 0; c < iterations + 3; ++c) {
      sync.wait_to_begin(1, c);
      win.begin(c);
      if (win.active(0)) {
        const std::int64_t j = c - 1;
        where.at("transfer p.m@A.cpu -> p.m@A.g0", j);
        DFG_NVTX_RANGE("p.m@A.cpu -> p.m@A.g0");
        gpu_probes.start(0, h2d);
        dfg::copy_async(p_m_A_g0.at(dfg::slot(c, 0, 2)), p_m_A_cpu.at(dfg::slot(c, 1, 2)), 4096,
                        h2d, "cudaMemcpyAsync");
        gpu_probes.stop(0, h2d, j);
      }
      if (win.active(1)) {
        const std::int64_t j = c - 2;
        where.at("node i1 (Inc) @ A.g0", j);
        gpu_probes.start(1, compute);
        ctx.set_iteration(j);
        i1.fire(p_m_A_g0.as<const float>(dfg::slot(c, 1, 2)),
                i1_b_A_g0.as<float>(dfg::slot(c, 0, 2)), ctx);
        DFG_CUDA_CHECK(cudaGetLastError(), "launch");
        gpu_probes.stop(1, compute, j);
      }
      if (win.active(2)) {
        const std::int64_t j = c - 3;
        where.at("transfer i1.b@A.g0 -> i1.b@A.cpu", j);
        gpu_probes.start(2, d2h);
        dfg::copy_async(i1_b_A_cpu.at(dfg::slot(c, 0, 2)), i1_b_A_g0.at(dfg::slot(c, 1, 2)), 4096,
                        d2h, "cudaMemcpyAsync");
        gpu_probes.stop(2, d2h, j);
      }
      compute.synchronize();
      h2d.synchronize();
      d2h.synchronize();
      gpu_probes.poll();
      stats.end_cycle(1, c);
      sync.finish(1, c);
    }
    win.finish();
  });
  workers.spawn("A.cpu", [&](dfg::Where&) {
    dfg::WindowCursor win = windows.cursor(0);
    for (std::int64_t c = 0; c < iterations + 3; ++c) {
      sync.wait_to_begin(0, c);
      win.begin(c);
      p_m_A_cpu.as<float>(dfg::slot(c, 0, 2))[0] = static_cast<float>(c);
      stats.end_cycle(0, c);
      sync.finish(0, c);
    }
    win.finish();
  });
  dfg::Event done(0, dfg::Event::Timing::on);
  done.record(d2h);
  if (done.query()) done.synchronize();
  dfg::copy_peer_async(i1_b_g0.data(), 1, p_m_g0.data(), 0, 16, d2h, "peer");
  static_cast<void>(dfg::elapsed_ms(done, done));
  dfg::cuda_check_noexcept(cudaSuccess, "nothing");
  try {
    throw dfg::CudaError(cudaErrorInvalidValue,
                         dfg::cuda_error_message(cudaErrorInvalidValue, "check"));
  } catch (const dfg::CudaError& e) {
    if (e.code() != cudaErrorInvalidValue) return 2;
  }
  return workers.join_and_report(std::cerr);
}
