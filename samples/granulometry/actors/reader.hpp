// Reader: stands for the camera or file the volume comes from; fills the volume with spheres whose
// radii vary with the iteration, so that the curve changes from one iteration to the next.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dfg/context.hpp>

struct Reader {
  void fire(std::uint8_t* volume, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    std::size_t side = 1;
    while (side * side * side < n) ++side;
    const std::size_t cell = 32;
    const std::size_t radius = 4 + static_cast<std::size_t>(ctx.iteration() % 12);
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t x = i % side % cell, y = i / side % side % cell, z = i / (side * side) % cell;
      auto d = [&](std::size_t c) { return c > cell / 2 ? c - cell / 2 : cell / 2 - c; };
      volume[i] = d(x) * d(x) + d(y) * d(y) + d(z) * d(z) <= radius * radius ? 1 : 0;
    }
  }
};
