$header$
// GPU $pe$ (CUDA device $device$) of host $host$: its worker (storage, streams, loops).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "$app_header$"
#include "dfg/cuda/gpu_items.hpp"
#include "dfg/cuda/gpu_worker.hpp"
#include "dfg/node.hpp"

$actor_includes$
$struct_checks$
namespace $ns$ {
namespace {

$worker$
}  // namespace

std::unique_ptr<Worker> make_$pe_ident$(Run& run) { return std::make_unique<$cls$>(run); }

}  // namespace $ns$
