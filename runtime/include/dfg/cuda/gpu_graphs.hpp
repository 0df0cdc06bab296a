/// \file
/// dfg::CycleGraphs: a GPU's cycles captured once as CUDA graphs and relaunched. A cycle's work
/// is the same from one cycle to the next but for its slots, which repeat every `phases` cycles
/// (the least common multiple of the slot counts the GPU's items use: dfgc's plan), and for the
/// items its windows let run (the pipeline's first and last cycles run fewer). So one graph
/// serves every cycle of one phase with one set of items; dfg::GpuItems finds it, or captures
/// it the first time, and launches it on the compute stream:
///
///     dfg::CycleGraphs graphs(device, 2, {compute_, h2d_, d2h_}, "A.g0");
///     cudaGraphExec_t g = graphs.find(c % 2, items, 1);               // items: entries that run
///     if (!g) g = graphs.capture(c % 2, items, 1, [&] { graphs.enqueue_joined(cycle_c); });
///     graphs.launch(g);
///
/// A graph holds whole cycles, one or several in a row (a GPU no other PE waits for: the plan's
/// word): in each, the copy streams fork from the compute stream and join it again, so that
/// cycles follow each other on the compute stream in launch order and no stream waits for
/// another's earlier cycle. One launch replaces the cycles' calls (a launch, a copy, an event
/// each: about 2 us of host time apiece on an H100; a relaunched graph about 1.7 us in all, one
/// of 8 cycles about 1.1 us a cycle: bench/overlap's gpu_floor).
///
/// What a capture freezes is what the actors enqueue: their kernels' arguments and the copies'
/// addresses. dfgc captures a GPU only where each actor's `fire` is const and never reads
/// ctx.iteration() (docs/language.md, "GPU actors in CUDA graphs"); a capture that CUDA refuses
/// nonetheless (an actor that synchronises, allocates or calls a library that cannot be
/// captured) is reported once on stderr and the GPU goes on enqueueing its cycles call by call,
/// forked from and joined to the compute stream as in a graph (enqueue_joined()).
///
/// Guarantees: built and used on the worker's thread with its device selected; capture and
/// instantiation allocate (the first cycle of each phase and set of items), a relaunch does not.
/// CUDA errors throw dfg::CudaError; the destructor never throws.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"

namespace dfg {

class CycleGraphs {
 public:
  /// `streams`: the compute stream, then the copy streams, forked from it in each cycle (an
  /// alias of the compute stream, or one listed twice, counts once); `pe` names the GPU.
  CycleGraphs(int device, std::uint32_t phases, const std::vector<cudaStream_t>& streams,
              std::string pe)
      : phases_(phases == 0 ? 1 : phases),
        compute_(streams.front()),
        pe_(std::move(pe)),
        fork_(device) {
    for (cudaStream_t s : streams) {
      bool seen = s == compute_;
      for (const Branch& b : branches_) seen = seen || b.stream == s;
      if (!seen) branches_.push_back({s, Event(device)});
    }
  }
  ~CycleGraphs() {
    for (Graph& g : graphs_) cudaGraphExecDestroy(g.exec);
  }
  CycleGraphs(const CycleGraphs&) = delete;
  CycleGraphs& operator=(const CycleGraphs&) = delete;

  std::uint32_t phases() const noexcept { return phases_; }
  std::uint32_t phase(std::int64_t cycle) const noexcept {
    return static_cast<std::uint32_t>(cycle % phases_);
  }
  /// Whether a capture failed: the cycles are enqueued call by call from then on.
  bool failed() const noexcept { return failed_; }

  /// The graph of `cycles` cycles from one of `phase` with these items in each (entry indices
  /// in enqueue order), or null.
  cudaGraphExec_t find(std::uint32_t phase, const std::vector<std::size_t>& items,
                       std::int64_t cycles) const {
    for (const Graph& g : graphs_)
      if (g.phase == phase && g.cycles == cycles && g.items == items) return g.exec;
    return nullptr;
  }

