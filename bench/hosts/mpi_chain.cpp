// mpi_chain: the hand-written reference of the overlap sweep on several ranks. R ranks in a chain
// (rank r receives a token of BYTES bytes from rank r - 1 and sends one to rank r + 1 every
// cycle, double-buffered as a generated program with overlap), every rank computing FIRE_US
// microseconds a cycle (a busy loop, no MPI call). The period it reaches with a mode's progress
// is what the generated programs' are compared to (bench/hosts/overlap_sweep.py).
//
//   mpirun -np R mpi_chain MODE BYTES FIRE_US [CYCLES (200)]
//
// MODE:
//   serial    one thread: posts the cycle's sends, then its receive, MPI_Waitall, then computes:
//             no overlap; with FIRE_US = 0 the chain's transfers alone, nothing between them
//   runtime   the runtime's design: dfg::mpi::CommThread (its lanes as a generated program picks
//             them) makes every MPI call, handed the transfers by dfg::mpi::CycleTransfers
//             (receive first, then send, as the generated cycle posts them); the thread that
//             computes makes none
//   thread    one progress thread of its own per rank (MPI_THREAD_SERIALIZED): each cycle it posts
//             the sends, then the receive, and blocks in MPI_Waitall while the other computes
//   lanes     two progress threads per rank (MPI_THREAD_MULTIPLE): one posts and waits for the
//             receive, the other the send, each blocking in MPI_Wait
//
// Prints on rank 0:  mode=<m> ranks=<R> bytes=<b> fire_us=<t> period_us=<p>  (the slowest rank's
// mean over CYCLES after 10 warm-up cycles). Every rank checks the first byte of every token it
// receives.
#include "dfg/mpi/abort.hpp"  // first: <mpi.h> without the C++ bindings
#include "dfg/mpi/cycle_transfers.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

void compute(double us) {
  if (us <= 0) return;
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double, std::micro>(us));
  while (Clock::now() < end) {
  }
}

unsigned char stamp(int c) { return static_cast<unsigned char>(c * 7 + 1); }

/// A thread that runs `work(c)` once per cycle when told to: go(c) hands it cycle c, wait()
/// returns once it finished. Both sides spin (pause), as the runtime's threads do while busy.
class Runner {
 public:
  template <class Work>
  explicit Runner(Work work)
      : thread_([this, work] {
          for (int c = 0;; ++c) {
            int g;
            while ((g = go_.load(std::memory_order_acquire)) <= c) dfg::mpi::cpu_relax();
            if (g == kStop) return;
            work(c);
            done_.store(c + 1, std::memory_order_release);
          }
        }) {}
  ~Runner() {
    go_.store(kStop, std::memory_order_release);
    thread_.join();
  }
  void go(int c) { go_.store(c + 1, std::memory_order_release); }
  void wait(int c) const {
    while (done_.load(std::memory_order_acquire) <= c) dfg::mpi::cpu_relax();
  }

 private:
  static constexpr int kStop = 1 << 30;
  std::atomic<int> go_{0};
  std::atomic<int> done_{0};
  std::thread thread_;
};

