// One file's bytes a firing, then zeros to the token's end.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/context.hpp"
#include "files.hpp"

struct Source {
  std::vector<std::vector<std::uint8_t>> files;

  void fire(std::uint8_t* out, dfg::Context& ctx) {
    if (files.empty())
      for (const std::string& name : jpeg::list())
        files.push_back(jpeg::read(jpeg::directory() + "/" + name));
    const std::vector<std::uint8_t>& f =
        files[static_cast<std::size_t>(ctx.iteration()) % files.size()];
    const std::size_t n = ctx.elements(0);
    if (f.size() > n)
      throw std::runtime_error("a file of " + std::to_string(f.size()) +
                               " bytes; the token holds " + std::to_string(n));
    std::copy(f.begin(), f.end(), out);
    std::fill(out + f.size(), out + n, std::uint8_t{0});
  }
};
