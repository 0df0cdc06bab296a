// A CPU dynamic actor with a parallel action that may write its state
// (test/errors/actors/parallel_cpu_not_const.dfg).
#pragma once

#include <cstdint>

#include "dfg/detail/ring_span.hpp"

struct ParallelCpuNotConst {
  int fired = 0;
  void fire(dfg::RingSpan<const std::int32_t> x, dfg::RingSpan<std::int32_t> y) { ++fired; }
};
