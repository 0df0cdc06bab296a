// The dynamic actors of the decoder: the parser fires on one code or one coefficient at a time,
// the two IDCT passes on whole blocks of 64.
#pragma once

#include <cstdint>

#include "dfg/context.hpp"
#include "dfg/detail/ring_span.hpp"
#include "dfg/ports.hpp"
#include "idct.hpp"

/// Run-length decoding into 64 coefficients a block. Actions: `zero` (zeros pending), `value` (a
/// value pending), `pad` (skip a pad), `eob` (the rest of the block zeros), `pair` (a run and a
/// value).
struct Parse {
  std::int32_t pos = 0;    // coefficients of the current block given
  std::int32_t zeros = 0;  // zeros to give
  bool pending = false;
  std::int32_t value = 0;

  bool step(dfg::In<std::int32_t> code, dfg::Out<std::int32_t> coef) {
    if (zeros > 0 || pending) {
      if (coef.room() < 1) return false;
      if (zeros > 0) {
        coef.push(0);
        --zeros;
      } else {
        coef.push(value);
        pending = false;
      }
      ++pos;
      return true;
    }
    if (code.available() < 1) return false;
    auto head = code.peek(2);
    if (head[0] == idct::kPad) {
      code.release(1);
      return true;
    }
    if (head[0] == idct::kEob) {
      code.release(1);
      zeros = 64 - pos;
      pos = -zeros;  // back to 0 once they are given
      return true;
    }
    if (head.size() < 2) return false;
    zeros = head[0];
    value = head[1];
    pending = true;
    code.release(2);
    return true;
  }
};

/// One IDCT pass (`transform`) on a whole block of 64, when there is one and room for it.
inline bool pass(dfg::In<std::int32_t>& in, dfg::Out<std::int32_t>& out,
                 void (*transform)(const std::int32_t*, std::int32_t*)) {
  if (in.available() < 64 || out.room() < 64) return false;
  std::int32_t a[64], b[64];
  auto block = in.peek(64);
  for (std::size_t i = 0; i < 64; ++i) a[i] = block[i];
  in.release(64);
  transform(a, b);
  auto slots = out.reserve(64);
  for (std::size_t i = 0; i < 64; ++i) slots[i] = b[i];
  out.commit(64);
  return true;
}

struct Rows {
  void init(dfg::Context&) { (void)idct::table(); }  // the cosine table, before the first firing
  bool step(dfg::In<std::int32_t> in, dfg::Out<std::int32_t> out) { return pass(in, out, idct::rows); }
};

struct Columns {
  bool step(dfg::In<std::int32_t> in, dfg::Out<std::int32_t> out) { return pass(in, out, idct::columns); }
};

/// The two passes as parallel actions on a CPU (parallel.dfg): the island fires as many blocks as
/// its rings hold in one batch; each firing transforms one block of 64.
inline void pass_block(dfg::RingSpan<const std::int32_t> in, dfg::RingSpan<std::int32_t> out,
                       void (*transform)(const std::int32_t*, std::int32_t*)) {
  std::int32_t a[64], b[64];
  for (std::size_t i = 0; i < 64; ++i) a[i] = in[i];
  transform(a, b);
  for (std::size_t i = 0; i < 64; ++i) out[i] = b[i];
}

struct RowsBatch {
  void init(dfg::Context&) { (void)idct::table(); }
  void fire(dfg::RingSpan<const std::int32_t> in, dfg::RingSpan<std::int32_t> out) const {
    pass_block(in, out, idct::rows);
  }
};

struct ColumnsBatch {
  void fire(dfg::RingSpan<const std::int32_t> in, dfg::RingSpan<std::int32_t> out) const {
    pass_block(in, out, idct::columns);
  }
};
