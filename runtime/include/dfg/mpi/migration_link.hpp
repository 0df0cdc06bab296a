/// \file
/// dfg::mpi::MigrationLink: the ranks' side of run-time migration on several hosts. It carries
/// the agreement on live moves (dfg::MoveLink: rank 0 proposes, the others answer, then all make
/// or drop the move) and the state of a node that moves between hosts (dfg::StateTransport: the
/// bytes of its dfg::State in one MPI message). Every MPI call goes through the rank's
/// communication thread (dfg/mpi/comm_thread.hpp) as a CommTask.
///
///     dfg::mpi::MigrationLink link(mpi, run.windows, kControlTag, kStateHandoffs, live);
///     run.start_migrator(options.migrate_control, link, mpi.host());
///     ... the host CPU worker, around its cycles: run_mpi_worker(mpi, where, [&] { cycles();
///     link.close(); });
///
/// Tags: the control messages use the plan's control tag (`control tag` in the plan's dump), in
/// both directions; a node's state the tag of its alternative (`state tag`). Messages of one tag
/// between two ranks arrive in the order they were sent, so the n-th state a rank receives
/// from a host is the n-th one sent to it; each carries the iteration it resumes with, checked.
///
/// End of the run. A rank other than 0 keeps a receive of the control tag posted while it serves
/// (the migrator's thread); close() (the host CPU worker, after its cycles, while the comm thread
/// still runs) waits for every worker of the rank to leave its loop (no state is sent after),
/// then rank 0 waits for a proposal in progress, refuses later ones and sends `end` to every
/// other rank, and the others wait for it: no receive is left posted when the comm thread ends.
/// Without live moves (`live` false) close() only waits for the workers.
///
/// The leash. With live moves, the host CPU worker of every rank meets the others at an
/// MPI_Ibarrier (through the comm thread) every kLeashCycles cycles: a rank that a move left
/// without host-to-host transfers stays within that many cycles of the others, so a move back
/// to it can always be agreed on. Every rank runs the same cycles, so every rank calls it the
/// same number of times.
///
/// Guarantees:
/// - propose()/conclude() are called by rank 0's migrator thread, next()/answer() by the
///   others'; send()/receive() by the workers (one handoff by one worker at a time: a node moves
///   once at a time); close() by the host CPU worker. Each waits through
///   CommThread::wait_until, which throws dfg::Aborted once the run stopped: the comm thread then
///   ends the job, within its own reaction time.
/// - A call waits until the comm thread runs (the host CPU worker starts it), polling every
///   millisecond.
/// - Allocation: the tasks are made by the constructor; a state larger than
///   dfg::State::kCapacity grows its buffers.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/migration.hpp"
#include "dfg/mpi/comm_thread.hpp"
#include "dfg/mpi/session.hpp"
#include "dfg/state.hpp"
#include "dfg/window.hpp"

namespace dfg::mpi {

class MigrationLink final : public MoveLink, public StateTransport, public CycleLeash {
 public:
  /// With live moves, the ranks meet at a barrier every kLeashCycles cycles (end_cycle), fewer
  /// than the proposals' lead (Migrator's kLinkMargin): no rank runs ahead of a move.
  static constexpr std::int64_t kLeashCycles = 32;

  MigrationLink(const Session& session, const WindowTable& windows, int control_tag,
                std::size_t handoffs, bool live, Abort& abort = process_abort())
      : session_(session),
        windows_(windows),
        control_tag_(control_tag),
        live_(live),
        abort_(abort),
        sends_(static_cast<std::size_t>(session.size())),
        receives_(static_cast<std::size_t>(session.size())),
        state_sends_(handoffs),
        state_receives_(handoffs) {
    for (auto& t : sends_) t.send = true;
    leash_.comm = session.comm();
    for (auto* tasks : {&sends_, &receives_})
      for (ControlTask& t : *tasks) {
        t.comm = session.comm();
        t.tag = control_tag;
      }
  }

  MigrationLink(const MigrationLink&) = delete;
  MigrationLink& operator=(const MigrationLink&) = delete;

  bool coordinator() const override { return session_.rank() == 0; }

