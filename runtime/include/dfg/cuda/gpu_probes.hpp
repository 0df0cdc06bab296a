/// \file
/// dfg::GpuProbes: the GPU side of dfg::Probes. A GPU worker times each of its firings and
/// transfers with a pair of timing events on the stream it runs on (dfg::GpuTimer), and hands
/// the completed times to the Probes once a cycle, when the GPU has finished it (dfg::GpuCycles;
/// without overlap, after the loop's wait for its streams):
///
///     probes.start(overlap::fire_i1, compute);  i1.fire(...);  probes.stop(overlap::fire_i1,
///     compute, j);
///     ...  the cycle's end passed on every stream  ...
///     probes.poll();
///
/// With tracing and stats off (Probes::on() false), add() creates no timer and start/stop/poll
/// do nothing but one branch, so the cycle loop records no events.
///
/// Guarantees: add() is set-up only (it creates CUDA events and synchronises once per timer);
/// start/stop/poll belong to the GPU worker's thread, never block the host (except GpuTimer's
/// documented wait when its ring is full) and allocate nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "dfg/cuda/gpu_timer.hpp"
#include "dfg/probe.hpp"

namespace dfg {

class GpuProbes {
 public:
  explicit GpuProbes(Probes& probes) : probes_(probes) {}

  /// Times Probes entry `entry` on `stream` of `device`. Set-up only.
  void add(std::size_t entry, int device, cudaStream_t stream) {
    if (!probes_.on()) return;
    if (timers_.size() <= entry) timers_.resize(entry + 1);
    timers_[entry] =
        std::make_unique<GpuTimer>(device, stream, kCapacity, probes_.tracer().epoch());
  }

  /// Whether the items are timed (--stats, --trace, --profile).
  bool on() const noexcept { return probes_.on(); }

  void start(std::size_t entry, cudaStream_t stream) {
    if (probes_.on()) timers_[entry]->start(stream);
  }
  void stop(std::size_t entry, cudaStream_t stream, std::int64_t iteration) {
    if (probes_.on()) timers_[entry]->stop(stream, iteration);
  }

  /// Hands every completed time to the Probes.
  void poll() {
    if (!probes_.on()) return;
    for (std::size_t e = 0; e < timers_.size(); ++e) {
      if (!timers_[e]) continue;
      timers_[e]->poll([&](std::int64_t iteration, double begin_us, double dur_us) {
        probes_.record(e, iteration, begin_us, dur_us);
      });
    }
  }

 private:
  static constexpr std::size_t kCapacity = 4;  // a cycle or two of one entry, polled every cycle

  Probes& probes_;
  std::vector<std::unique_ptr<GpuTimer>> timers_;
};

}  // namespace dfg
