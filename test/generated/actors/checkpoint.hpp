// The actors of test/generated/checkpoint.dfg: state in a member (Sum), in a loop (Mix) and in
// an output file (Lines), each with save/restore, so that a restarted run continues the stream.
// Lines reports in finish(), after a run that completed; DFG_FAIL_AT=J makes its firing of
// iteration J throw, DFG_FAIL_FINISH its finish.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <dfg/context.hpp>
#include <dfg/state.hpp>

struct Paced {
  void fire(std::int64_t* x, dfg::Context& ctx) {
    static const long pace = [] {
      const char* p = std::getenv("DFG_PACE_US");
      return p ? std::atol(p) : 0L;
    }();
    if (pace > 0) std::this_thread::sleep_for(std::chrono::microseconds(pace));
    for (std::size_t k = 0; k < ctx.elements(0); ++k)
      x[k] = 7 * ctx.iteration() + static_cast<std::int64_t>(k);
  }
};

struct Sum {
  std::vector<std::int64_t> sum;

  void init(dfg::Context& ctx) { sum.assign(ctx.elements(0), 0); }
  void fire(const std::int64_t* x, std::int64_t* y, dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) y[k] = sum[k] += x[k];
  }
  void save(dfg::State& s) const { s.write(sum.data(), sum.size() * sizeof(std::int64_t)); }
  void restore(const dfg::State& s) { s.read(sum.data(), sum.size() * sizeof(std::int64_t)); }
};

struct Mix {
  static constexpr bool dfg_stateless = true;
  void fire(const std::int64_t* x, const std::int64_t* state, std::int64_t* y, std::int64_t* next,
            dfg::Context& ctx) {
    for (std::size_t k = 0; k < ctx.elements(0); ++k) {
      y[k] = x[k] + state[k];
      next[k] = (3 * state[k] + x[k]) % 1000003;
    }
  }
};

struct Lines {
  int fd = -1;
  std::int64_t bytes = 0;  // the file's length after the last line
  std::int64_t next = 0;   // the iteration the next line is of

  void init() {
    const char* path = std::getenv("DFG_CHECKPOINT_OUT");
    if (!path) throw std::runtime_error("lines: DFG_CHECKPOINT_OUT is not set");
    fd = ::open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(std::string("lines: cannot open ") + path);
  }
  void fire(const std::int64_t* y, dfg::Context& ctx) {
    if (ctx.iteration() != next)
      throw std::runtime_error("lines: iteration " + std::to_string(ctx.iteration()) +
                               " came, expected " + std::to_string(next));
    if (const char* at = std::getenv("DFG_FAIL_AT"); at && std::atoll(at) == ctx.iteration())
      throw std::runtime_error("lines: failing at iteration " + std::string(at) + " as asked");
    if (next == 0 && ::ftruncate(fd, 0) != 0)  // a run from the start: a new file
      throw std::runtime_error("lines: cannot truncate");
    std::int64_t h = 0;
    for (std::size_t k = 0; k < ctx.elements(0); ++k) h = h * 31 + y[k];
    char line[64];
    const int n = std::snprintf(line, sizeof line, "%lld %lld\n", static_cast<long long>(next),
                                static_cast<long long>(h));
    if (::pwrite(fd, line, static_cast<std::size_t>(n), bytes) != n)
      throw std::runtime_error("lines: cannot write");
    bytes += n;
    ++next;
  }
  void save(dfg::State& s) const {
    s.put(bytes);
    s.put(next);
  }
  void restore(const dfg::State& s) {
    bytes = s.get<std::int64_t>();
    next = s.get<std::int64_t>();
    if (::ftruncate(fd, bytes) != 0) throw std::runtime_error("lines: cannot truncate");
  }
  void finish() {  // after a run that completed only
    if (std::getenv("DFG_FAIL_FINISH")) throw std::runtime_error("lines: finish fails as asked");
    std::printf("lines: %lld iterations written\n", static_cast<long long>(next));
  }
  ~Lines() {
    if (fd >= 0) ::close(fd);
  }
};
