/// \file
/// Buffer depth: single (1 slot) or double (2 slots) per buffer node and strategy. With overlap a
/// buffer node that a transfer fills or reads is double: the transfer works on one slot while the
/// PE's firings work on the other. Without overlap transfers and firings never run at once, so
/// every buffer node is single. An output buffer that a firing on another cpu of the host reads
/// (shared memory) is double in both strategies: the two cpus fire at once, the producer into one
/// slot while the consumer reads the other, the one written last cycle. (Delay lines, added by
/// resync_inputs, have their own depth.) Needs: the BufferPlan. Produces: BufferDepths, per
/// strategy one depth per planned buffer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "passes/insert_buffers.hpp"

namespace dfgc {

using BufferDepths = ir::PerStrategy<std::vector<std::uint32_t>>;

BufferDepths buffer_depth(const BufferPlan& plan);

/// One line per strategy and buffer: "<strategy> <buffer> depth <d>".
std::string dump(const BufferDepths& depths, const BufferPlan& plan);

}  // namespace dfgc
