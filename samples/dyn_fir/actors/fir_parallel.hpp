// The FIR network's actors as parallel actions on a CPU (parallel.dfg): one firing takes one
// sample on each input and gives one on each output, with no state; the delays are the rings'
// initial elements (`delay 1` on a fifo edge), so every actor is a map the island fires in
// batches (dfg::fire_batch).
#pragma once

#include <cstdint>

#include "dfg/detail/ring_span.hpp"

using Samples = dfg::RingSpan<const std::int32_t>;
using Slots = dfg::RingSpan<std::int32_t>;

/// y and next give x: the fork of a tap, whose output edges delay it.
struct ForkBatch {
  void fire(Samples x, Slots y, Slots next) const {
    y[0] = x[0];
    next[0] = x[0];
  }
};

/// y gives x: the last tap, whose output edge delays it.
struct PassBatch {
  void fire(Samples x, Slots y) const { y[0] = x[0]; }
};

/// y = coef * x.
struct MulBatch {
  int coef = 1;
  void fire(Samples x, Slots y) const { y[0] = coef * x[0]; }
};

/// s = a + b.
struct AddBatch {
  void fire(Samples a, Samples b, Slots s) const { s[0] = a[0] + b[0]; }
};

/// y = x >> shift.
struct ShiftBatch {
  int shift = 0;
  void fire(Samples x, Slots y) const { y[0] = x[0] >> shift; }
};
