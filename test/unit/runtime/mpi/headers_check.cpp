// Compile-only check of the dfg/mpi headers with the MPI wrapper compiler (mpicxx: g++ here),
// warnings as errors, as the generated programs build them. Nothing here runs.
#include "dfg/mpi/abort.hpp"
#include "dfg/mpi/barrier.hpp"
#include "dfg/mpi/check.hpp"
#include "dfg/mpi/cycle_transfers.hpp"
#include "dfg/mpi/placement.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

#include <iostream>

int main(int argc, char** argv) {
  dfg::mpi::Session mpi(argc, argv);
  static constexpr std::string_view kHosts[] = {"A", "B"};
  if (const int s = mpi.place(kHosts, {}, std::cerr); s != 0) return s;
  if (const int s = mpi.agree_run_flags({100, true, false}, std::cerr); s != 0) return s;
  std::vector<unsigned char> slot(16);
  dfg::mpi::SendEndpoint send(mpi, 1 - mpi.rank(), 0, slot.size(), "A -> B");
  dfg::mpi::RecvEndpoint recv(mpi, 1 - mpi.rank(), 0, slot.size(), "B -> A");
  dfg::mpi::RankBarrier barrier(mpi);
  return dfg::mpi::main_guard(mpi, [&] {
    recv.start(0, slot.data());
    send.start(0, slot.data());
    dfg::mpi::Endpoint* all[] = {&send, &recv};
    dfg::mpi::wait_all(all);
    dfg::Tracer tracer(0, false);
    dfg::Probes probes(tracer, nullptr);
    dfg::mpi::CycleTransfers net(probes, 2);
    net.start(recv, 0, 1, slot.data());
    net.start(send, 1, 1, slot.data());
    net.wait();
    barrier.arrive_and_wait();
    return mpi.cuda_aware() ? 0 : 0;
  });
}
