/// \file
/// dfg::pin_this_thread: --pin-cpus, each worker thread of a host on a core of its own.
///
/// Guarantees:
/// - Called by a worker thread for itself, before its cycle loop; it allocates nothing and never
///   throws. The host's k-th PE (its cpus first, then its GPUs) goes to the k-th core of the
///   cores the process may run on (sched_getaffinity), modulo their number, so that pinning
///   under `taskset` or a batch system's core set stays inside that set.
/// - It only asks: where the system refuses (no such call on this platform, a cgroup that
///   forbids it), the thread runs unpinned and the call returns false.
#pragma once

#include <cstddef>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace dfg {

/// Pins the calling thread to the `index`-th core it may use (modulo their count). Returns
/// whether the system accepted it.
inline bool pin_this_thread(std::size_t index) noexcept {
#if defined(__linux__)
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return false;
  const int count = CPU_COUNT(&allowed);
  if (count <= 0) return false;
  std::size_t wanted = index % static_cast<std::size_t>(count);
  for (int core = 0; core < CPU_SETSIZE; ++core) {
    if (!CPU_ISSET(core, &allowed)) continue;
    if (wanted-- != 0) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(core, &one);
    return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
  }
  return false;
#else
  (void)index;
  return false;
#endif
}

}  // namespace dfg