  /// Captures what `enqueue` puts on the compute and copy streams (`cycles` cycles, each
  /// enqueued through enqueue_joined()) into the graph of `phase` with `items`. Null when CUDA
  /// refuses the capture (reported once; failed() from then on); any other exception of
  /// `enqueue` ends the capture and propagates.
  template <class Enqueue>
  cudaGraphExec_t capture(std::uint32_t phase, const std::vector<std::size_t>& items,
                          std::int64_t cycles, Enqueue&& enqueue) {
    DFG_CUDA_CHECK(cudaStreamBeginCapture(compute_, cudaStreamCaptureModeThreadLocal),
                   "begin capturing a cycle");
    cudaGraph_t graph = nullptr;
    try {
      enqueue();
    } catch (const CudaError& e) {
      abandon();
      fail(e.what());
      return nullptr;
    } catch (...) {
      abandon();
      throw;
    }
    const cudaError_t ended = cudaStreamEndCapture(compute_, &graph);
    if (ended != cudaSuccess) {
      cudaGetLastError();
      fail(std::string("cudaStreamEndCapture: ") + cudaGetErrorString(ended));
      return nullptr;
    }
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    if (made != cudaSuccess) {
      cudaGetLastError();
      fail(std::string("cudaGraphInstantiate: ") + cudaGetErrorString(made));
      return nullptr;
    }
    // Its first launch would upload it: done here, so that no cycle pays for it.
    if (const cudaError_t up = cudaGraphUpload(exec, compute_); up != cudaSuccess) {
      cudaGraphExecDestroy(exec);
      DFG_CUDA_CHECK(up, "upload a cycle's graph");
    }
    graphs_.push_back({phase, cycles, items, exec});
    return exec;
  }

  /// Launches a cycle's graph on the compute stream.
  void launch(cudaGraphExec_t exec) {
    DFG_CUDA_CHECK(cudaGraphLaunch(exec, compute_), "launch a cycle's graph");
  }

  /// Enqueues a cycle as a graph holds it: the copy streams wait for the compute stream's work
  /// so far, `enqueue` runs, and the compute stream waits for the copy streams' work.
  template <class Enqueue>
  void enqueue_joined(Enqueue& enqueue) {
    if (!branches_.empty()) {
      DFG_CUDA_CHECK(cudaEventRecord(fork_, compute_), "fork a cycle");
      for (Branch& b : branches_)
        DFG_CUDA_CHECK(cudaStreamWaitEvent(b.stream, fork_, 0), "fork a cycle");
    }
    enqueue();
    for (Branch& b : branches_) {
      DFG_CUDA_CHECK(cudaEventRecord(b.join, b.stream), "join a cycle");
      DFG_CUDA_CHECK(cudaStreamWaitEvent(compute_, b.join, 0), "join a cycle");
    }
  }

 private:
  struct Branch {
    cudaStream_t stream;
    Event join;
  };
  struct Graph {
    std::uint32_t phase;
    std::int64_t cycles;
    std::vector<std::size_t> items;
    cudaGraphExec_t exec;
  };

  /// Ends a capture left by an exception, dropping what it held.
  void abandon() noexcept {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(compute_, &status) == cudaSuccess &&
        status != cudaStreamCaptureStatusNone) {
      cudaGraph_t graph = nullptr;
      cudaStreamEndCapture(compute_, &graph);
      if (graph) cudaGraphDestroy(graph);
    }
    cudaGetLastError();
  }
  void fail(const std::string& why) {
    if (!failed_)
      std::fprintf(stderr,
                   "dfg: %s enqueues its cycles call by call: CUDA could not capture one as a "
                   "graph (%s); an actor's fire must enqueue work a graph can hold "
                   "(docs/language.md, \"GPU actors in CUDA graphs\")\n",
                   pe_.c_str(), why.c_str());
    failed_ = true;
  }

  const std::uint32_t phases_;
  const cudaStream_t compute_;
  const std::string pe_;
  Event fork_;
  std::vector<Branch> branches_;
  std::vector<Graph> graphs_;
  bool failed_ = false;
};

}  // namespace dfg
