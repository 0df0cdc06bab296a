// Pads each image's records to a token of `token_elements`: the records as they come, then, after
// the end-of-image record, zeros up to the token's end. It lets a static actor (actors/pixels.hpp,
// on a CPU or a GPU) take an image's dequantised blocks as one token.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dfg/ports.hpp"
#include "records.hpp"

struct Pad {
  int token_elements = 0;

  std::int64_t given = 0;    // elements of the current token
  std::int64_t padding = 0;  // zeros still to give
  std::vector<std::int32_t> rec;

  bool step(dfg::In<std::int32_t> values, dfg::Out<std::int32_t> records) {
    bool fired = false;
    for (;;) {
      if (padding > 0) {
        auto slots = records.reserve(static_cast<std::size_t>(padding));
        if (slots.size() == 0) break;
        for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = 0;
        records.commit(slots.size());
        padding -= static_cast<std::int64_t>(slots.size());
      } else {
        if (records.room() < jpeg::kMaxFrameRecord || !jpeg::read_record(values, rec)) break;
        given += static_cast<std::int64_t>(rec.size()) + 1;
        if (given > token_elements)
          jpeg::corrupt("an image of more than " + std::to_string(token_elements) +
                        " elements of records");
        jpeg::write_record(records, rec[0], rec.data() + 1, rec.size() - 1);
        if (rec[0] == jpeg::kEndOfImage) {
          padding = token_elements - given;
          given = 0;
        }
      }
      fired = true;
    }
    return fired;
  }
};
