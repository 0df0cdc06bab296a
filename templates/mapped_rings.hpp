$header$
// The rings in mapped pinned memory that the islands on a CPU and on a GPU of host $host$ share:
// one dfg::MappedRing each, zero-copy (dfg/cuda/mapped_ring.hpp), made on first use.
#pragma once

#include <cstdint>

#include "dfg/cuda/mapped_ring.hpp"

namespace dfg_mapped {

$rings$
}  // namespace dfg_mapped