  Message propose(std::size_t alternative, bool forward, std::int64_t j) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return {Kind::end, 0, 0, j};
      proposing_ = true;
    }
    const Message m{Kind::propose, static_cast<std::int64_t>(alternative), forward ? 1 : 0, j};
    exchange(m, true);
    Message all{Kind::ready, 0, 0, j};
    for (int r = 1; r < session_.size(); ++r) {
      const Message& got = receives_[static_cast<std::size_t>(r)].message;
      if (got.kind == Kind::conflict) all.kind = Kind::conflict;
      if (all.kind == Kind::conflict) continue;
      if (got.kind == Kind::later) {
        all.kind = Kind::later;
        all.j = std::max(all.j, got.j);
      } else if (got.kind == Kind::busy && all.kind == Kind::ready) {
        all.kind = Kind::busy;
      }
    }
    return all;
  }

  void conclude(bool make) override {
    exchange({make ? Kind::make : Kind::drop, 0, 0, 0}, false);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      proposing_ = false;
    }
    idle_.notify_all();
  }

  bool next(Message& message) override {
    wait_comm();
    ControlTask& t = receives_[0];
    t.peer = 0;
    t.tag = control_tag_;
    comm().submit(t);
    comm().wait_until([&] { return t.done(); }, abort_);
    message = t.message;
    if (message.kind != Kind::end) return true;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ended_ = true;
    }
    idle_.notify_all();
    return false;
  }

  void answer(Kind kind, std::int64_t j) override {
    ControlTask& t = sends_[0];
    t.peer = 0;
    t.tag = control_tag_;
    t.message = {kind, 0, 0, j};
    comm().submit(t);
    comm().wait_until([&] { return t.done(); }, abort_);
  }

  void send(std::size_t handoff, const State& state, std::int64_t next, int host,
            int tag) override {
    wait_comm();
    StateSend& t = state_sends_.at(handoff);
    comm().wait_until([&] { return t.done(); }, abort_);  // the previous move's, long sent
    t.bytes.resize(sizeof next + state.size());
    std::memcpy(t.bytes.data(), &next, sizeof next);
    state.rewind();
    if (state.size() > 0) state.read(t.bytes.data() + sizeof next, state.size());
    state.rewind();
    t.peer = session_.rank_of_host(host);
    t.tag = tag;
    t.comm = session_.comm();
    comm().submit(t);
  }

  void receive(std::size_t handoff, State& state, std::int64_t j, int host, int tag) override {
    wait_comm();
    StateReceive& t = state_receives_.at(handoff);
    t.peer = session_.rank_of_host(host);
    t.tag = tag;
    t.comm = session_.comm();
    comm().submit(t);
    comm().wait_until([&] { return t.done(); }, abort_);
    std::int64_t resumes = -1;
    if (t.bytes.size() < sizeof resumes)
      throw std::runtime_error("dfg::mpi::MigrationLink: a short state message");
    std::memcpy(&resumes, t.bytes.data(), sizeof resumes);
    if (resumes != j)
      throw std::runtime_error(
          "dfg::mpi::MigrationLink: the state received resumes with iteration " +
          std::to_string(resumes) + ", not " + std::to_string(j));
    state.clear();
    state.write(t.bytes.data() + sizeof resumes, t.bytes.size() - sizeof resumes);
  }

  void end_cycle(std::int64_t c) override {
    if ((c + 1) % kLeashCycles != 0) return;
    comm().submit(leash_);
    comm().wait_until([&] { return leash_.done(); }, abort_);
  }

  /// The host CPU worker, after its cycles and before the comm thread ends (see the file
  /// comment).
  void close() {
    while (!windows_.all_finished()) wait_a_little();
    if (!live_) return;
    if (coordinator()) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        while (proposing_) {
          abort_.throw_if_stopped();
          idle_.wait_for(lock, std::chrono::milliseconds(1));
        }
        closed_ = true;
      }
      exchange({Kind::end, 0, 0, 0}, false);
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    while (!ended_) {
      abort_.throw_if_stopped();
      idle_.wait_for(lock, std::chrono::milliseconds(1));
    }
  }

 private:
  /// A control message to or from one rank.
  struct ControlTask final : CommTask {
    bool send = false;
    int peer = 0, tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    Message message;
    MPI_Request request = MPI_REQUEST_NULL;

    void post() override {
      constexpr int n = sizeof(Message) / sizeof(std::int64_t);
      if (send) {
        check(MPI_Isend(&message, n, MPI_INT64_T, peer, tag, comm, &request),
              "MPI_Isend (migration control)");
      } else {
        check(MPI_Irecv(&message, n, MPI_INT64_T, peer, tag, comm, &request),
              "MPI_Irecv (migration control)");
      }
    }
    bool test() override {
      int flag = 0;
      check(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), "MPI_Test (migration control)");
      return flag != 0;
    }
  };
  static_assert(sizeof(Message) == 4 * sizeof(std::int64_t));

  /// A node's state to another rank.
  struct StateSend final : CommTask {
    int peer = 0, tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<std::byte> bytes = std::vector<std::byte>(State::kCapacity);
    MPI_Request request = MPI_REQUEST_NULL;

    void post() override {
      check(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, peer, tag, comm,
                      &request),
            "MPI_Isend (actor state)");
    }
    bool test() override {
      int flag = 0;
      check(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), "MPI_Test (actor state)");
      return flag != 0;
    }
  };

  /// A node's state from another rank, of the size its message has.
  struct StateReceive final : CommTask {
    int peer = 0, tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<std::byte> bytes = std::vector<std::byte>(State::kCapacity);

    void post() override {}
    bool test() override {
      int flag = 0;
      MPI_Status status;
      check(MPI_Iprobe(peer, tag, comm, &flag, &status), "MPI_Iprobe (actor state)");
      if (flag == 0) return false;
      int n = 0;
      check(MPI_Get_count(&status, MPI_BYTE, &n), "MPI_Get_count (actor state)");
      bytes.resize(static_cast<std::size_t>(n));
      check(MPI_Recv(bytes.data(), n, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE),
            "MPI_Recv (actor state)");
      return true;
    }
  };

  /// The ranks' barrier of the leash.
  struct LeashTask final : CommTask {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Request request = MPI_REQUEST_NULL;

    void post() override { check(MPI_Ibarrier(comm, &request), "MPI_Ibarrier (migration leash)"); }
    bool test() override {
      int flag = 0;
      check(MPI_Test(&request, &flag, MPI_STATUS_IGNORE), "MPI_Test (migration leash)");
      return flag != 0;
    }
  };

  CommThread& comm() const { return session_.comm_thread(); }

  void wait_a_little() const {
    abort_.throw_if_stopped();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void wait_comm() const {
    while (!comm().running()) wait_a_little();
  }

  /// Rank 0: sends `m` to every other rank, and with `answers` receives each one's answer.
  void exchange(const Message& m, bool answers) {
    wait_comm();
    for (int r = 1; r < session_.size(); ++r) {
      ControlTask& s = sends_[static_cast<std::size_t>(r)];
      s.peer = r;
      s.tag = control_tag_;
      s.comm = session_.comm();
      s.message = m;
      comm().submit(s);
      if (!answers) continue;
      ControlTask& a = receives_[static_cast<std::size_t>(r)];
      a.peer = r;
      a.tag = control_tag_;
      a.comm = session_.comm();
      comm().submit(a);
    }
    comm().wait_until(
        [&] {
          for (int r = 1; r < session_.size(); ++r)
            if (!sends_[static_cast<std::size_t>(r)].done() ||
                (answers && !receives_[static_cast<std::size_t>(r)].done()))
              return false;
          return true;
        },
        abort_);
  }

  const Session& session_;
  const WindowTable& windows_;
  const int control_tag_;
  const bool live_;
  Abort& abort_;
  std::vector<ControlTask> sends_, receives_;  ///< per rank (a server uses its [0])
  std::vector<StateSend> state_sends_;
  std::vector<StateReceive> state_receives_;
  LeashTask leash_;
  std::mutex mutex_;
  std::condition_variable idle_;
  bool proposing_ = false;  ///< rank 0: between propose() and conclude() (mutex_)
  bool closed_ = false;     ///< rank 0: close() ran (mutex_)
  bool ended_ = false;      ///< the others: `end` received (mutex_)
};

}  // namespace dfg::mpi
