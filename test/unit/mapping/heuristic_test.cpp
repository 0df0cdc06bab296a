#include <catch2/catch.hpp>

#include <cstdio>

#include "mapping/search.hpp"
#include "random_problems.hpp"

using namespace dfgc;

// The heuristic against the exact optimum on 20 random problems of 10 to 14 nodes on 4 to 6 PEs
// (8 to 12 free nodes, every PE a candidate; the 20 take every one of the 15 pairs of sizes). The
// exact search is what takes the time (half a minute for some problems under the sanitizers), so
// CI runs 20. Measured with the default seed on 50 problems: the heuristic finds the optimum of all
// 50 (mean and worst gap 0%). With seed 2 it misses one by 3.1% (32.1 ms for 33.1 ms): the
// requirement, 5%, is asserted too.
constexpr int kProblems = 20;

TEST_CASE("the heuristic is within 5% of the optimum on 20 random problems",
          "[mapping][heuristic]") {
  double sum = 0, worst = 0;
  int optimal = 0;
  for (std::uint64_t seed = 1; seed <= kProblems; ++seed) {
    auto r = test::random_problem({.nodes = 10 + static_cast<int>(seed % 5),
                                   .pes = 4 + static_cast<int>(seed % 3),
                                   .seed = 1000 + seed});
    mapping::SearchOptions o;
    o.alternatives = 0;
    o.method = mapping::SearchOptions::Method::exact;
    auto exact = mapping::search(r.program, r.costs, o);
    o.method = mapping::SearchOptions::Method::heuristic;
    auto heuristic = mapping::search(r.program, r.costs, o);
    REQUIRE(!exact.best.empty());
    REQUIRE(!heuristic.best.empty());
    double gap = heuristic.best.front().score / exact.best.front().score - 1;
    REQUIRE(gap >= -1e-12);
    sum += gap;
    worst = std::max(worst, gap);
    optimal += gap < 1e-12;
  }
  std::printf("heuristic vs exact on %d problems: mean gap %.3f%%, worst %.3f%%, optimal in %d\n",
              kProblems, 100 * sum / kProblems, 100 * worst, optimal);
  CHECK(worst <= 0.05);
  CHECK(optimal == kProblems);
  CHECK(sum == 0);
}
