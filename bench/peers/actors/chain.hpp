// The CPU actors of the peers chain (bench/peers/README.md): the source writes iteration k's token
// (element e holds k + e), every stage adds 1 to each element, and the sink checks that iteration
// k's token is token k after `hops` stages, so that every token arrives once and in order.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>

constexpr int kChainElements = 8;  // int64[8]: a 64-byte token, one cache line

struct ChainSource {
  void fire(std::int64_t* t, dfg::Context& ctx) {
    for (int e = 0; e < kChainElements; ++e) t[e] = ctx.iteration() + e;
  }
};

struct ChainStage {
  void fire(const std::int64_t* a, std::int64_t* b) {
    for (int e = 0; e < kChainElements; ++e) b[e] = a[e] + 1;
  }
};

struct ChainSink {
  int hops = 0;
  std::int64_t checked = 0;

  void fire(const std::int64_t* t, dfg::Context& ctx) {
    const std::int64_t k = ctx.iteration();
    for (int e = 0; e < kChainElements; ++e) {
      if (t[e] != k + e + hops) {
        throw std::runtime_error("token " + std::to_string(k) + ", element " + std::to_string(e) +
                                 ": " + std::to_string(t[e]) + ", expected " +
                                 std::to_string(k + e + hops));
      }
    }
    ++checked;
  }

  ~ChainSink() {
    std::printf("chain sink: %lld tokens checked\n", static_cast<long long>(checked));
  }
};
