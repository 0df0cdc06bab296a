// The floor of a GPU PE's cycle on this machine (bench/overlap/gpu_cycle.py builds and runs it):
// each CUDA call a cycle makes, N calls back to back (once the stream's queue is full this is
// the device's rate for the call, not the host's), and the period of hand-written cycles
// (4-byte tokens, a one-thread kernel): one round trip per cycle, run ahead on one stream, run
// ahead on three streams with the plan's stream orders (dfg::GpuCycles before it merged short
// copies), and one cycle captured as a CUDA graph (three independent nodes, one graph per slot
// parity) relaunched; then the empty kernel of runtime_cost.py's GPU node launched back to back,
// with an end event a cycle and at most 1, 2, 4 or 8 cycles unfinished, and CUDA graphs that each
// hold K cycles' launches (K = 1 and 8: K empty kernels, or K cycles of H2D, kernel, D2H on one
// stream), relaunched back to back: the cost per cycle of batching cycles into graphs.
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x)                                              \
  do {                                                     \
    cudaError_t e_ = (x);                                  \
    if (e_ != cudaSuccess) {                               \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); \
      std::exit(1);                                        \
    }                                                      \
  } while (0)
__global__ void inc(const float* a, float* b) { b[threadIdx.x] = a[threadIdx.x] + 1; }
__global__ void empty() {}
using clk = std::chrono::steady_clock;
static double us_since(clk::time_point t, int n) {
  return std::chrono::duration<double, std::micro>(clk::now() - t).count() / n;
}
typedef CUresult (*WriteValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned);
int main() {
  const int N = 20000;
  cudaStream_t s[3];
  for (auto& x : s) CK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  float *h_in, *h_out, *d_in, *d_out;
  CK(cudaMallocHost(&h_in, 64));
  CK(cudaMallocHost(&h_out, 64));
  CK(cudaMalloc(&d_in, 64));
  CK(cudaMalloc(&d_out, 64));
  std::vector<cudaEvent_t> ev(3 * 4);
  for (auto& e : ev) CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  cudaEvent_t one;
  CK(cudaEventCreateWithFlags(&one, cudaEventDisableTiming));
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuStreamWriteValue64", &fn, 12000, cudaEnableDefault, &q));
  auto write64 = reinterpret_cast<WriteValue64>(fn);
  unsigned long long* flag;
  CK(cudaHostAlloc(&flag, 64, cudaHostAllocMapped));
  unsigned long long* dflag;
  CK(cudaHostGetDevicePointer((void**)&dflag, flag, 0));
  // warm up
  for (int i = 0; i < 1000; ++i) {
    inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
  }
  CK(cudaDeviceSynchronize());
  std::printf("# per call, us (N = %d back to back, nothing waited for)\n", N);
  auto t = clk::now();
  for (int i = 0; i < N; ++i) inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
  std::printf("launch,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[1]));
  std::printf("memcpy_h2d_4B,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[2]));
  std::printf("memcpy_d2h_4B,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaEventRecord(ev[i % 12], s[i % 3]));
  std::printf("event_record,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaStreamWaitEvent(s[i % 3], ev[(i + 1) % 12], 0));
  std::printf("stream_wait_event_done,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaEventQuery(ev[i % 12]));
  std::printf("event_query_done,%.3f\n", us_since(t, N));
  t = clk::now();
  for (int i = 0; i < N; ++i) {
    if (write64(s[i % 3], (CUdeviceptr)dflag, i, 0) != CUDA_SUCCESS) {
      std::puts("write64 failed");
      return 1;
    }
  }
  std::printf("stream_write_value64,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  std::printf("flag after writes %llu\n", *(volatile unsigned long long*)flag);

  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyHostToDevice, s[1]));
  std::printf("memcpy_h2d_4B_kind,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDeviceToHost, s[2]));
  std::printf("memcpy_d2h_4B_kind,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) CK(cudaMemcpyAsync(d_out, d_in, 4, cudaMemcpyDeviceToDevice, s[2]));
  std::printf("memcpy_d2d_4B,%.3f\n", us_since(t, N));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int c = 0; c < N; ++c) {
    if (c >= 2)
      while (cudaEventQuery(ev[(c - 2) % 2]) == cudaErrorNotReady) {
      }
    CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[0]));
    CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[0]));
    inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
    CK(cudaEventRecord(ev[c % 2], s[0]));
  }
  CK(cudaDeviceSynchronize());
  std::printf("run_ahead_one_stream_end_event_ring2,%.3f\n", us_since(t, N));
  // One cycle's round trip: H2D, kernel, D2H on one stream, then the host spins on an event.
  t = clk::now();
  for (int i = 0; i < N; ++i) {
    CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[0]));
    inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
    CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[0]));
    CK(cudaEventRecord(one, s[0]));
    while (cudaEventQuery(one) == cudaErrorNotReady) {
    }
  }
  std::printf("# cycle periods, us\nround_trip_one_stream_event_spin,%.3f\n", us_since(t, N));
  t = clk::now();
  for (int i = 0; i < N; ++i) {
    CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[0]));
    inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
    CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[0]));
    write64(s[0], (CUdeviceptr)dflag, i + 1000000, 0);
    while (*(volatile unsigned long long*)flag != (unsigned long long)(i + 1000000)) {
    }
  }
  std::printf("round_trip_one_stream_flag_spin,%.3f\n", us_since(t, N));
  t = clk::now();
  for (int i = 0; i < N; ++i) {
    CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[0]));
    inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
    CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[0]));
  }
  CK(cudaDeviceSynchronize());
  std::printf("run_ahead_one_stream_no_events,%.3f\n", us_since(t, N));
  // The runtime's overlap cycle by hand: 3 streams, 4 cross-stream waits, 3 end events, ring of 2.
  auto three = [&](bool waits, bool query) {
    auto t0 = clk::now();
    for (int c = 0; c < N; ++c) {
      if (c >= 2 && query)
        for (int k = 0; k < 3; ++k)
          while (cudaEventQuery(ev[(c - 2) % 2 * 3 + k]) == cudaErrorNotReady) {
          }
      if (c >= 1 && waits) {
        const int p = (c - 1) % 2 * 3;
        CK(cudaStreamWaitEvent(s[0], ev[p + 1], 0));
        CK(cudaStreamWaitEvent(s[0], ev[p + 2], 0));
        CK(cudaStreamWaitEvent(s[1], ev[p + 0], 0));
        CK(cudaStreamWaitEvent(s[2], ev[p + 0], 0));
      }
      CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[2]));
      CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[1]));
      inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
      for (int k = 0; k < 3; ++k) CK(cudaEventRecord(ev[c % 2 * 3 + k], s[k]));
    }
    CK(cudaDeviceSynchronize());
    return us_since(t0, N);
  };
  std::printf("run_ahead_three_streams_plan_orders,%.3f\n", three(true, true));
  std::printf("run_ahead_three_streams_no_waits,%.3f\n", three(false, true));
  // The same cycle as a CUDA graph: 3 independent nodes, one graph per slot parity, relaunched.
  cudaGraphExec_t g[2];
  for (int p = 0; p < 2; ++p) {
    cudaStream_t cs = s[0];
    CK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
    CK(cudaEventRecord(one, cs));
    CK(cudaStreamWaitEvent(s[1], one, 0));
    CK(cudaStreamWaitEvent(s[2], one, 0));
    CK(cudaMemcpyAsync(h_out + p, d_out + p, 4, cudaMemcpyDefault, s[2]));
    CK(cudaMemcpyAsync(d_in + p, h_in + p, 4, cudaMemcpyDefault, s[1]));
    inc<<<1, 1, 0, s[0]>>>(d_in + p, d_out + p);
    CK(cudaEventRecord(ev[0], s[1]));
    CK(cudaStreamWaitEvent(cs, ev[0], 0));
    CK(cudaEventRecord(ev[1], s[2]));
    CK(cudaStreamWaitEvent(cs, ev[1], 0));
    cudaGraph_t graph;
    CK(cudaStreamEndCapture(cs, &graph));
    CK(cudaGraphInstantiate(&g[p], graph, 0));
  }
  for (int i = 0; i < 100; ++i) CK(cudaGraphLaunch(g[i % 2], s[0]));
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int c = 0; c < N; ++c) {
    CK(cudaGraphLaunch(g[c % 2], s[0]));
  }
  CK(cudaDeviceSynchronize());
  std::printf("graph_relaunch_run_ahead,%.3f\n", us_since(t, N));
  t = clk::now();
  for (int c = 0; c < N; ++c) {
    CK(cudaGraphLaunch(g[c % 2], s[0]));
    CK(cudaEventRecord(ev[c % 2], s[0]));
    if (c >= 1)
      while (cudaEventQuery(ev[(c - 1) % 2]) == cudaErrorNotReady) {
      }
  }
  CK(cudaDeviceSynchronize());
  std::printf("graph_relaunch_ring2,%.3f\n", us_since(t, N));
  t = clk::now();
  for (int c = 0; c < N; ++c) {
    CK(cudaGraphLaunch(g[c % 2], s[0]));
    CK(cudaEventRecord(one, s[0]));
    while (cudaEventQuery(one) == cudaErrorNotReady) {
    }
  }
  std::printf("graph_round_trip,%.3f\n", us_since(t, N));
  // The empty kernel back to back, then graphs of K cycles relaunched: us per cycle.
  for (int i = 0; i < 1000; ++i) empty<<<1, 1, 0, s[0]>>>();
  CK(cudaDeviceSynchronize());
  t = clk::now();
  for (int i = 0; i < N; ++i) empty<<<1, 1, 0, s[0]>>>();
  CK(cudaDeviceSynchronize());
  std::printf("launch_empty,%.3f\n", us_since(t, N));
  // The empty kernel and an end event a cycle, with at most `ahead` cycles unfinished (the host
  // waits for cycle c - ahead's event before it launches c; 0: never waits): dfg::GpuCycles'
  // cycle of one launch on one stream, by hand; ahead 1 is one round trip per cycle. Without
  // `launch`, the end event alone: a cycle with nothing to launch.
  auto ahead_of = [&](int ahead, bool launch) {
    CK(cudaDeviceSynchronize());
    auto t0 = clk::now();
    for (int c = 0; c < N; ++c) {
      if (ahead > 0 && c >= ahead)
        while (cudaEventQuery(ev[(c - ahead) % 12]) == cudaErrorNotReady) {
        }
      if (launch) empty<<<1, 1, 0, s[0]>>>();
      CK(cudaEventRecord(ev[c % 12], s[0]));
    }
    CK(cudaDeviceSynchronize());
    return us_since(t0, N);
  };
  for (int ahead : {0, 1, 2, 4, 8})
    std::printf("launch_event_ahead%d,%.3f\n", ahead, ahead_of(ahead, true));
  std::printf("event_ahead1,%.3f\n", ahead_of(1, false));
  auto graph_of = [&](int k, bool copies) {
    CK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeThreadLocal));
    for (int c = 0; c < k; ++c) {
      if (copies) {
        CK(cudaMemcpyAsync(d_in, h_in, 4, cudaMemcpyDefault, s[0]));
        inc<<<1, 1, 0, s[0]>>>(d_in, d_out);
        CK(cudaMemcpyAsync(h_out, d_out, 4, cudaMemcpyDefault, s[0]));
      } else {
        empty<<<1, 1, 0, s[0]>>>();
      }
    }
    cudaGraph_t graph;
    CK(cudaStreamEndCapture(s[0], &graph));
    cudaGraphExec_t exec;
    CK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < 100; ++i) CK(cudaGraphLaunch(exec, s[0]));
    CK(cudaDeviceSynchronize());
    const int launches = N / k;
    auto t0 = clk::now();
    for (int i = 0; i < launches; ++i) CK(cudaGraphLaunch(exec, s[0]));
    CK(cudaDeviceSynchronize());
    const double per_cycle = us_since(t0, launches * k);
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    return per_cycle;
  };
  for (int k : {1, 8}) {
    std::printf("graph_k%d_empty_per_cycle,%.3f\n", k, graph_of(k, false));
    std::printf("graph_k%d_h2d_inc_d2h_per_cycle,%.3f\n", k, graph_of(k, true));
  }
  return 0;
}
