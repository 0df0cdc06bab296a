// The paper's FIR filter as 13 dynamic actors (section 5.3.1, figure 7), shared by the GPU
// benchmark (fir.cu) and the CPU test of the network (test/unit/runtime/dynamic_bench_test.cpp):
//
//   source -> delay_1 -> delay_2 -> delay_3          (each delay: one initial 0, then a copy)
//      |         |          |          |
//    mul_1     mul_2      mul_3      mul_4            (x h1, x h2, x h3, x h4)
//      \________/           |          |
//        add_1 ---------- add_2 ---- add_3 -> rshift -> sink
//
// y[t] = (h1 x[t] + h2 x[t-1] + h3 x[t-2] + h4 x[t-3]) >> 2 (fir::reference). One actor type for
// all 13, host and device: compiled by nvcc, a step fires on n threads of a block in device code
// and serially in host code; compiled by a host compiler (with the CUDA toolkit's headers for
// <cuda/atomic>), the host form only.
#pragma once

#include "dfg/cuda/parallel_firing.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fir {

using Token = std::int32_t;
using Ref = dfg::RingRef<Token, cuda::thread_scope_system>;
constexpr std::size_t kMaxFirings = 4096;
constexpr Token kTaps[4] = {3, -5, 7, 2};

enum class Kind : int { source, delay, mul, add, shift, sink };

// Every actor of the network, one type: the island holds an array of them.
struct FirActor {
  Kind kind;
  int outputs;  // 1 or 2 (a fan-out writes both rings)
  Ref in[2];
  Ref out[2];
  Token param;             // mul: the tap; shift: the shift
  Token* data;             // source: the samples; sink: where the outputs go (host memory)
  std::uint64_t total;     // source: samples to send
  std::uint64_t produced;  // source: samples sent; delay: 1 once the initial token is out

  template <class Action, class... P>
  DFG_HOST_DEVICE static std::size_t fire(std::size_t max_n, Action action, const P&... ports) {
#if defined(__CUDA_ARCH__)
    return dfg::block_fire_parallel(max_n, action, ports...);
#else
    return dfg::fire_serial(max_n, action, ports...);
#endif
  }
  DFG_HOST_DEVICE static bool thread0() {
#if defined(__CUDA_ARCH__)
    return threadIdx.x == 0;
#else
    return true;
#endif
  }
  // One input, `outputs` outputs of the same value f(x).
  template <class F>
  DFG_HOST_DEVICE std::size_t map1(std::size_t max_n, F f) const {
    if (outputs == 2)
      return fire(
          max_n,
          [f](std::size_t, dfg::RingSpan<const Token> x, dfg::RingSpan<Token> a,
              dfg::RingSpan<Token> b) { a[0] = b[0] = f(x[0]); },
          dfg::consume(in[0]), dfg::produce(out[0]), dfg::produce(out[1]));
    return fire(
        max_n,
        [f](std::size_t, dfg::RingSpan<const Token> x, dfg::RingSpan<Token> a) { a[0] = f(x[0]); },
        dfg::consume(in[0]), dfg::produce(out[0]));
  }

  DFG_HOST_DEVICE bool step() {
    switch (kind) {
      case Kind::source: {
        const std::uint64_t left = total - produced;
        const Token* samples = data;
        const auto emit = [samples](std::size_t, dfg::RingSpan<Token> a, dfg::RingSpan<Token> b) {
          a[0] = b[0] = samples[a.start()];
        };
        const std::size_t n =
            fire(left < kMaxFirings ? static_cast<std::size_t>(left) : kMaxFirings, emit,
                 dfg::produce(out[0]), dfg::produce(out[1]));
        if (thread0()) produced += n;
        return n != 0;
      }
      case Kind::delay: {
        if (produced == 0) {  // the initial token
          const auto zero = [](std::size_t, dfg::RingSpan<Token> a) { a[0] = 0; };
          const auto zeros = [](std::size_t, dfg::RingSpan<Token> a, dfg::RingSpan<Token> b) {
            a[0] = b[0] = 0;
          };
          const std::size_t n = outputs == 2
                                    ? fire(1, zeros, dfg::produce(out[0]), dfg::produce(out[1]))
                                    : fire(1, zero, dfg::produce(out[0]));
          if (thread0()) produced = n;
          return n != 0;
        }
        return map1(kMaxFirings, [](Token x) { return x; }) != 0;
      }
      case Kind::mul: {
        const Token h = param;
        return map1(kMaxFirings, [h](Token x) { return x * h; }) != 0;
      }
      case Kind::shift: {
        const Token s = param;
        return map1(kMaxFirings, [s](Token x) { return x >> s; }) != 0;
      }
      case Kind::add:
        return fire(
                   kMaxFirings,
                   [](std::size_t, dfg::RingSpan<const Token> a, dfg::RingSpan<const Token> b,
                      dfg::RingSpan<Token> s) { s[0] = a[0] + b[0]; },
                   dfg::consume(in[0]), dfg::consume(in[1]), dfg::produce(out[0])) != 0;
      case Kind::sink: {
        Token* o = data;
        return fire(
                   kMaxFirings,
                   [o](std::size_t, dfg::RingSpan<const Token> t) { o[t.start()] = t[0]; },
                   dfg::consume(in[0])) != 0;
      }
    }
    return false;
  }
  // Can never fire again: a source that sent everything, an actor with an input at its end (an
  // adder's other input may keep the delays' extra tokens).
  DFG_HOST_DEVICE bool done() const {
    if (kind == Kind::source) return produced == total;
    if (kind == Kind::add) return in[0].drained() || in[1].drained();
    return in[0].drained();
  }
  DFG_HOST_DEVICE void close() {
    for (int i = 0; i < outputs; ++i) out[i].close();
  }
};

