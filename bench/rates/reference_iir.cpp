// The IIR filter (samples/iir/cpu_only.dfg) as a hand-written sequential loop: the sample's own
// actors called in schedule order, the state handed back through a variable (one initial token of
// 0.25), one thread.
//   reference_iir ITERATIONS N  ->  "reference: <ms> ms an iteration"
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <dfg/context.hpp>

#include "actors/check.hpp"
#include "actors/iir.hpp"
#include "actors/signal.hpp"

int main(int argc, char** argv) {
  const std::int64_t iterations = argc > 1 ? std::atoll(argv[1]) : 10000;
  const std::size_t n = argc > 2 ? static_cast<std::size_t>(std::atoll(argv[2])) : 256;
  Signal s;
  Iir f;
  Check k;
  k.initial = 0.25f;
  std::vector<float> x(n), y(n);
  float state = 0.25f, next = 0.0f;
  std::size_t es[] = {n}, ef[] = {n, 1, n, 1}, ek[] = {n};
  dfg::Context cs, cf, ck;
  cs.set_node(nullptr, 1, es, 1);
  cf.set_node(nullptr, 1, ef, 4);
  ck.set_node(nullptr, 1, ek, 1);
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < iterations; ++i) {
    cs.set_iteration(i);
    cf.set_iteration(i);
    ck.set_iteration(i);
    s.fire(x.data(), cs);
    f.fire(x.data(), &state, y.data(), &next, cf);
    state = next;
    k.fire(y.data(), ck);
  }
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  std::printf("reference: %.6f ms an iteration\n", took.count() / static_cast<double>(iterations));
  return 0;
}
