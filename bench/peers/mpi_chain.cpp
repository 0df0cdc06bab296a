// The peers chain on two MPI ranks, hand-written (mpi_edge.dfg's mapping): the source, the even
// stages and the sink on rank 0, the odd stages on rank 1, so that every stage's input crosses
// between the ranks, a blocking MPI_Send and MPI_Recv of the 64-byte token. One token is in
// flight at a time: a hop costs one message's one-way time and nothing else, the floor of a chain
// with no runtime. Prints chain_peers' line (peer=mpi_blocking) on rank 0.
//   mpirun -np 2 mpi_chain [--tokens N] [--hops H] [--reps R]
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "chain.hpp"

namespace {

constexpr const char* kUsage =
    "usage: mpirun -np 2 mpi_chain [--tokens N] [--hops H (even)] [--reps R]\n";

void send(const peers::Token& t, int to, int stage) {
  MPI_Send(&t, sizeof t, MPI_BYTE, to, stage, MPI_COMM_WORLD);
}

peers::Token receive(int from, int stage) {
  peers::Token t;
  MPI_Recv(&t, sizeof t, MPI_BYTE, from, stage, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return t;
}

/// One repetition on this rank: every token through the stages the rank holds (stage i on rank
/// i % 2, the message into stage i tagged i); the seconds between the ranks' common start and the
/// last token's check (rank 0) or its last send (rank 1).
double stream(const peers::Options& o, int rank, peers::Checker& sink) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = peers::Clock::now();
  for (std::int64_t k = 0; k < o.tokens; ++k) {
    if (rank == 0) {
      send(peers::source_token(k), 1, 1);
      for (int i = 2; i <= o.hops; i += 2) {
        const peers::Token out = peers::cpu_stage(receive(1, i));
        if (i < o.hops)
          send(out, 1, i + 1);
        else
          sink.take(out);
      }
    } else {
      for (int i = 1; i < o.hops; i += 2) send(peers::cpu_stage(receive(0, i)), 0, i + 1);
    }
  }
  return peers::seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  try {
    peers::Options o = peers::parse(argc, argv, kUsage);
    if (size != 2) throw std::invalid_argument("needs 2 ranks, got " + std::to_string(size));
    if (o.hops % 2 != 0) throw std::invalid_argument("--hops must be even (the sink is on rank 0)");
    o.threads = 1;
    peers::Options warmup = o;
    warmup.tokens = std::min<std::int64_t>(o.tokens, 1000);
    peers::Checker warmup_sink(o.hops);
    stream(warmup, rank, warmup_sink);
    std::vector<double> seconds;
    std::string failure;
    for (int r = 0; r < o.reps; ++r) {
      peers::Checker sink(o.hops);
      seconds.push_back(stream(o, rank, sink));
      if (rank == 0 && failure.empty()) failure = sink.verdict(o.tokens);
    }
    if (rank == 0)
      std::printf("%s\n", peers::result_line(o, "mpi_blocking", seconds, failure).c_str());
    status = failure.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_chain: error: %s\n", e.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}
