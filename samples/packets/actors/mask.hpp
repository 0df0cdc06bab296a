// Masks every byte with a key: the same length out as in.
#pragma once

#include <cstdint>

#include "dfg/bounded.hpp"
#include "packet.hpp"

struct Mask {
  std::int64_t key = 0;

  void fire(dfg::Bounded<const std::uint8_t> in, dfg::Bounded<std::uint8_t> out) {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = packets::mask(in[i], key);
  }
};
