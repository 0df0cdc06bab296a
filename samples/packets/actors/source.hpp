// Sends packets of every length from 0 to the capacity. With `over` > 0 it asks for one
// element more than the capacity in iteration `over`: the run must stop there with an error.
#pragma once

#include <cstdint>

#include "dfg/bounded.hpp"
#include "dfg/context.hpp"
#include "packet.hpp"

struct Source {
  std::int64_t over = 0;

  void fire(dfg::Bounded<std::uint8_t> out, dfg::Context& ctx) {
    const std::int64_t j = ctx.iteration();
    const std::size_t n = over > 0 && j == over ? out.capacity() + 1 : packets::length(j, out.capacity());
    out.resize(n);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = packets::byte(j, i);
  }
};
