$header$
// GPU $pe$ (CUDA device $device$) of host $host$: its storage, streams, transfer launches and
// firings.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <cuda_runtime.h>

#include "$app_header$"
#include "dfg/context.hpp"
#include "dfg/cuda/buffers.hpp"
#include "dfg/cuda/check.hpp"
#include "dfg/cuda/gpu_probes.hpp"
#include "dfg/cuda/nvtx.hpp"
#include "dfg/cuda/stream.hpp"

$actor_includes$

namespace $ns$ {
namespace {

$worker$
}  // namespace

std::unique_ptr<Worker> make_$pe_ident$(Run& run) { return std::make_unique<$cls$>(run); }

}  // namespace $ns$
