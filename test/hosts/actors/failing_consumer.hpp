// FailingConsumer: throws when it handles the iteration that the environment variable
// DFG_TEST_FAIL_AT names (never without it).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include <dfg/context.hpp>

struct FailingConsumer {
  void init(dfg::Context&) {
    const char* at = std::getenv("DFG_TEST_FAIL_AT");
    fail_at_ = at != nullptr ? std::strtoll(at, nullptr, 10) : -1;
  }

  void fire(const float* m, dfg::Context& ctx) {
    static_cast<void>(m);
    if (ctx.iteration() == fail_at_) throw std::runtime_error("injected failure");
  }

 private:
  std::int64_t fail_at_ = -1;
};
