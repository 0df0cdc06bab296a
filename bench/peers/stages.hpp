// The H stages of the peers chain as each peer calls them: stage i (1 to H) adds 1 to every
// element of its token on the calling thread, or, with --gpu and i odd, on the GPU (gpu_stage.hpp).
// Built once per process, before any repetition: the GPU stages' streams and mapped memory are
// set up outside the timed part.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "chain.hpp"
#ifdef PEERS_HAVE_CUDA
#include "gpu_stage.hpp"
#endif

namespace peers {

class Stages {
 public:
  explicit Stages(const Options& o) {
#ifdef PEERS_HAVE_CUDA
    gpu_.resize(static_cast<std::size_t>(o.hops) + 1);
    for (std::int64_t i = 1; o.gpu && i <= o.hops; i += 2) {
      gpu_[static_cast<std::size_t>(i)] = std::make_unique<GpuStage>();
    }
#else
    if (o.gpu)
      throw std::invalid_argument(
          "--gpu: this program was built without CUDA (cmake -DPEERS_CUDA=ON)");
#endif
  }

  /// Stage i's output for `in`; a GPU stage returns once its kernel has run. Two threads may
  /// call it at once for different stages.
  Token fire([[maybe_unused]] std::size_t i, const Token& in) {
#ifdef PEERS_HAVE_CUDA
    if (gpu_[i]) return gpu_[i]->fire(in);
#endif
    return cpu_stage(in);
  }

 private:
#ifdef PEERS_HAVE_CUDA
  std::vector<std::unique_ptr<GpuStage>> gpu_;  // [i]: stage i's, null for a CPU stage
#endif
};

/// One repetition of a peer: o.tokens tokens from the source through the stages into `sink`;
/// returns the seconds the streaming took (from the first token's release to the last one's check).
using Runner = double (*)(const Options& o, Stages& stages, Checker& sink);

double run_loop(const Options& o, Stages& stages, Checker& sink);
#ifdef PEERS_HAVE_TBB
double run_tbb_function_node(const Options& o, Stages& stages, Checker& sink);
double run_tbb_lightweight(const Options& o, Stages& stages, Checker& sink);
#endif
#ifdef PEERS_HAVE_TASKFLOW
double run_taskflow_pipeline(const Options& o, Stages& stages, Checker& sink);
#endif

}  // namespace peers
