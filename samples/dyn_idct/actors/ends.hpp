// The static ends: the source codes B blocks an iteration into a token of CAP elements (padded),
// or gives their coefficients (Coefficients); the sink compares every pixel with the sequential
// decoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/context.hpp"
#include "idct.hpp"

struct Source {
  int blocks = 1;
  std::vector<std::int32_t> code;
  void fire(std::int32_t* out, dfg::Context& ctx) {
    code.clear();
    for (int b = 0; b < blocks; ++b) idct::encode(ctx.iteration() * blocks + b, code);
    const std::size_t n = ctx.elements(0);
    if (code.size() > n) throw std::runtime_error("code of " + std::to_string(code.size()) + " elements");
    for (std::size_t i = 0; i < n; ++i) out[i] = i < code.size() ? code[i] : idct::kPad;
  }
};

/// B blocks of coefficients an iteration, for the IDCT alone (idct_gpu.dfg).
struct Coefficients {
  int blocks = 1;
  void fire(std::int32_t* out, dfg::Context& ctx) {
    for (int b = 0; b < blocks; ++b)
      for (std::size_t i = 0; i < 64; ++i) out[b * 64 + i] = idct::coefficient(ctx.iteration() * blocks + b, i);
  }
};

struct Sink {
  int blocks = 1;
  std::int64_t checked = 0;
  std::int64_t sum = 0;
  void fire(const std::int32_t* in, dfg::Context& ctx) {
    for (int b = 0; b < blocks; ++b) {
      const std::int64_t id = ctx.iteration() * blocks + b;
      std::int32_t coef[64], rows[64], pixels[64];
      for (std::size_t i = 0; i < 64; ++i) coef[i] = idct::coefficient(id, i);
      idct::rows(coef, rows);
      idct::columns(rows, pixels);
      for (std::size_t i = 0; i < 64; ++i) {
        if (in[b * 64 + i] != pixels[i])
          throw std::runtime_error("iteration " + std::to_string(ctx.iteration()) + ", block " + std::to_string(b) +
                                   ", pixel " + std::to_string(i) + ": " + std::to_string(in[b * 64 + i]) +
                                   ", expected " + std::to_string(pixels[i]));
        sum += pixels[i];
      }
      ++checked;
    }
  }
  void finish() {  // after a run that completed only: never claims a failed run checked
    if (checked > 0) std::printf("idct checked: %lld blocks, sum %lld\n", static_cast<long long>(checked), static_cast<long long>(sum));
  }
};
