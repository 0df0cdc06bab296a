// The multirate chain (samples/multirate) as a hand-written sequential loop: the sample's own
// actors called in schedule order on plain vectors, one thread, no buffers, cycles or queues. The
// source and the sum are called once per firing (two a cycle) unless BLOCK is 1, where the sum
// takes both frames in one call, as the generated program does with `Sum block`.
//   reference_multirate ITERATIONS N BLOCK  ->  "reference: <ms> ms an iteration"
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <dfg/context.hpp>

#include "actors/bank.hpp"
#include "actors/check.hpp"
#include "actors/decimate.hpp"
#include "actors/interpolate.hpp"
#include "actors/source.hpp"
#include "actors/sum.hpp"

namespace {

struct Ctx {
  std::vector<std::size_t> elements;
  dfg::Context ctx;
  Ctx(std::vector<std::size_t> e, std::uint32_t firings) : elements(std::move(e)) {
    ctx.set_node(nullptr, firings, elements.data(), elements.size());
  }
  dfg::Context& at(std::int64_t i, std::uint32_t k = 0) {
    ctx.set_iteration(i);
    ctx.set_firing(k);
    return ctx;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t iterations = argc > 1 ? std::atoll(argv[1]) : 10000;
  const std::size_t n = argc > 2 ? static_cast<std::size_t>(std::atoll(argv[2])) : 64;
  const bool block = argc > 3 && std::atoi(argv[3]) == 1;
  Source s;
  Decimate d;
  Bank b;
  Interpolate ul, uh;
  Sum m;
  Check k;
  std::vector<float> x(2 * n), y(n), low(n), high(n), lo2(2 * n), hi2(2 * n), out(2 * n);
  Ctx cs({n}, 2), cd({2 * n, n}, 1), cb({n, n, n}, 1), cu({n, 2 * n}, 1), ck({2 * n}, 2);
  Ctx cm(block ? std::vector<std::size_t>{2 * n, 2 * n, 2 * n} : std::vector<std::size_t>{n, n, n},
         2);
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < iterations; ++i) {
    for (std::uint32_t f = 0; f < 2; ++f) s.fire(x.data() + f * n, cs.at(i, f));
    d.fire(x.data(), y.data(), cd.at(i));
    b.fire(y.data(), low.data(), high.data(), cb.at(i));
    ul.fire(low.data(), lo2.data(), cu.at(i));
    uh.fire(high.data(), hi2.data(), cu.at(i));
    if (block)
      m.fire(lo2.data(), hi2.data(), out.data(), cm.at(i));
    else
      for (std::uint32_t f = 0; f < 2; ++f)
        m.fire(lo2.data() + f * n, hi2.data() + f * n, out.data() + f * n, cm.at(i, f));
    k.fire(out.data(), ck.at(i));
  }
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  std::printf("reference: %.6f ms an iteration\n", took.count() / static_cast<double>(iterations));
  return 0;
}
