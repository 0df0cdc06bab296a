// The actors of samples/streamit/beamformer: StreamIt's BeamFormer filters, in float arithmetic
// in StreamIt's order of operations.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <system_error>
#include <vector>

#include <dfg/context.hpp>
#include <dfg/port_group.hpp>
#include <dfg/state.hpp>

/// Firing i of channel c (its sample i mod `samples`): -sqrt(s c), -(sqrt(s c) + 1), or both
/// positive on the target channel at the target sample. Stateless: the sample comes from the
/// firing's number.
struct InputGenerate {
  static constexpr bool dfg_stateless = true;
  int channel = 0;
  int samples = 1024;
  int target_channel = 1;
  int target_sample = 256;
  void fire(float* x, dfg::Context& ctx) const {
    const std::int64_t i = ctx.iteration() * ctx.firings() + ctx.firing();
    const int s = static_cast<int>(i % samples);
    const float root = std::sqrt(static_cast<float>(s * channel));
    const bool target = channel == target_channel && s == target_sample;
    x[0] = target ? root : -root;
    x[1] = target ? root + 1 : -(root + 1);
  }
};

/// StreamIt's BeamFirFilter: a firing takes `dec` complex samples, puts the first in a ring of
/// `taps` (a power of two) and gives the complex FIR of the ring; the ring is cleared after every
/// `length` input samples.
struct BeamFir {
  int taps = 64;
  int length = 1024;
  int dec = 1;
  std::vector<float> real_weight, imag_weight, real_buffer, imag_buffer;
  int pos = 0;
  int count = 0;

  void init() {
    real_weight.resize(static_cast<std::size_t>(taps));
    imag_weight.resize(static_cast<std::size_t>(taps));
    for (int j = 0; j < taps; ++j) {
      const float idx = static_cast<float>(j + 1);
      real_weight[static_cast<std::size_t>(j)] = std::sin(idx) / idx;
      imag_weight[static_cast<std::size_t>(j)] = std::cos(idx) / idx;
    }
    real_buffer.assign(static_cast<std::size_t>(taps), 0.0f);
    imag_buffer.assign(static_cast<std::size_t>(taps), 0.0f);
  }

  void fire(const float* x, float* y) {
    const int last = taps - 1;
    real_buffer[static_cast<std::size_t>(last - pos)] = x[0];
    imag_buffer[static_cast<std::size_t>(last - pos)] = x[1];
    float real_curr = 0;
    float imag_curr = 0;
    int mod_pos = last - pos;
    for (int i = 0; i < taps; ++i) {
      const std::size_t m = static_cast<std::size_t>(mod_pos);
      const std::size_t k = static_cast<std::size_t>(i);
      real_curr += real_buffer[m] * real_weight[k] + imag_buffer[m] * imag_weight[k];
      imag_curr += imag_buffer[m] * real_weight[k] + real_buffer[m] * imag_weight[k];
      mod_pos = (mod_pos + 1) & last;
    }
    pos = (pos + 1) & last;
    y[0] = real_curr;
    y[1] = imag_curr;
    count += dec;
    if (count == length) {
      count = 0;
      pos = 0;
      real_buffer.assign(real_buffer.size(), 0.0f);
      imag_buffer.assign(imag_buffer.size(), 0.0f);
    }
  }

  void save(dfg::State& s) const {
    s.write(real_buffer.data(), real_buffer.size() * sizeof(float));
    s.write(imag_buffer.data(), imag_buffer.size() * sizeof(float));
    s.write(&pos, sizeof pos);
    s.write(&count, sizeof count);
  }
  void restore(const dfg::State& s) {
    s.read(real_buffer.data(), real_buffer.size() * sizeof(float));
    s.read(imag_buffer.data(), imag_buffer.size() * sizeof(float));
    s.read(&pos, sizeof pos);
    s.read(&count, sizeof count);
  }
};

/// StreamIt's BeamForm: the beam's weighted sum of one complex sample of each channel, x_c the
/// port of channel c.
struct BeamForm {
  int beam = 0;
  int channels = 12;
  std::vector<float> real_weight, imag_weight;

  void init() {
    real_weight.resize(static_cast<std::size_t>(channels));
    imag_weight.resize(static_cast<std::size_t>(channels));
    for (int j = 0; j < channels; ++j) {
      const int idx = j + 1;
      const float den = static_cast<float>(beam + idx);
      real_weight[static_cast<std::size_t>(j)] = std::sin(static_cast<float>(idx)) / den;
      imag_weight[static_cast<std::size_t>(j)] = std::cos(static_cast<float>(idx)) / den;
    }
  }

  void fire(dfg::Ports<const float> x, float* y) const {
    float real_curr = 0;
    float imag_curr = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float real_pop = x[i][0];
      const float imag_pop = x[i][1];
      real_curr += real_weight[i] * real_pop - imag_weight[i] * imag_pop;
      imag_curr += real_weight[i] * imag_pop + imag_weight[i] * real_pop;
    }
    y[0] = real_curr;
    y[1] = imag_curr;
  }
};

struct Magnitude {
  static constexpr bool dfg_stateless = true;
  void fire(const float* x, float* y) const { y[0] = std::sqrt(x[0] * x[0] + x[1] * x[1]); }
};

/// A line a beam, in port order, as Java's Float.toString writes a float: the shortest decimal
/// that reads back as it, with ".0" after a whole number, and "E" outside [0.001, 10^7).
struct Print {
  static constexpr bool dfg_stateless = true;
  int beams = 4;
  void fire(dfg::Ports<const float> x) const {
    for (const float* v : x) std::printf("%s\n", java_float(v[0]).c_str());
  }

  static std::string java_float(float v) {
    char text[64];
    const float a = std::fabs(v);
    const bool plain = a == 0.0f || (a >= 1e-3f && a < 1e7f);
    const auto r = std::to_chars(text, text + sizeof text, v,
                                 plain ? std::chars_format::fixed : std::chars_format::scientific);
    std::string out(text, r.ptr);
    const std::size_t e = out.find('e');
    std::string mantissa = out.substr(0, e);
    if (mantissa.find('.') == std::string::npos) mantissa += ".0";
    if (e == std::string::npos) return mantissa;
    return mantissa + "E" + std::to_string(std::stoi(out.substr(e + 1)));
  }
};
