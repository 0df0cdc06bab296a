// The actors of test/generated/rebalance.dfg: a counter, a node whose firings cost a fixed amount
// of work (and, while a simulated load lasts, a sleep on the thread that first fired it), and a
// sink that recomputes every token.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include <dfg/context.hpp>

namespace rebalance_test {

/// WORK rounds of an integer hash of x: a fixed amount of work, the same on every core.
inline std::int64_t work(std::int64_t x, std::int64_t rounds) {
  auto h = static_cast<std::uint64_t>(x);
  for (std::int64_t r = 0; r < rounds; ++r) h = h * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<std::int64_t>(h >> 1);
}

}  // namespace rebalance_test

struct Count {
  static constexpr bool dfg_stateless = true;
  void fire(std::int64_t* x, dfg::Context& ctx) const { x[0] = ctx.iteration(); }
};

struct Work {
  static constexpr bool dfg_stateless = true;
  /// The thread of the node's first firing, on its own PE (every instance of the node shares it).
  static inline std::atomic<std::thread::id> home{};

  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) const {
    y[0] = rebalance_test::work(x[0], ctx.runtime_param("WORK"));
    std::thread::id none{};
    home.compare_exchange_strong(none, std::this_thread::get_id());
    const std::int64_t j = ctx.iteration();
    if (home.load() == std::this_thread::get_id() && j >= ctx.runtime_param("LOAD_FROM") &&
        j < ctx.runtime_param("LOAD_TO"))
      std::this_thread::sleep_for(std::chrono::microseconds(ctx.runtime_param("LOAD_US")));
  }
};

struct Check {
  std::int64_t checked = 0;

  void fire(const std::int64_t* y, dfg::Context& ctx) {
    const std::int64_t want = rebalance_test::work(ctx.iteration(), ctx.runtime_param("WORK"));
    if (ctx.iteration() != checked || y[0] != want)
      throw std::runtime_error("iteration " + std::to_string(ctx.iteration()) + ": " +
                               std::to_string(y[0]) + ", not " + std::to_string(want));
    ++checked;
  }
  void finish() {
    std::printf("check: %lld iterations, all equal\n", static_cast<long long>(checked));
  }
};
