// The actors of test/generated/island_bounded.dfg: element k of iteration j is 100 j + k.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "dfg/bounded.hpp"
#include "dfg/context.hpp"
#include "dfg/ports.hpp"

struct Source {
  void fire(dfg::Bounded<std::int32_t> out, dfg::Context& ctx) {
    const std::int64_t j = ctx.iteration();
    out.resize(static_cast<std::size_t>(j % 17));
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = static_cast<std::int32_t>(100 * j + static_cast<std::int64_t>(k));
  }
};

struct Double {
  int over = -1;

  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    bool fired = false;
    while (x.available() > 0) {
      const std::int32_t v = x.peek(1)[0];
      const std::size_t copies = v / 100 == over ? 3 : 2;
      if (y.room() < copies) break;
      x.release(1);
      for (std::size_t c = 0; c < copies; ++c) y.push(v);
      fired = true;
    }
    return fired;
  }
};

struct Inc {
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    bool fired = false;
    while (x.available() > 0 && y.room() > 0) {
      y.push(x.pop() + 1);
      fired = true;
    }
    return fired;
  }
};

struct Sink {
  std::int64_t tokens = 0, elements = 0;

  void fire(dfg::Bounded<const std::int32_t> in, dfg::Context& ctx) {
    const std::int64_t j = ctx.iteration();
    const std::size_t n = static_cast<std::size_t>(j % 17);
    if (in.size() != 2 * n)
      throw std::runtime_error("iteration " + std::to_string(j) + ": a token of " +
                               std::to_string(in.size()) + " elements, expected " +
                               std::to_string(2 * n));
    for (std::size_t i = 0; i < in.size(); ++i)
      if (in[i] != 100 * j + static_cast<std::int64_t>(i / 2) + 1)
        throw std::runtime_error("iteration " + std::to_string(j) + ": element " +
                                 std::to_string(i) + " is " + std::to_string(in[i]));
    ++tokens;
    elements += static_cast<std::int64_t>(in.size());
  }
  void finish() {  // after a run that completed only: never claims a failed run checked
    std::printf("island_bounded checked: %lld tokens, %lld elements\n",
                static_cast<long long>(tokens), static_cast<long long>(elements));
  }
};
