/// \file
/// dfg::mpi::GpuDirect: one GPU's end of the transfers over gpudirect links (a GPU's buffer on
/// one host to a GPU's buffer on another, one transfer of the IG). The host's CPU worker starts
/// them like every host-to-host transfer (dfg/mpi/transfer.hpp, on the rank's comm thread), with
/// the GPU buffer's slot: a device pointer. The rank chooses the path once, at start-up, from
/// Session::cuda_aware() (the library's MPIX_Query_cuda_support, and --no-cuda-aware-mpi):
///
///  - CUDA-aware MPI: MPI_Issend / MPI_Irecv get the device slot itself (GPUDirect RDMA where
///    the network allows it). A windowed receive (a small token, dfg/mpi/transfer.hpp) lands in
///    the window's host buffer first: attach() gives it this object's to_slot() for the copy into
///    the device slot (Endpoint::copy_window_through), which std::memcpy could not make.
///  - Otherwise: attach() gives the endpoint a pinned host staging buffer of its bytes
///    (dfg::PinnedBuffer, allocated then, once) and this object as its StagingCopy. The sender
///    copies the slot into the staging buffer on this object's stream of the GPU and waits for
///    the copy before it posts the sends; the receiver receives into the staging buffer and,
///    once the receives completed, copies it into the slot and waits for that copy, all before
///    the CPU worker ends the cycle (dfg::mpi::CycleTransfers completes the transfer then).
///
///     dfg::mpi::report_gpudirect_path(mpi, std::cerr);           // once per rank, at start-up
///     dfg::mpi::GpuDirect gpudirect_A_g0(mpi, 0, "A.g0");        // declared before the endpoints
///     send.emplace(mpi, mpi.rank_of_host(1), 0, bytes, "i1.b@A.g0 -> i1.b@B.g0");
///     gpudirect_A_g0.attach(*send);
///     ... net_.start(*send, entry, j, i1_b_A_g0.at(dfg::slot(c, 1, 2)));   // a device slot
///
/// Both paths deliver the same bytes into the same slot in the same cycle, in the same messages
/// (chunked the same way: the staging buffer is cut like the slot). Ordering: the GPU that
/// writes a sent slot finished that cycle (its streams idle) before the CPU worker begins the
/// cycle that sends it, and the GPU that reads a received slot begins that cycle only after the
/// CPU worker ended the one that received it: a GPU and its host's CPU are neighbours through
/// every gpudirect buffer (the code generator's model says so), as for a CPU-GPU transfer.
///
/// Guarantees:
/// - Needs CUDA and MPI: only a rank whose host sends or receives over a gpudirect link
///   includes it.
/// - The constructor and attach() run at start-up (the thread that builds the CPU worker); they
///   allocate (the stream and the staging buffers, only on the staging path) and throw
///   dfg::CudaError or dfg::AllocError.
/// - to_host() and to_slot() are called by the endpoints' threads, the lanes of the rank's comm
///   thread (a send's on one, a receive's on the other, maybe at once): each makes the GPU
///   current on its thread (cudaSetDevice), enqueues one cudaMemcpyAsync on this object's own
///   non-blocking stream and blocks until the stream is done (cudaStreamSynchronize; two calls at
///   once are ordered on the stream and each waits for both). They do not allocate; a CUDA error
///   throws dfg::CudaError (the rank then ends the job).
/// - An endpoint attached to this object must be destroyed before it (declare this first).
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <cuda_runtime.h>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/stream.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

namespace dfg::mpi {

/// The line report_gpudirect_path() prints for a library that is (or is not) CUDA-aware.
inline std::string_view gpudirect_path_line(bool cuda_aware) noexcept {
  return cuda_aware
             ? "gpudirect: MPI is CUDA-aware: device buffers go straight to MPI"
             : "gpudirect: MPI is not CUDA-aware (or --no-cuda-aware-mpi): staging through pinned host memory";
}

/// Prints on `err`, in one write, which path this rank's gpudirect transfers take. Called once
/// per rank that has some, at start-up.
inline void report_gpudirect_path(const Session& session, std::ostream& err) {
  std::string line(gpudirect_path_line(session.cuda_aware()));
  line += '\n';
  err.write(line.data(), static_cast<std::streamsize>(line.size()));
  err.flush();
}

class GpuDirect final : public StagingCopy {
 public:
  /// GPU `name` ("A.g0"), CUDA device `device` of this host.
  GpuDirect(const Session& session, int device, std::string_view name)
      : device_(device), name_(name), staged_(!session.cuda_aware()) {
    stream_.emplace(device, name_ + " gpudirect");
  }

  GpuDirect(const GpuDirect&) = delete;
  GpuDirect& operator=(const GpuDirect&) = delete;

  /// Whether the transfers stage through pinned host memory (MPI is not CUDA-aware).
  bool staged() const noexcept { return staged_; }
  int device() const noexcept { return device_; }

  /// Gives `e`, an endpoint of one of this GPU's gpudirect transfers, its path: when MPI is
  /// CUDA-aware, the device slot itself, except that a windowed receive (a small token, received
  /// into the window's host buffer, dfg/mpi/transfer.hpp) reaches its slot through this copy;
  /// else a staging buffer of e.bytes() in pinned host memory and this copy.
  void attach(Endpoint& e) {
    if (!staged_) {
      e.copy_window_through(*this);
      return;
    }
    buffers_.emplace_back("staging of " + std::string(e.name()), e.bytes());
    e.stage_through({buffers_.back().data(), this});
  }

  void to_host(void* host, const void* slot, std::size_t bytes) override {
    copy(host, slot, bytes, cudaMemcpyDeviceToHost, "gpudirect staging: device to host");
  }

  void to_slot(void* slot, const void* host, std::size_t bytes) override {
    copy(slot, host, bytes, cudaMemcpyHostToDevice, "gpudirect staging: host to device");
  }

 private:
  void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, const char* what) {
    DFG_CUDA_CHECK(cudaSetDevice(device_),
                   "select device " + std::to_string(device_) + " for " + name_);
    copy_async(dst, src, bytes, *stream_, what, kind);
    stream_->synchronize();
  }

  int device_;
  std::string name_;
  bool staged_;
  std::optional<Stream> stream_;       ///< the staging copies' and window copies' stream
  std::vector<PinnedBuffer> buffers_;  ///< one staging buffer per attached endpoint
};

}  // namespace dfg::mpi
