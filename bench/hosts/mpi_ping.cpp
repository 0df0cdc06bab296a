// mpi_ping: the time of one host-to-host message between two MPI ranks, as the generated
// programs send it (MPI_Issend to an MPI_Irecv posted in time, MPI_BYTE, one message), for the
// model of the hosts experiment (bench/experiments/hosts.py). Ping-pong of BYTES bytes,
// ITERATIONS round trips after WARMUP; the one-way time is half a round trip.
//
//   mpirun -np 2 mpi_ping [BYTES (16777216)] [ITERATIONS (50)] [WARMUP (5)]
//
// Prints, on rank 0:   mpi one-way: <ms> ms for <bytes> bytes (<GB/s> GB/s), <n> round trips
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

/// Sends `buffer` to `peer` with MPI_Issend while its receive into the same buffer is not yet
/// needed: `sending` says which half of the round trip this rank does.
void exchange(std::vector<unsigned char>& buffer, int peer, bool sending) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int n = static_cast<int>(buffer.size());
  if (sending) {
    MPI_Issend(buffer.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &request);
  } else {
    MPI_Irecv(buffer.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &request);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "error: mpi_ping needs exactly 2 ranks, got %d\n", size);
    MPI_Finalize();
    return 1;
  }
  const long bytes = argc > 1 ? std::atol(argv[1]) : 16L << 20;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 50;
  const int warmup = argc > 3 ? std::atoi(argv[3]) : 5;
  if (bytes <= 0 || bytes > 1L << 30 || iterations <= 0 || warmup < 0) {
    if (rank == 0)
      std::fprintf(stderr,
                   "error: usage: mpi_ping [BYTES (1..2^30)] [ITERATIONS > 0] [WARMUP >= 0]\n");
    MPI_Finalize();
    return 1;
  }
  std::vector<unsigned char> buffer(static_cast<std::size_t>(bytes),
                                    static_cast<unsigned char>(rank));
  const int peer = 1 - rank;
  double start = 0;
  for (int i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) {
      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
    }
    exchange(buffer, peer, rank == 0);  // ping: 0 -> 1
    exchange(buffer, peer, rank == 1);  // pong: 1 -> 0
  }
  const double one_way_s = (MPI_Wtime() - start) / iterations / 2;
  if (rank == 0) {
    std::printf("mpi one-way: %.4f ms for %ld bytes (%.2f GB/s), %d round trips\n", one_way_s * 1e3,
                bytes, static_cast<double>(bytes) / one_way_s / 1e9, iterations);
  }
  MPI_Finalize();
  return 0;
}
