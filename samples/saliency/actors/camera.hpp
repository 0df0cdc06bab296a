// Camera: stands for the video source. Each iteration delivers one W x H grey frame in host
// memory (saliency::render_frame: moving shapes on a textured background). The 16 frames of a
// cycle are drawn once, in init(): a firing is then a copy, at the speed of a frame grabber.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/context.hpp>

#include "model.hpp"

struct Camera {
  static constexpr std::int64_t kFrames = 16;
  std::vector<std::vector<std::uint8_t>> frames_;

  void init(dfg::Context& ctx) {
    const int w = static_cast<int>(ctx.runtime_param("W")), h = static_cast<int>(ctx.runtime_param("H"));
    if (ctx.elements(0) != static_cast<std::size_t>(w) * static_cast<std::size_t>(h))
      throw std::invalid_argument("Camera: a frame holds " + std::to_string(ctx.elements(0)) + " pixels, not W * H");
    for (std::int64_t t = 0; t < kFrames; ++t) {
      std::vector<std::uint8_t>& frame = frames_.emplace_back(ctx.elements(0));
      saliency::render_frame(w, h, t, frame.data());
    }
  }

  void fire(std::uint8_t* frame, dfg::Context& ctx) {
    const std::vector<std::uint8_t>& source = frames_[static_cast<std::size_t>(ctx.iteration() % kFrames)];
    std::memcpy(frame, source.data(), source.size());
  }
};
