/// \file
/// All the passes in order, for callers that want the implementation graph only (code generation,
/// the mapping optimizer, tests, benchmarks). The driver calls the passes one by one instead, so
/// that it can dump and time each.
#pragma once

#include "ir/ig.hpp"

namespace dfgc {

/// schedule, insert_buffers, buffer_depth, latency, resync_inputs, color_buffers, then build_ig.
ir::Ig run_passes(const ir::Program& program);

}  // namespace dfgc
