// Recomputes iteration j's packet, masked, and compares its length and every byte; counts the
// coded bytes that crossed, and prints the totals at the end.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "dfg/bounded.hpp"
#include "dfg/context.hpp"
#include "packet.hpp"

struct Check {
  std::int64_t key = 0;
  std::int64_t checked = 0;
  std::int64_t bytes = 0;

  void fire(dfg::Bounded<const std::uint8_t> in, dfg::Context& ctx) {
    const std::int64_t j = ctx.iteration();
    const std::size_t want = packets::length(j, in.capacity());
    if (in.size() != want) {
      throw std::runtime_error("iteration " + std::to_string(j) + ": packet of length " + std::to_string(in.size()) +
                               ", expected " + std::to_string(want));
    }
    for (std::size_t i = 0; i < want; ++i) {
      const std::uint8_t b = packets::mask(packets::byte(j, i), key);
      if (in[i] != b) {
        throw std::runtime_error("iteration " + std::to_string(j) + ", byte " + std::to_string(i) + ": " +
                                 std::to_string(in[i]) + ", expected " + std::to_string(b));
      }
    }
    ++checked;
    bytes += static_cast<std::int64_t>(want);
  }

  void finish() {  // after a run that completed only: never claims a failed run checked
    if (checked > 0) std::printf("packets checked: %lld, %lld bytes\n", static_cast<long long>(checked), static_cast<long long>(bytes));
  }
};
