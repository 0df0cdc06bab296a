// Compares each decoded image with libjpeg's decode of the same file (its .ppm): the size, and
// every channel of every pixel within `tol` (at once where all are equal). Prints the count and
// the largest difference at the end.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/context.hpp"
#include "files.hpp"

struct Sink {
  int tol = 0;
  struct Reference {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
  };
  std::vector<std::string> names;
  std::vector<Reference> refs;
  std::int64_t checked = 0, pixels = 0;
  int worst = 0;

  void fire(const std::uint8_t* in, dfg::Context& ctx) {
    if (refs.empty()) load();
    const std::size_t k = static_cast<std::size_t>(ctx.iteration()) % refs.size();
    const Reference& r = refs[k];
    const int w = in[0] | in[1] << 8, h = in[2] | in[3] << 8;
    const std::string where = "iteration " + std::to_string(ctx.iteration()) + ", " + names[k];
    if (w != r.width || h != r.height)
      throw std::runtime_error(where + ": decoded " + std::to_string(w) + "x" + std::to_string(h) +
                               ", expected " + std::to_string(r.width) + "x" +
                               std::to_string(r.height));
    const bool same = std::memcmp(in + 4, r.rgb.data(), r.rgb.size()) == 0;
    for (std::size_t i = 0; i < r.rgb.size() && !same; ++i) {
      const int d = std::abs(int{in[4 + i]} - int{r.rgb[i]});
      if (d > tol) {
        const std::size_t p = i / 3;
        throw std::runtime_error(
            where + ": pixel (" + std::to_string(p % static_cast<std::size_t>(w)) + ", " +
            std::to_string(p / static_cast<std::size_t>(w)) + ") channel " + std::to_string(i % 3) +
            " is " + std::to_string(in[4 + i]) + ", expected " + std::to_string(r.rgb[i]));
      }
      if (d > worst) worst = d;
    }
    ++checked;
    pixels += std::int64_t{w} * h;
  }

  void finish() {  // after a run that completed only: never claims a failed run checked
    if (checked > 0)
      std::printf("jpeg checked: %lld images, %lld pixels, largest difference %d\n",
                  static_cast<long long>(checked), static_cast<long long>(pixels), worst);
  }

 private:
  void load() {  // binary PPM: "P6\n<w> <h>\n255\n" then RGB
    for (const std::string& name : jpeg::list()) {
      const std::string path = jpeg::directory() + "/" + name.substr(0, name.rfind('.')) + ".ppm";
      const std::vector<std::uint8_t> f = jpeg::read(path);
      Reference r;
      int maxval = 0, used = 0;
      const std::string head(
          f.begin(), f.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(f.size(), 64)));
      if (std::sscanf(head.c_str(), "P6 %d %d %d%n", &r.width, &r.height, &maxval, &used) != 3 ||
          maxval != 255)
        throw std::runtime_error("not a binary PPM of 8 bits: " + path);
      const std::size_t n =
          std::size_t{3} * static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height);
      if (f.size() < static_cast<std::size_t>(used) + 1 + n)
        throw std::runtime_error("short PPM: " + path);
      r.rgb.assign(f.begin() + used + 1, f.begin() + used + 1 + static_cast<std::ptrdiff_t>(n));
      names.push_back(name);
      refs.push_back(std::move(r));
    }
  }
};
