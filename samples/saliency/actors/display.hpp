// Display: receives the saliency map of each frame. Every CHECK-th iteration (the runtime param;
// 0: never) it computes the reference of the whole pipeline on the same frame
// (saliency::reference, double precision) and stops the program if the map is not within the
// tolerance that saliency::Comparison states; it prints each comparison and the most salient
// pixel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <dfg/context.hpp>

#include "camera.hpp"
#include "model.hpp"

struct Display {
  int w_ = 0, h_ = 0;
  std::int64_t check_ = 0;

  void init(dfg::Context& ctx) {
    w_ = static_cast<int>(ctx.runtime_param("W"));
    h_ = static_cast<int>(ctx.runtime_param("H"));
    check_ = ctx.runtime_param("CHECK");
  }

  void fire(const float* saliency, dfg::Context& ctx) {
    if (check_ == 0 || ctx.iteration() % check_ != 0) return;
    std::vector<std::uint8_t> frame(static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_));
    saliency::render_frame(w_, h_, ctx.iteration() % Camera::kFrames, frame.data());
    const saliency::Comparison c = saliency::compare(saliency, saliency::reference(frame.data(), w_, h_));
    std::size_t peak = 0;
    for (std::size_t i = 0; i < frame.size(); ++i)
      if (saliency[i] > saliency[peak]) peak = i;
    const std::string line = "saliency: iteration " + std::to_string(ctx.iteration()) + ", most salient pixel (" +
                             std::to_string(peak % static_cast<std::size_t>(w_)) + ", " +
                             std::to_string(peak / static_cast<std::size_t>(w_)) + "); against the CPU reference: " +
                             c.text();
    if (!c.ok()) throw std::runtime_error(line + ": outside the tolerance");
    std::printf("%s\n", line.c_str());
  }
};
