// The floor: one thread calls the source, the H stages and the sink for one token after another,
// with no runtime between them (no queue, no synchronisation, no second thread).
#include "stages.hpp"

namespace peers {

double run_loop(const Options& o, Stages& stages, Checker& sink) {
  const auto hops = static_cast<std::size_t>(o.hops);
  const auto start = Clock::now();
  for (std::int64_t k = 0; k < o.tokens; ++k) {
    Token t = source_token(k);
    for (std::size_t i = 1; i <= hops; ++i) t = stages.fire(i, t);
    sink.take(t);
  }
  return seconds_since(start);
}

}  // namespace peers
