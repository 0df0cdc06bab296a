// mpi_barrier: the floor of a barrier of all ranks per cycle, each way one could be built, in
// hand-written loops with nothing else in the cycle (no transfer, no firing, no runtime).
//
//   mpirun -np R mpi_barrier [BARRIERS (100000)] [ROUNDS (3)]
//
// Ways, each timed over BARRIERS barriers after 1,000 warm-up ones, ROUNDS times interleaved:
//   ibarrier       MPI_Ibarrier, then MPI_Test until done (the runtime's --sync=barrier before
//                  dfg/mpi/barrier.hpp's shared-memory barrier, DFG_MPI_BARRIER=ibarrier)
//   barrier        MPI_Barrier
//   dissemination  ceil(log2 R) rounds of 0-byte messages: in round k to rank + 2^k, from
//                  rank - 2^k, by persistent requests (MPI_Send_init / MPI_Recv_init,
//                  MPI_Startall), each round's pair tested until done
//   shared         a counter in memory the node's ranks share (MPI_Win_allocate_shared):
//                  each rank adds 1, then polls until it holds barrier * R (dfg/mpi/barrier.hpp's
//                  way on one node)
//   shared_release the same counter of arrivals, but only the last to arrive polls nothing: it
//                  stores the barrier's number into a second counter (on its own cache line),
//                  which the others poll
//
// Prints on rank 0, per round and way:  way=<w> ranks=<R> round=<k> us=<us per barrier>
// (the slowest rank's mean). MPI_THREAD_MULTIPLE is asked, as the generated programs ask.
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

inline void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void test_until_done(MPI_Request* requests, int count) {
  for (int done = 0; done == 0;) MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE);
}

struct Dissemination {
  std::vector<MPI_Request> requests;  // per round: its receive, then its send
  char byte = 0;

  Dissemination(MPI_Comm comm, int rank, int size) {
    for (int k = 1; k < size; k *= 2) {
      MPI_Request r = MPI_REQUEST_NULL;
      MPI_Recv_init(&byte, 0, MPI_BYTE, (rank - k + size) % size, k, comm, &r);
      requests.push_back(r);
      MPI_Send_init(&byte, 0, MPI_BYTE, (rank + k) % size, k, comm, &r);
      requests.push_back(r);
    }
  }
  ~Dissemination() {
    for (MPI_Request& r : requests) MPI_Request_free(&r);
  }
  void operator()() {
    for (std::size_t i = 0; i < requests.size(); i += 2) {
      MPI_Startall(2, &requests[i]);
      test_until_done(&requests[i], 2);
    }
  }
};

struct Shared {
  MPI_Win win = MPI_WIN_NULL;
  std::int64_t* counter = nullptr;
  std::int64_t* released = nullptr;
  std::int64_t size = 0;
  std::int64_t passed = 0;

  Shared(MPI_Comm node, int node_rank, int node_size) : size(node_size) {
    void* base = nullptr;
    MPI_Win_allocate_shared(node_rank == 0 ? 128 : 0, 1, MPI_INFO_NULL, node, &base, &win);
    MPI_Aint bytes = 0;
    int unit = 0;
    MPI_Win_shared_query(win, 0, &bytes, &unit, &base);
    counter = static_cast<std::int64_t*>(base);
    released = counter + 8;
    if (node_rank == 0) {
      std::atomic_ref<std::int64_t>(*counter).store(0);
      std::atomic_ref<std::int64_t>(*released).store(0);
    }
    MPI_Barrier(node);
  }
  ~Shared() { MPI_Win_free(&win); }
  void operator()() {
    ++passed;
    std::atomic_ref<std::int64_t> c(*counter);
    c.fetch_add(1, std::memory_order_acq_rel);
    while (c.load(std::memory_order_acquire) < passed * size) pause();
  }
};

struct SharedRelease {
  Shared& memory;
  void operator()() {
    const std::int64_t passed = ++memory.passed;
    std::atomic_ref<std::int64_t> c(*memory.counter);
    std::atomic_ref<std::int64_t> r(*memory.released);
    if (c.fetch_add(1, std::memory_order_acq_rel) + 1 == passed * memory.size) {
      r.store(passed, std::memory_order_release);
      return;
    }
    while (r.load(std::memory_order_acquire) < passed) pause();
  }
};

template <class F>
double time_us(MPI_Comm comm, int barriers, F&& barrier) {
  for (int i = 0; i < 1000; ++i) barrier();
  MPI_Barrier(comm);
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < barriers; ++i) barrier();
  double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / barriers;
  MPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_MAX, comm);
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  const int barriers = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  int rank = 0, size = 1;
  MPI_Comm comm = MPI_COMM_NULL, node = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  if (node_size != size) {
    if (rank == 0) std::fprintf(stderr, "mpi_barrier: every rank must run on one node\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  {
    Dissemination dissemination(comm, rank, size);
    Shared shared(node, node_rank, node_size);
    for (int round = 1; round <= rounds; ++round) {
      const double ibarrier = time_us(comm, barriers, [&] {
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Ibarrier(comm, &r);
        test_until_done(&r, 1);
      });
      const double barrier = time_us(comm, barriers, [&] { MPI_Barrier(comm); });
      const double diss = time_us(comm, barriers, dissemination);
      const double shm = time_us(comm, barriers, shared);
      const double release = time_us(comm, barriers, SharedRelease{shared});
      if (rank == 0) {
        std::printf("way=ibarrier ranks=%d round=%d us=%.3f\n", size, round, ibarrier);
        std::printf("way=barrier ranks=%d round=%d us=%.3f\n", size, round, barrier);
        std::printf("way=dissemination ranks=%d round=%d us=%.3f\n", size, round, diss);
        std::printf("way=shared ranks=%d round=%d us=%.3f\n", size, round, shm);
        std::printf("way=shared_release ranks=%d round=%d us=%.3f\n", size, round, release);
        std::fflush(stdout);
      }
    }
  }
  MPI_Comm_free(&node);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
