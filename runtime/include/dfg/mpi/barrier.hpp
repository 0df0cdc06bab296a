/// \file
/// dfg::mpi::RankBarrier: the barrier across ranks of the BSP baseline (`--sync=barrier`), which
/// the host's CPU worker adds between two local CycleBarrier waits.
///
/// Shared memory (the default). The ranks of one node share two counters (Session::node_barrier(),
/// built by Session::place()): each rank adds 1 to `arrived` and polls it until it holds
/// barriers * node_ranks, the count once every rank of the node arrived at this barrier (a rank
/// arrives at barrier b + 1 only after it passed b, so the count cannot get there earlier). No MPI
/// call, no message: measured with Open MPI 4.1.6 on one machine
/// (bench/results/hosts/h100-2026-11-25-barrier_cost), it costs a fraction of MPI_Ibarrier's round
/// of messages. On a job of several nodes, the node's first rank (its leader) waits for its node
/// so, then meets the other leaders by MPI_Ibarrier on their own communicator (polled by the CPU
/// worker where direct, else by the comm thread), then stores the barrier's number into `released`,
/// which the node's other ranks poll.
///
/// MPI_Ibarrier (DFG_MPI_BARRIER=ibarrier on some rank: Session::node_barrier() is null). The
/// CPU worker posts an MPI_Ibarrier on the Session's barrier_comm(), where no other thread posts a
/// collective, and polls it with MPI_Test, where the Session is direct() (MPI_THREAD_MULTIPLE);
/// else the rank's communication thread (dfg/mpi/comm_thread.hpp) posts it on comm() and polls it.
///
/// Guarantees: arrive_and_wait() is called by the host's CPU worker only, while the Session's
/// comm thread runs (run_mpi_worker; else it throws std::logic_error, where it hands the barrier
/// over), by every rank the same number of times; it returns only once every rank arrived at the
/// same barrier, and everything a rank wrote before it arrived happens-before what every rank of
/// its node does after it leaves (the arrival is an acq_rel fetch_add, the poll an acquire load;
/// the leaders' release store and MPI_Ibarrier carry it between nodes). It blocks until then or
/// until the Abort is raised: then it throws dfg::Aborted (a rank that failed ends the job through
/// its comm thread, MPI_Abort, which ends the ranks waiting here too; a pending MPI_Ibarrier is
/// left to MPI_Abort). It polls, pausing, and yields the core every CommThread::kYieldEvery polls;
/// it throws an MpiError should MPI fail. No allocation.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <atomic>
#include <cstdint>
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
        barrier_comm_(session.barrier_comm()),
        node_(session.node_barrier()) {
    task_.comm = node_ != nullptr ? node_->leaders : session.comm();
  }

  /// Waits for the stop rather than leave the comm thread a destroyed task (an error path).
  ~RankBarrier() {
    while (!task_.done() && !abort_.stopped() && comm_thread_.running()) std::this_thread::yield();
  }

  RankBarrier(const RankBarrier&) = delete;
  RankBarrier& operator=(const RankBarrier&) = delete;

  void arrive_and_wait() {
    if (node_ == nullptr) {
      meet(barrier_comm_);
      return;
    }
    ++passed_;
    std::atomic_ref<std::int64_t> arrived(*node_->arrived);
    std::atomic_ref<std::int64_t> released(*node_->released);
    arrived.fetch_add(1, std::memory_order_acq_rel);
    if (node_->nodes == 1 || node_->leaders != MPI_COMM_NULL) {
      const std::int64_t all = passed_ * node_->node_ranks;
      poll_until([&] { return arrived.load(std::memory_order_acquire) >= all; });
      if (node_->nodes == 1) return;
      meet(node_->leaders);
      released.store(passed_, std::memory_order_release);
      return;
    }
    poll_until([&] { return released.load(std::memory_order_acquire) >= passed_; });
  }

 private:
  /// Polls `done` until it holds, pausing between polls and yielding every kYieldEvery; throws
  /// dfg::Aborted on a stop.
  template <class Done>
  void poll_until(Done done) {
    for (unsigned polls = 0; !done();) {
      abort_.throw_if_stopped();
      if (++polls % CommThread::kYieldEvery == 0)
        std::this_thread::yield();
      else
        cpu_relax();
    }
  }

  /// An MPI_Ibarrier of `comm`'s ranks: posted and polled here where direct, else by the comm
  /// thread (on task_.comm).
  void meet(MPI_Comm comm) {
    if (direct_) {
      MPI_Request request = MPI_REQUEST_NULL;
      check(MPI_Ibarrier(comm, &request), "MPI_Ibarrier");
      poll_until([&] {
        int done = 0;
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (barrier)");
        return done != 0;
      });
      return;
    }
    comm_thread_.submit(task_);
    comm_thread_.wait_until([this] { return task_.done(); }, abort_);
  }

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
  const NodeBarrier* node_;  ///< null: MPI_Ibarrier
  std::int64_t passed_ = 0;  ///< barriers passed through the shared memory
  Task task_;
};

}  // namespace dfg::mpi