// --- the network ---

struct ActorSpec {
  const char* name;
  Kind kind;
  Token param;
};
constexpr ActorSpec kActors[] = {
    {"source", Kind::source, 0},    {"delay_1", Kind::delay, 0},    {"delay_2", Kind::delay, 0},
    {"delay_3", Kind::delay, 0},    {"mul_1", Kind::mul, kTaps[0]}, {"mul_2", Kind::mul, kTaps[1]},
    {"mul_3", Kind::mul, kTaps[2]}, {"mul_4", Kind::mul, kTaps[3]}, {"add_1", Kind::add, 0},
    {"add_2", Kind::add, 0},        {"add_3", Kind::add, 0},        {"rshift", Kind::shift, 2},
    {"sink", Kind::sink, 0}};
constexpr int kActorCount = 13;

struct EdgeSpec {
  const char* from;
  int out_port;
  const char* to;
  int in_port;
};
constexpr EdgeSpec kEdges[] = {
    {"source", 0, "delay_1", 0}, {"source", 1, "mul_1", 0},    {"delay_1", 0, "delay_2", 0},
    {"delay_1", 1, "mul_2", 0},  {"delay_2", 0, "delay_3", 0}, {"delay_2", 1, "mul_3", 0},
    {"delay_3", 0, "mul_4", 0},  {"mul_1", 0, "add_1", 0},     {"mul_2", 0, "add_1", 1},
    {"add_1", 0, "add_2", 0},    {"mul_3", 0, "add_2", 1},     {"add_2", 0, "add_3", 0},
    {"mul_4", 0, "add_3", 1},    {"add_3", 0, "rshift", 0},    {"rshift", 0, "sink", 0}};

// The paper's table 6: the actors on the GPU (source and sink always on the CPU). Its m2 lists
// add_2 twice and add_3 nowhere; here add_3 is on the CPU.
const std::map<std::string, std::set<std::string>> kMappings = {
    {"m1",
     {"delay_1", "delay_2", "delay_3", "mul_1", "mul_2", "mul_3", "mul_4", "add_1", "add_2",
      "add_3", "rshift"}},
    {"m2", {"delay_2", "delay_3", "mul_3", "mul_4", "add_2"}},
    {"m3", {"delay_1", "delay_2", "delay_3", "mul_2", "mul_3", "mul_4", "add_1", "add_2"}},
    {"m4", {"delay_2", "mul_2", "mul_4", "add_2", "rshift"}},
    {"m5", {"delay_2", "mul_2", "mul_4", "add_3", "rshift"}},
    {"m6", {"add_1", "add_2", "add_3", "rshift"}}};

int actor_index(const char* name) {
  for (int i = 0; i < kActorCount; ++i)
    if (std::string(kActors[i].name) == name) return i;
  throw std::invalid_argument(std::string("fir: no actor ") + name);
}

/// The filter's output for `x`, computed directly.
inline std::vector<Token> reference(const std::vector<Token>& x) {
  std::vector<Token> y(x.size());
  for (std::size_t t = 0; t < x.size(); ++t) {
    Token s = 0;
    for (std::size_t k = 0; k < 4; ++k) s += t >= k ? kTaps[k] * x[t - k] : 0;
    y[t] = s >> 2;
  }
  return y;
}

}  // namespace fir
