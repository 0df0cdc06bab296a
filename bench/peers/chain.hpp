// The peers chain (README.md beside this file), what every peer program shares: the token, the
// source's, a stage's and the sink's work (those of actors/chain.hpp, which the dfgc programs
// run), the options, the timing of one repetition and the result line.
//
// A stream of N tokens goes through a source, H stages and a sink. Token k holds k + e in element
// e; every stage adds 1 to each element; the sink checks that the tokens arrive in order, each
// once, each after H stages. The quantity every peer prints is the time per token per stage with
// every stage streaming: ns_per_hop = (streaming time of the N tokens) / (N * H), the median (and
// the best) of --reps repetitions in one process; setting up the graph, the threads and the GPU
// streams is outside the timed part.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace peers {

/// 64 bytes, one cache line: the small token of a stream (a record, a sample block's header), as
/// actors/chain.hpp's int64[8]. A single int would measure the same hop; 64 bytes keeps the copy
/// that a by-value message makes (oneTBB's flow graph) a real one.
struct alignas(64) Token {
  std::int64_t v[8];
};

inline Token source_token(std::int64_t k) {
  Token t;
  for (int e = 0; e < 8; ++e) t.v[e] = k + e;
  return t;
}

/// A stage's work: out of line, so that a plain loop cannot fold H stages into one addition.
[[gnu::noinline]] inline Token cpu_stage(const Token& in) {
  Token out;
  for (int e = 0; e < 8; ++e) out.v[e] = in.v[e] + 1;
  return out;
}

/// The sink: tokens must come in order 0, 1, ..., each once, each after `hops` stages. Called by
/// one thread at a time (the sink is serial in every peer).
class Checker {
 public:
  explicit Checker(std::int64_t hops) : hops_(hops) {}

  void take(const Token& t) {
    for (int e = 0; e < 8; ++e) {
      if (t.v[e] != next_ + e + hops_) {
        if (errors_++ == 0)
          first_error_ = "token " + std::to_string(next_) + ", element " + std::to_string(e) +
                         ": " + std::to_string(t.v[e]) + ", expected " +
                         std::to_string(next_ + e + hops_);
        break;
      }
    }
    ++next_;
  }

  /// "" when exactly `tokens` tokens came, all as expected; else what went wrong.
  std::string verdict(std::int64_t tokens) const {
    if (errors_ > 0) return std::to_string(errors_) + " bad tokens, the first: " + first_error_;
    if (next_ != tokens)
      return std::to_string(next_) + " tokens arrived, expected " + std::to_string(tokens);
    return "";
  }

 private:
  std::int64_t hops_;
  std::int64_t next_ = 0;
  std::int64_t errors_ = 0;
  std::string first_error_;
};

struct Options {
  std::string peer;  ///< loop, tbb_function_node, tbb_lightweight, taskflow_pipeline
  std::int64_t tokens = 200000;
  std::int64_t hops = 8;
  int reps = 5;
  int threads = 2;   ///< worker threads of the TBB and Taskflow peers (dfgc runs on 2 PEs)
  int lines = 4;     ///< Taskflow's pipeline lines: tokens in flight at once
  bool gpu = false;  ///< odd stages on the GPU (a mapped token each way), as gpu_mapped.dfg
};

inline Options parse(int argc, char** argv, std::string_view usage) {
  Options o;
  auto number = [&](int& i) -> std::int64_t {
    if (i + 1 >= argc) throw std::invalid_argument(std::string(argv[i]) + " needs a value");
    char* end = nullptr;
    const long long v = std::strtoll(argv[++i], &end, 10);
    if (*end != '\0' || v <= 0)
      throw std::invalid_argument(std::string(argv[i - 1]) + ": not a positive integer");
    return v;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--peer" && i + 1 < argc)
      o.peer = argv[++i];
    else if (a == "--tokens")
      o.tokens = number(i);
    else if (a == "--hops")
      o.hops = number(i);
    else if (a == "--reps")
      o.reps = static_cast<int>(number(i));
    else if (a == "--threads")
      o.threads = static_cast<int>(number(i));
    else if (a == "--lines")
      o.lines = static_cast<int>(number(i));
    else if (a == "--gpu")
      o.gpu = true;
    else if (a == "--help") {
      std::printf("%.*s", static_cast<int>(usage.size()), usage.data());
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument '" + std::string(a) + "'");
    }
  }
  if (o.gpu && o.hops % 2 != 0)
    throw std::invalid_argument("--gpu: --hops must be even (stages alternate)");
  return o;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The result line: `peer=NAME hops=H tokens=N ... ns_per_hop=MEDIAN best_ns_per_hop=BEST
/// checked=ok` (or `checked=FAIL: ...`); `seconds` holds each repetition's streaming time.
inline std::string result_line(const Options& o, std::string_view peer, std::vector<double> seconds,
                               const std::string& failure) {
  std::sort(seconds.begin(), seconds.end());
  const double per_hop = 1e9 / (static_cast<double>(o.tokens) * static_cast<double>(o.hops));
  const double median = seconds.size() % 2
                            ? seconds[seconds.size() / 2]
                            : (seconds[seconds.size() / 2 - 1] + seconds[seconds.size() / 2]) / 2;
  char line[512];
  std::snprintf(
      line, sizeof line,
      "peer=%.*s hops=%lld tokens=%lld threads=%d reps=%zu ns_per_hop=%.2f best_ns_per_hop=%.2f checked=%s",
      static_cast<int>(peer.size()), peer.data(), static_cast<long long>(o.hops),
      static_cast<long long>(o.tokens), o.threads, seconds.size(), median * per_hop,
      seconds.front() * per_hop, failure.empty() ? "ok" : ("FAIL: " + failure).c_str());
  return line;
}

}  // namespace peers
