// Run-length coding: (count, byte) pairs, count 1 to 255. A packet of n bytes codes to at most
// 2 n bytes, so the coded type's capacity is twice the packet's.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "dfg/bounded.hpp"

struct Encode {
  void fire(dfg::Bounded<const std::uint8_t> in, dfg::Bounded<std::uint8_t> out) {
    out.resize(2 * in.size());
    std::size_t o = 0;
    for (std::size_t i = 0; i < in.size();) {
      std::size_t run = 1;
      while (i + run < in.size() && run < 255 && in[i + run] == in[i]) ++run;
      out[o++] = static_cast<std::uint8_t>(run);
      out[o++] = in[i];
      i += run;
    }
    out.resize(o);
  }
};

struct Decode {
  void fire(dfg::Bounded<const std::uint8_t> in, dfg::Bounded<std::uint8_t> out) {
    if (in.size() % 2 != 0) throw std::runtime_error("a coded packet of odd length " + std::to_string(in.size()));
    std::size_t n = 0;
    for (std::size_t i = 0; i < in.size(); i += 2) n += in[i];
    out.resize(n);  // over the capacity: dfg::LengthError
    std::size_t o = 0;
    for (std::size_t i = 0; i < in.size(); i += 2)
      for (std::uint8_t k = 0; k < in[i]; ++k) out[o++] = in[i + 1];
  }
};
