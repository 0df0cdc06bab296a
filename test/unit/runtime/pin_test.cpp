#include <catch2/catch.hpp>

#include <set>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

#include "dfg/pin.hpp"

#if defined(__linux__)
TEST_CASE("pin: each thread on the k-th core the process may use, modulo their count", "[pin]") {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  std::vector<int> cores;
  for (int core = 0; core < CPU_SETSIZE; ++core)
    if (CPU_ISSET(core, &allowed)) cores.push_back(core);
  REQUIRE(!cores.empty());
  const std::size_t threads = cores.size() + 2;  // two wrap around
  std::vector<int> got(threads, -1);
  std::vector<char> accepted(threads, 0);  // not vector<bool>: each thread writes its own element
  std::vector<std::thread> pool;
  for (std::size_t k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      accepted[k] = dfg::pin_this_thread(k);
      cpu_set_t now;
      CPU_ZERO(&now);
      if (pthread_getaffinity_np(pthread_self(), sizeof now, &now) != 0 || CPU_COUNT(&now) != 1)
        return;
      for (int core = 0; core < CPU_SETSIZE; ++core)
        if (CPU_ISSET(core, &now)) got[k] = core;
    });
  for (std::thread& t : pool) t.join();
  for (std::size_t k = 0; k < threads; ++k) {
    CAPTURE(k);
    REQUIRE(accepted[k]);
    CHECK(got[k] == cores[k % cores.size()]);
  }
  // The calling thread is left as it was.
  cpu_set_t mine;
  CPU_ZERO(&mine);
  REQUIRE(sched_getaffinity(0, sizeof mine, &mine) == 0);
  CHECK(CPU_EQUAL(&mine, &allowed));
}
#endif
