// mpi_progress: how a host-to-host transfer progresses while the CPU computes, for each way the
// runtime could make MPI progress. Two ranks; every cycle rank 0 sends a token of BYTES bytes
// to rank 1 (MPI_Issend / MPI_Irecv, double-buffered as in a generated program), then both
// ranks compute for FIRE_US microseconds (a busy loop, no MPI call), then wait for the
// transfer. The ideal period is max(FIRE_US, the transfer's time).
//
//   mpirun -np 2 mpi_progress MODE BYTES FIRE_US [CYCLES (200)]
//
// MODE:
//   inline    MPI_THREAD_SERIALIZED; the computing thread makes every MPI call, so the transfer
//             progresses only before and after the computation (the runtime's former design)
//   thread    MPI_THREAD_SERIALIZED; the runtime's dfg::mpi::CommThread makes every MPI call
//             (dfg::mpi::CycleTransfers hands it the transfers), the computing thread none
//   multiple  MPI_THREAD_MULTIPLE; the computing thread posts and completes the transfer, and a
//             second thread calls MPI_Iprobe in a loop for progress while it computes
//
// Prints on rank 0:  mode=<m> bytes=<b> fire_us=<t> period_us=<p>  (mean over CYCLES after 10
// warm-up cycles; the thread level MPI provided is checked).
#include "dfg/mpi/abort.hpp"  // first: <mpi.h> without the C++ bindings
#include "dfg/mpi/cycle_transfers.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

void compute(double us) {
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double, std::micro>(us));
  while (Clock::now() < end) {
  }
}

/// The measurement, with MPI initialised (or left to the Session to initialise).
int measure(int argc, char** argv) {
  const std::string_view mode = argv[1];
  const std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  const double fire_us = std::strtod(argv[3], nullptr);
  const int cycles = argc > 4 ? std::atoi(argv[4]) : 200;
  const int warmup = 10;
  const bool multiple = mode == "multiple";
  dfg::mpi::Session mpi(argc, argv);
  static constexpr std::string_view kHosts[] = {"A", "B"};
  if (mpi.place(kHosts, {}, std::cerr) != 0) return 1;
  const bool sender = mpi.host() == 0;
  const int peer = mpi.rank_of_host(sender ? 1 : 0);

  std::vector<std::vector<unsigned char>> slots(2, std::vector<unsigned char>(bytes, 1));
  dfg::mpi::SendEndpoint send(mpi, peer, 0, bytes, "A -> B");
  dfg::mpi::RecvEndpoint recv(mpi, peer, 0, bytes, "A -> B");
  dfg::Tracer tracer(0, false);
  dfg::Probes probes(tracer, nullptr);
  dfg::mpi::CycleTransfers net(probes, 1);

  double period_us = 0;
  auto cycle_loop = [&](auto&& start, auto&& wait) {
    Clock::time_point begin;
    for (int c = 0; c < warmup + cycles; ++c) {
      if (c == warmup) begin = Clock::now();
      start(c, slots[static_cast<std::size_t>(c % 2)].data());
      compute(fire_us);
      wait();
    }
    period_us = std::chrono::duration<double, std::micro>(Clock::now() - begin).count() / cycles;
  };

  const int status = dfg::mpi::main_guard(mpi, [&] {
    if (mode == "thread") {
      dfg::Where where;
      dfg::mpi::run_mpi_worker(mpi, where, [&] {
        cycle_loop(
            [&](int c, unsigned char* slot) {
              if (sender)
                net.start(send, 0, c, slot);
              else
                net.start(recv, 0, c, slot);
            },
            [&] { net.wait(); });
      });
    } else {
      dfg::mpi::Endpoint& e = sender ? static_cast<dfg::mpi::Endpoint&>(send) : recv;
      std::atomic<bool> run_progress{multiple};
      std::thread progress;
      MPI_Comm progress_comm = MPI_COMM_NULL;
      if (multiple) {
        MPI_Comm_dup(MPI_COMM_WORLD, &progress_comm);
        progress = std::thread([&] {
          while (run_progress.load(std::memory_order_acquire)) {
            int flag = 0;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm, &flag, MPI_STATUS_IGNORE);
            std::this_thread::yield();
          }
        });
      }
      cycle_loop(
          [&](int c, unsigned char* slot) {
            if (sender)
              send.start(c, slot);
            else
              recv.start(c, slot);
          },
          [&] { e.wait(); });
      run_progress.store(false, std::memory_order_release);
      if (progress.joinable()) progress.join();
      if (progress_comm != MPI_COMM_NULL) MPI_Comm_free(&progress_comm);
    }
    return 0;
  });
  if (status == 0 && sender) {
    std::printf("mode=%s bytes=%zu fire_us=%.1f period_us=%.2f\n", std::string(mode).c_str(), bytes,
                fire_us, period_us);
    std::fflush(stdout);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(
        stderr, "usage: mpirun -np 2 mpi_progress inline|thread|multiple BYTES FIRE_US [CYCLES]\n");
    return 1;
  }
  if (std::string_view(argv[1]) != "multiple") return measure(argc, argv);  // the Session owns MPI
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "mpi_progress: the library does not provide MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int status = measure(argc, argv);
  MPI_Finalize();
  return status;
}
