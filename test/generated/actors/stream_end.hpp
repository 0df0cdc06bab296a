// The actors of test/generated/stream_end.dfg: a reader that ends the stream where
// DFG_END_AT says (ctx.end_stream(), or ctx.end_stream_before() with DFG_END_BEFORE set), a
// second source, two stages, and a sink that checks each block and, in finish() (a run that
// completed only), prints how many iterations it checked; its count is saved in checkpoints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

inline std::int64_t stream_end_env(const char* name, std::int64_t otherwise) {
  const char* v = std::getenv(name);
  return v ? std::atoll(v) : otherwise;
}

struct Reader {
  static constexpr bool dfg_stateless = true;  // its members are the environment's settings
  std::int64_t end_at = stream_end_env("DFG_END_AT", -1);
  bool before = std::getenv("DFG_END_BEFORE") != nullptr;

  void fire(std::int64_t* x, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements("x"); ++k)
      x[k] = 3 * ctx.iteration() + static_cast<std::int64_t>(k);
    if (ctx.iteration() != end_at) return;
    if (before) {
      ctx.end_stream_before();
    } else {
      ctx.end_stream();
    }
  }
};

struct Ticker {
  static constexpr bool dfg_stateless = true;
  bool ends = std::getenv("DFG_TICKER_ENDS") != nullptr;

  void fire(std::int64_t* t, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) t[k] = 5 * ctx.iteration();
    if (ends) ctx.end_stream();  // its actor does not say `ends stream;`: an error
  }
};

struct Add {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, const std::int64_t* t, std::int64_t* y, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) y[k] = x[k] + t[k];
  }
};

struct Scale {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* y, std::int64_t* z, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) z[k] = 2 * y[k];
  }
};

struct Check {
  std::int64_t next = 0;  // the iteration the next block is of

  void fire(const std::int64_t* z, dfg::Context& ctx) {
    const std::int64_t j = ctx.iteration();
    if (j != next)
      throw std::runtime_error("check: iteration " + std::to_string(j) + " came, expected " +
                               std::to_string(next));
    for (std::size_t k = 0; k < ctx.elements("z"); ++k)
      if (z[k] != 2 * (8 * j + static_cast<std::int64_t>(k)))
        throw std::runtime_error("check: iteration " + std::to_string(j) + " element " +
                                 std::to_string(k) + " is " + std::to_string(z[k]));
    ++next;
  }
  void finish() { std::printf("check: %lld iterations, all equal\n", static_cast<long long>(next)); }
  void save(dfg::State& s) const { s.write(&next, sizeof next); }
  void restore(const dfg::State& s) { s.read(&next, sizeof next); }
};
