/// \file
/// dfg::mpi::RankBarrier: the barrier across ranks of the BSP baseline (`--sync=barrier`), which
/// the host's CPU worker adds between two local CycleBarrier waits. The rank's communication
/// thread (dfg/mpi/comm_thread.hpp) posts an MPI_Ibarrier and polls it with MPI_Test; the CPU
/// worker waits for it, and leaves (dfg::Aborted) once a thread of its rank failed, while the
/// comm thread ends the job instead of waiting for ranks that wait for it. Where the Session is
/// direct() (MPI_THREAD_MULTIPLE), the CPU worker posts and polls the barrier itself, on the
/// Session's barrier_comm(), where no other thread posts a collective: no handoff per cycle.
///
/// Guarantees: arrive_and_wait() is called by the host's CPU worker only, while the Session's
/// comm thread runs (run_mpi_worker; else it throws std::logic_error, when not direct), by every
/// rank the same number of times; it blocks until every rank arrived or the Abort is raised
/// (then it throws dfg::Aborted; the pending barrier is left to MPI_Abort). Direct, it polls
/// (pausing, yielding every CommThread::kYieldEvery polls) and throws an MpiError should MPI
/// fail. No allocation.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <thread>

#include "dfg/abort.hpp"
#include "dfg/mpi/comm_thread.hpp"
#include "dfg/mpi/session.hpp"

namespace dfg::mpi {

class RankBarrier {
 public:
  explicit RankBarrier(const Session& session, Abort& abort = process_abort())
      : comm_thread_(session.comm_thread()),
        abort_(abort),
        direct_(session.direct()),
        barrier_comm_(session.barrier_comm()) {
    task_.comm = session.comm();
  }

  /// Waits for the stop rather than leave the comm thread a destroyed task (an error path).
  ~RankBarrier() {
    while (!task_.done() && !abort_.stopped() && comm_thread_.running()) std::this_thread::yield();
  }

  RankBarrier(const RankBarrier&) = delete;
  RankBarrier& operator=(const RankBarrier&) = delete;

  void arrive_and_wait() {
    if (direct_) {
      MPI_Request request = MPI_REQUEST_NULL;
      check(MPI_Ibarrier(barrier_comm_, &request), "MPI_Ibarrier");
      unsigned polls = 0;
      for (int done = 0;;) {
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (barrier)");
        if (done != 0) return;
        abort_.throw_if_stopped();
        if (++polls % CommThread::kYieldEvery == 0)
          std::this_thread::yield();
        else
          cpu_relax();
      }
    }
    comm_thread_.submit(task_);
    comm_thread_.wait_until([this] { return task_.done(); }, abort_);
  }

 private:
  /// The barrier's MPI calls, on the comm thread.
  struct Task final : CommTask {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Request request = MPI_REQUEST_NULL;

    void post() override { check(MPI_Ibarrier(comm, &request), "MPI_Ibarrier"); }
    bool test() override {
      int done = 0;
      check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (barrier)");
      return done != 0;
    }
  };

  CommThread& comm_thread_;
  Abort& abort_;
  bool direct_;
  MPI_Comm barrier_comm_;
  Task task_;
};

}  // namespace dfg::mpi
