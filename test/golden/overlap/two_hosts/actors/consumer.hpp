// Consumer: checks that every element of the token equals the producer's value for this
// iteration plus two (one per incrementer). A mismatch throws, naming the iteration and index.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

struct Consumer {
  void fire(const float* m, dfg::Context& ctx) {
    const std::size_t n = ctx.elements(0);
    const float expected = static_cast<float>(ctx.iteration() % 1000000) + 2.0f;
    for (std::size_t i = 0; i < n; ++i) {
      if (m[i] != expected)
        throw std::runtime_error("consumer: iteration " + std::to_string(ctx.iteration()) +
                                 ", element " + std::to_string(i) + ": got " +
                                 std::to_string(m[i]) + ", expected " + std::to_string(expected));
    }
  }
};
