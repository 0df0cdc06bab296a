/// \file
/// dfg::mpi::RankBarrier: the barrier across ranks of the BSP baseline (`--sync=barrier`), which
/// the rank's MPI thread adds between two local CycleBarrier waits. MPI_Ibarrier polled with
/// MPI_Test, so that a rank whose other threads failed leaves it (dfg::Aborted) and ends the job
/// instead of waiting for ranks that wait for it.
///
/// Guarantees: arrive_and_wait() is called by the rank's MPI thread only, by every rank the same
/// number of times; it blocks until every rank arrived or the Abort is raised (then it throws
/// dfg::Aborted; the pending barrier is left to MPI_Abort). No allocation.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <thread>

#include "dfg/abort.hpp"
#include "dfg/mpi/session.hpp"

namespace dfg::mpi {

class RankBarrier {
 public:
  explicit RankBarrier(const Session& session, Abort& abort = process_abort())
      : comm_(session.comm()), abort_(abort) {}

  void arrive_and_wait() {
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Ibarrier(comm_, &request), "MPI_Ibarrier");
    int done = 0;
    while (true) {
      check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (barrier)");
      if (done != 0) return;
      abort_.throw_if_stopped();
      std::this_thread::yield();
    }
  }

 private:
  MPI_Comm comm_;
  Abort& abort_;
};

}  // namespace dfg::mpi