int measure(int argc, char** argv) {
  const std::string_view mode = argv[1];
  const std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  const double fire_us = std::strtod(argv[3], nullptr);
  const int cycles = argc > 4 ? std::atoi(argv[4]) : 200;
  const int warmup = 10;
  if (mode != "serial" && mode != "runtime" && mode != "thread" && mode != "lanes") {
    std::fprintf(stderr, "mpi_chain: unknown mode '%s'\n", argv[1]);
    return 1;
  }
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool receives = rank > 0, sends = rank + 1 < size;
  std::vector<std::vector<unsigned char>> in(2, std::vector<unsigned char>(bytes, 0));
  std::vector<std::vector<unsigned char>> out(2, std::vector<unsigned char>(bytes, 0));
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);

  auto check = [&](int c) {
    if (receives && in[static_cast<std::size_t>(c % 2)][0] != stamp(c))
      throw std::runtime_error("mpi_chain: rank " + std::to_string(rank) + ", token " +
                               std::to_string(c) + " is wrong");
  };
  auto post_send = [&](int c, MPI_Request* r) {
    out[static_cast<std::size_t>(c % 2)][0] = stamp(c);
    MPI_Issend(out[static_cast<std::size_t>(c % 2)].data(), static_cast<int>(bytes), MPI_BYTE,
               rank + 1, 0, comm, r);
  };
  auto post_recv = [&](int c, MPI_Request* r) {
    MPI_Irecv(in[static_cast<std::size_t>(c % 2)].data(), static_cast<int>(bytes), MPI_BYTE,
              rank - 1, 0, comm, r);
  };
  // The cycle's MPI calls from one thread: sends first, so that the next rank's copy starts
  // before this rank's own receive holds the thread.
  auto exchange = [&](int c) {
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (sends) post_send(c, &r[0]);
    if (receives) post_recv(c, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  };

  MPI_Barrier(comm);
  Clock::time_point begin;
  if (mode == "serial") {
    for (int c = 0; c < warmup + cycles; ++c) {
      if (c == warmup) begin = Clock::now();
      exchange(c);
      check(c);
      compute(fire_us);
    }
  } else if (mode == "thread") {
    Runner mpi([&](int c) { exchange(c); });
    for (int c = 0; c < warmup + cycles; ++c) {
      if (c == warmup) begin = Clock::now();
      mpi.go(c);
      compute(fire_us);
      mpi.wait(c);
      check(c);
    }
  } else if (mode == "lanes") {
    std::optional<Runner> recv_lane, send_lane;
    if (receives)
      recv_lane.emplace([&](int c) {
        MPI_Request r = MPI_REQUEST_NULL;
        post_recv(c, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      });
    if (sends)
      send_lane.emplace([&](int c) {
        MPI_Request r = MPI_REQUEST_NULL;
        post_send(c, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      });
    for (int c = 0; c < warmup + cycles; ++c) {
      if (c == warmup) begin = Clock::now();
      if (send_lane) send_lane->go(c);
      if (recv_lane) recv_lane->go(c);
      compute(fire_us);
      if (send_lane) send_lane->wait(c);
      if (recv_lane) recv_lane->wait(c);
      check(c);
    }
  }
  double period_us =
      std::chrono::duration<double, std::micro>(Clock::now() - begin).count() / cycles;
  double slowest = 0;
  MPI_Reduce(&period_us, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Comm_free(&comm);
  if (rank == 0) {
    std::printf("mode=%s ranks=%d bytes=%zu fire_us=%.1f period_us=%.2f\n",
                std::string(mode).c_str(), size, bytes, fire_us, slowest);
    std::fflush(stdout);
  }
  return 0;
}

/// The runtime's own design: the Session, its CommThread and CycleTransfers.
int measure_runtime(int argc, char** argv) {
  const std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  const double fire_us = std::strtod(argv[3], nullptr);
  const int cycles = argc > 4 ? std::atoi(argv[4]) : 200;
  const int warmup = 10;
  dfg::mpi::Session mpi(argc, argv);
  std::vector<std::string> names(static_cast<std::size_t>(mpi.size()));
  std::vector<std::string_view> hosts;
  for (std::size_t h = 0; h < names.size(); ++h) names[h] = "H" + std::to_string(h);
  for (const std::string& n : names) hosts.push_back(n);
  if (mpi.place(hosts, {}, std::cerr) != 0) return 1;
  const int me = mpi.host(), size = mpi.size();
  const bool receives = me > 0, sends = me + 1 < size;
  std::vector<std::vector<unsigned char>> in(2, std::vector<unsigned char>(bytes, 0));
  std::vector<std::vector<unsigned char>> out(2, std::vector<unsigned char>(bytes, 0));
  std::optional<dfg::mpi::RecvEndpoint> recv;
  std::optional<dfg::mpi::SendEndpoint> send;
  if (receives) recv.emplace(mpi, mpi.rank_of_host(me - 1), me - 1, bytes, "in");
  if (sends) send.emplace(mpi, mpi.rank_of_host(me + 1), me, bytes, "out");
  dfg::Tracer tracer(0, false);
  dfg::Probes probes(tracer, nullptr);
  dfg::mpi::CycleTransfers net(probes, 2);
  double period_us = 0;
  const int status = dfg::mpi::main_guard(mpi, [&] {
    dfg::Where where;
    dfg::mpi::run_mpi_worker(mpi, where, [&] {
      Clock::time_point begin;
      for (int c = 0; c < warmup + cycles; ++c) {
        if (c == warmup) begin = Clock::now();
        auto& o = out[static_cast<std::size_t>(c % 2)];
        o[0] = stamp(c);
        if (recv) net.start(*recv, 0, c, in[static_cast<std::size_t>(c % 2)].data());
        if (send) net.start(*send, 0, c, o.data());
        compute(fire_us);
        net.wait();
        if (recv && in[static_cast<std::size_t>(c % 2)][0] != stamp(c))
          throw std::runtime_error("mpi_chain: token " + std::to_string(c) + " is wrong");
      }
      period_us = std::chrono::duration<double, std::micro>(Clock::now() - begin).count() / cycles;
    });
    return 0;
  });
  double slowest = 0;
  MPI_Reduce(&period_us, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, mpi.comm());
  if (status == 0 && mpi.rank() == 0) {
    std::printf("mode=runtime ranks=%d bytes=%zu fire_us=%.1f period_us=%.2f lanes=%d\n", size,
                bytes, fire_us, slowest, mpi.comm_thread().lanes());
    std::fflush(stdout);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: mpirun -np R mpi_chain serial|runtime|thread|lanes BYTES FIRE_US "
                 "[CYCLES]\n");
    return 1;
  }
  if (std::string_view(argv[1]) == "runtime") return measure_runtime(argc, argv);
  int provided = 0;
  const bool lanes = std::string_view(argv[1]) == "lanes";
  MPI_Init_thread(&argc, &argv, lanes ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED, &provided);
  if (provided < (lanes ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED)) {
    std::fprintf(stderr, "mpi_chain: the library does not provide the thread level asked\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int status = 1;
  try {
    status = measure(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
