// One file's bytes a firing, as a bounded token of the file's length.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/bounded.hpp"
#include "dfg/context.hpp"
#include "files.hpp"

struct Source {
  std::vector<std::vector<std::uint8_t>> files;

  void fire(dfg::Bounded<std::uint8_t> out, dfg::Context& ctx) {
    if (files.empty())
      for (const std::string& name : jpeg::list())
        files.push_back(jpeg::read(jpeg::directory() + "/" + name));
    const std::vector<std::uint8_t>& f =
        files[static_cast<std::size_t>(ctx.iteration()) % files.size()];
    if (f.size() > out.capacity())
      throw std::runtime_error("a file of " + std::to_string(f.size()) +
                               " bytes; the token holds " + std::to_string(out.capacity()));
    out.resize(f.size());
    std::copy(f.begin(), f.end(), out.data());
  }
};
