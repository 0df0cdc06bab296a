// Dequantisation: each block's coefficients times its component's quantisers (from the frame
// record, which passes on). One record in, one record out.
#pragma once

#include <cstdint>
#include <vector>

#include "dfg/ports.hpp"
#include "records.hpp"

struct Dequant {
  std::vector<std::int32_t> quant;  // 64 a component
  std::vector<std::int32_t> rec;

  bool step(dfg::In<std::int32_t> coefs, dfg::Out<std::int32_t> values) {
    bool fired = false;
    while (values.room() >= jpeg::kMaxFrameRecord && jpeg::read_record(coefs, rec)) {
      if (rec[0] == jpeg::kFrame) {
        const std::size_t nc = static_cast<std::size_t>(rec[3]);
        quant.assign(rec.begin() + 4 + 2 * static_cast<std::ptrdiff_t>(nc), rec.end());
      } else if (rec[0] == jpeg::kBlock) {
        const std::int32_t* q = quant.data() + 64 * rec[1];
        for (int i = 0; i < 64; ++i) rec[4 + i] *= q[i];
      }
      jpeg::write_record(values, rec[0], rec.data() + 1, rec.size() - 1);
      fired = true;
    }
    return fired;
  }
};
