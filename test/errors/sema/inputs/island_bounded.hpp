// Actors of dynamic_adapter_bounded.dfg: bounded tokens into and out of an island.
#pragma once

#include <cstdint>

#include "dfg/bounded.hpp"
#include "dfg/ports.hpp"

struct PSrc {
  void fire(dfg::Bounded<std::int32_t> o) { o.resize(0); }
};
struct PSnk {
  void fire(dfg::Bounded<const std::int32_t> i) { (void)i; }
};
struct Dup {
  bool step(dfg::In<std::int32_t> x, dfg::Out<std::int32_t> y) {
    if (x.available() < 1 || y.room() < 2) return false;
    const std::int32_t v = x.pop();
    y.push(v);
    y.push(v);
    return true;
  }
};
