// Reader: stands for the camera or file the volume comes from. Each iteration delivers one of 12
// volumes of spheres whose radii vary with the iteration, so that the curve changes from one
// iteration to the next. The 12 volumes are built once, in init(): a firing is then a copy, at
// the speed a reader of stored volumes would have.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <dfg/context.hpp>

struct Reader {
  static constexpr std::size_t kVolumes = 12;
  std::vector<std::vector<std::uint8_t>> volumes_;

  void init(dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    std::size_t side = 1;
    while (side * side * side < n) ++side;
    const std::size_t cell = 32;
    auto d = [&](std::size_t c) { return c > cell / 2 ? c - cell / 2 : cell / 2 - c; };
    for (std::size_t v = 0; v < kVolumes; ++v) {
      const std::size_t radius = 4 + v;
      std::vector<std::uint8_t>& volume = volumes_.emplace_back(n);
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t x = i % side % cell, y = i / side % side % cell, z = i / (side * side) % cell;
        volume[i] = d(x) * d(x) + d(y) * d(y) + d(z) * d(z) <= radius * radius ? 1 : 0;
      }
    }
  }

  void fire(std::uint8_t* volume, dfg::Context& ctx) {
    const std::vector<std::uint8_t>& source = volumes_[static_cast<std::size_t>(ctx.iteration()) % kVolumes];
    std::memcpy(volume, source.data(), source.size());
  }
};
