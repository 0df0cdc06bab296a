// Compile-only check of dfg/mpi/gpudirect.hpp, the one runtime header that needs both CUDA and
// MPI, as the rank of a host with a gpudirect transfer compiles it (nvcc, the MPI headers,
// warnings as errors): the set-up and one cycle of both ends. Nothing here runs.
#include "dfg/mpi/cycle_transfers.hpp"  // first: <mpi.h> without the C++ bindings
#include "dfg/mpi/gpudirect.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/mpi/transfer.hpp"

#include <iostream>
#include <optional>

#include "dfg/cuda/buffers.hpp"
#include "dfg/slots.hpp"

int dfg_gpudirect_check(dfg::mpi::Session& mpi) {
  dfg::mpi::report_gpudirect_path(mpi, std::cerr);
  dfg::mpi::GpuDirect gpudirect(mpi, 0, "A.g0");
  dfg::DeviceBuffer memory(0, "i1.b@A.g0", 4096, 2);
  const dfg::SlotView slots = dfg::SlotView::of(memory);
  std::optional<dfg::mpi::SendEndpoint> send;
  std::optional<dfg::mpi::RecvEndpoint> recv;
  send.emplace(mpi, mpi.rank_of_host(1), 0, 4096, "i1.b@A.g0 -> i1.b@B.g0");
  recv.emplace(mpi, mpi.rank_of_host(1), 1, 4096, "i2.b@B.g0 -> i2.b@A.g0");
  gpudirect.attach(*send);
  gpudirect.attach(*recv);
  dfg::Tracer tracer(0, false);
  dfg::Probes probes(tracer, nullptr);
  dfg::mpi::CycleTransfers net(probes, 2);
  for (std::int64_t c = 0; c < 4; ++c) {
    net.start(*recv, 1, c, slots.at(dfg::slot(c, 0, 2)));
    net.start(*send, 0, c, slots.at(dfg::slot(c, 1, 2)));
    net.wait();
  }
  return gpudirect.staged() && send->staged() && recv->staged() && gpudirect.device() == 0 ? 0 : 1;
}
