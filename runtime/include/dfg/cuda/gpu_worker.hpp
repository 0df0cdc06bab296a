/// \file
/// dfg::GpuWorker: the base of a generated GPU worker (dfg::PeWorker): its run state, its CUDA
/// streams, its probes and its storage (one device allocation per colour). The generated class
/// adds its nodes and its two cycle loops:
///
///     class Worker_A_g0 final : public dfg::GpuWorker<Run> {
///       ...
///       dfg::Node<::Inc, 2> i1_node_;
///     };
///     Worker_A_g0::Worker_A_g0(Run& run)
///         : GpuWorker(run, kPe_A_g0, 0, {kTrack_A_g0_compute, kTrack_A_g0_h2d, 0, 0}) { ... }
///
/// dfg::GpuTracks names the trace track of each stream the worker uses (0: the stream is not
/// used and not created). The compute stream always exists. Every entry of the run's strategy
/// on one of these tracks is timed on its stream (dfg::GpuProbes). With overlap and
/// DFG_GPU_ONE_STREAM_BYTES, a GPU whose copies are all that short (dfg::runs_on_one_stream)
/// runs its cycles on the compute stream alone: its copy streams are aliases of it (one_stream()
/// is true) and its entries keep their tracks.
///
/// Guarantees: constructed by the main thread before the workers start (it creates the streams
/// and the probes' events; it throws dfg::CudaError); select_device() runs on the worker's
/// thread before its loop. The members belong to the worker's thread from then on.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/gpu_probes.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/gpu_lanes.hpp"
#include "dfg/run.hpp"

namespace dfg {

/// The trace track of each of a GPU worker's streams; 0 for a stream it does not use.
struct GpuTracks {
  int compute, h2d, d2h, peer;
};

template <class Run>
class GpuWorker : public PeWorker {
 protected:
  GpuWorker(Run& run, int pe, int device, GpuTracks tracks)
      : run_(run),
        pe_(pe),
        device_(device),
        name_(run.pe_names[static_cast<std::size_t>(pe)]),
        one_stream_(run.overlap &&
                    runs_on_one_stream(run.entries, run.params,
                                       {tracks.h2d, tracks.d2h, tracks.peer}, one_stream_bytes())),
        compute_(device, name_ + " compute"),
        h2d_(stream(tracks.h2d, "h2d")),
        d2h_(stream(tracks.d2h, "d2h")),
        peer_(stream(tracks.peer, "peer")),
        probes_(run.probes) {
    DeviceGuard guard(device);
    for (std::size_t e = 0; e < run.entries.size(); ++e) {
      const int track = run.entries[e].track;
      if (track == tracks.compute) probes_.add(e, device, compute_);
      if (track != 0 && track == tracks.h2d) probes_.add(e, device, h2d_);
      if (track != 0 && track == tracks.d2h) probes_.add(e, device, d2h_);
      if (track != 0 && track == tracks.peer) probes_.add(e, device, peer_);
    }
  }

  /// Whether the cycles run on the compute stream alone (its copy streams are aliases).
  bool one_stream() const noexcept { return one_stream_; }

  Run& run_;
  const int pe_;
  const int device_;
  const std::string name_;  ///< the PE's spec name: "A.g0"
  const bool one_stream_;   ///< the copy streams are the compute stream
  Stream compute_, h2d_, d2h_, peer_;
  GpuProbes probes_;
  std::vector<DeviceBuffer> storage_;  ///< one allocation per colour

 private:
  Stream stream(int track, const char* kind) const {
    if (track == 0) return Stream();
    if (one_stream_) return compute_.alias(name_ + " " + kind);
    return Stream(device_, name_ + " " + kind);
  }
  void select_device() override {
    DFG_CUDA_CHECK(cudaSetDevice(device_),
                   "select device " + std::to_string(device_) + " for " + name_);
  }
};

}  // namespace dfg
