/// \file
/// dfg::mpi::CycleTransfers: the host-to-host transfers that the host's CPU worker has in flight
/// in one cycle. The generated cycle starts them, looks at them between firings, and completes
/// them all before it ends the cycle. The rank's communication thread (dfg/mpi/comm_thread.hpp)
/// makes the MPI calls of a large token: it posts each one at once and polls it while the CPU
/// worker fires, so a transfer progresses during a firing however long it takes; the receives go
/// to its receive lane and the sends to its send lane, which run at once when it has two. A small
/// token's transfer (a windowed token of at most kDirectMaxBytes, a direct() endpoint:
/// dfg/mpi/transfer.hpp) is the CPU worker's own: start() posts it and wait() tests it, with no
/// handoff to another thread, which cost about 1.1 us a transfer (bench/hosts/README.md, "Direct
/// small tokens"). Its message is one eager MPI_Isend into a receive posted in advance, so it needs
/// no progress between two firings, and poll() leaves it alone: an MPI_Test (a turn of the
/// library's progress engine) after each firing of a cycle of a few microseconds bought nothing,
/// and without it the overlap schedule makes no more MPI calls a cycle than the one without
/// overlap, which tests its transfers in wait() only (bench/hosts/README.md, "Overlap against no
/// overlap on every mapping"). Its credits wait for the worker's next wait(), W / 2 tokens ahead.
/// Each transfer is timed for --stats / --trace from its posting to the poll that saw it complete
/// (a direct one: wait()'s), on the thread that owns it.
///
///     net_.start(*send_i2_b_C_cpu_, overlap::transfer_i2_b_C_cpu, j, slot);   // sends first,
///     net_.start(*recv_i1_b_B_cpu_, overlap::transfer_i1_b_B_cpu, j, slot);   // then receives
///     ... fire this PE's nodes, each followed by net_.poll() ...
///     net_.wait();                                                            // then end_cycle
///
/// Why the cycle-end wait is the synchronisation across ranks: the two ends of a host-to-host
/// transfer are CPU PEs of different ranks, each owning the colour it touches, so no thread of
/// another PE shares them within a rank. The sender's slot must stay unchanged until its
/// MPI_Issend (a small token's MPI_Isend, dfg/mpi/transfer.hpp's window) completed and the
/// receiver's slot is written by its MPI_Irecv only (a small token's copy out of the window's
/// ring, made by the test() that sees it arrive): both complete
/// before the CPU worker ends the cycle, hence before any PE of its rank begins a cycle that
/// could reuse the slot (neighbour sync or barrier, as for the transfers within a rank). The
/// comm thread publishes a completion with a release store that wait() and poll() acquire.
///
/// Guarantees:
/// - Used by the host's CPU worker only; not thread-safe. start() of a transfer that is not
///   direct needs the endpoints' Session's comm thread running (run_mpi_worker), else it throws
///   std::logic_error. A direct endpoint is never handed to the comm thread, and a handed one
///   never tested by the worker: each endpoint has one thread that calls MPI for it.
/// - The constructor allocates room for `capacity` transfers; start(), poll() and wait() never
///   allocate (start() beyond the capacity throws std::logic_error).
/// - start() hands the transfer to the comm thread (a mutex, a few stores), or posts a direct
///   one itself (MPI_Isend or MPI_Test: nonblocking), and returns at once; poll() reads each
///   handed transfer's completion once (acquire loads), makes no MPI call and never blocks;
///   wait() tests each direct transfer (MPI_Test) and reads the handed ones, repeatedly while a
///   direct transfer is in flight (pausing, yielding every CommThread::kYieldEvery rounds: its
///   progress is these tests), then sleeps (CommThread::wait_until), throwing dfg::Aborted once the
///   Abort is raised. An MPI error of a handed transfer is the comm thread's, one of a direct
///   transfer is thrown by the call that met it (the worker's error: run_mpi_worker ends the job).
///   With tracing and stats off no clock is read (but wait()'s own).
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/bounded.hpp"
#include "dfg/mpi/comm_thread.hpp"
#include "dfg/mpi/transfer.hpp"
#include "dfg/probe.hpp"

namespace dfg::mpi {

class CycleTransfers {
 public:
  CycleTransfers(Probes& probes, std::size_t capacity, Abort& abort = process_abort())
      : probes_(probes), capacity_(capacity), abort_(abort), transfers_(new Transfer[capacity]) {
    for (std::size_t i = 0; i < capacity; ++i) {
      transfers_[i].timed = probes.on();
      free_.push_back(&transfers_[i]);
    }
    flight_.reserve(capacity);
  }

  CycleTransfers(const CycleTransfers&) = delete;
  CycleTransfers& operator=(const CycleTransfers&) = delete;

  /// Waits for the transfers in flight (an error path leaves none on success): the comm thread
  /// must not touch a Transfer after it is freed. Gives up once the stop is raised (the comm
  /// thread then ends the job) or the comm thread does not run.
  ~CycleTransfers() {
    for (Transfer* t : flight_) {
      while (!t->direct && !t->done() && !abort_.stopped() && t->endpoint->comm_thread().running())
        std::this_thread::yield();
    }
  }

  /// Hands the sends of token `iteration` from `slot` to the comm thread (posts them, for a
  /// direct endpoint); `entry` is the transfer's Probes entry.
  void start(SendEndpoint& e, std::size_t entry, std::int64_t iteration, const void* slot) {
    submit(e, &e, nullptr, entry, iteration, const_cast<void*>(slot));
  }

  /// Hands the receives of token `iteration` into `slot` to the comm thread.
  void start(RecvEndpoint& e, std::size_t entry, std::int64_t iteration, void* slot) {
    submit(e, nullptr, &e, entry, iteration, slot);
  }

  /// The same for a bounded token (dfg/bounded.hpp): the sender moves its used bytes, read when
  /// start() is called; the receiver writes the bytes it got into the slot's length cell.
  void start(SendEndpoint& e, std::size_t entry, std::int64_t iteration, SlotToken token) {
    submit(e, &e, nullptr, entry, iteration, token.data, nullptr,
           static_cast<std::size_t>(*token.used_bytes));
  }
  void start(RecvEndpoint& e, std::size_t entry, std::int64_t iteration, SlotToken token) {
    submit(e, nullptr, &e, entry, iteration, token.data, token.used_bytes);
  }

  /// Looks once at every transfer in flight that the comm thread makes, between two firings; a
  /// direct one is left to wait(). Returns true when none is left.
  bool poll() { return sweep(false); }

  /// Polls until every started transfer completed; throws dfg::Aborted once the stop is raised.
  void wait() {
    unsigned polls = 0;
    while (!sweep(true)) {
      if (direct_ == 0) {
        flight_.front()->endpoint->comm_thread().wait_until([this] { return sweep(true); }, abort_);
        return;
      }
      abort_.throw_if_stopped();
      if (++polls % CommThread::kYieldEvery == 0)
        std::this_thread::yield();
      else
        cpu_relax();
    }
  }

  /// The number of transfers in flight.
  std::size_t in_flight() const noexcept { return flight_.size(); }
  /// The number of direct transfers (the worker's own) in flight.
  std::size_t direct_in_flight() const noexcept { return direct_; }

 private:
  /// Looks at every transfer in flight once, the direct ones too where `direct`; returns true
  /// when none is left.
  bool sweep(bool direct) {
    for (std::size_t i = 0; i < flight_.size();) {
      Transfer* t = flight_[i];
      if (t->direct ? !direct || !t->test() : !t->done()) {
        ++i;
        continue;
      }
      if (t->direct) --direct_;
      if (t->timed) {
        probes_.record(t->entry, t->iteration, probes_.tracer().to_us(t->begin),
                       std::chrono::duration<double, std::micro>(t->end - t->begin).count());
      }
      free_.push_back(t);
      flight_[i] = flight_.back();
      flight_.pop_back();
    }
    return flight_.empty();
  }

  /// One transfer in flight: post() and test() run on the comm thread, or on the CPU worker for
  /// a direct one.
  struct Transfer final : CommTask {
    Endpoint* endpoint = nullptr;
    SendEndpoint* send = nullptr;
    RecvEndpoint* recv = nullptr;
    std::size_t entry = 0;
    std::int64_t iteration = 0;
    void* slot = nullptr;
    std::uint64_t* length = nullptr;  ///< a bounded receive's length cell
    std::size_t used = 0;             ///< a bounded send's bytes
    bool bounded_send = false;
    bool timed = false;
    bool direct = false;  ///< the CPU worker's own (Endpoint::direct()): never handed over
    Tracer::Clock::time_point begin, end;  ///< written by the comm thread, read once done()

    void post() override {
      if (timed) begin = Tracer::Clock::now();
      if (send != nullptr && bounded_send)
        send->start(iteration, slot, used);
      else if (send != nullptr)
        send->start(iteration, slot);
      else
        recv->start(iteration, slot, length);
    }
    bool test() override {
      if (!endpoint->test()) return false;
      if (timed) end = Tracer::Clock::now();
      return true;
    }
  };

  void submit(Endpoint& e, SendEndpoint* send, RecvEndpoint* recv, std::size_t entry,
              std::int64_t iteration, void* slot, std::uint64_t* length = nullptr,
              std::optional<std::size_t> used = std::nullopt) {
    if (free_.empty()) {
      throw std::logic_error("dfg::mpi::CycleTransfers: more than " + std::to_string(capacity_) +
                             " transfers in flight (starting '" + std::string(e.name()) + "')");
    }
    Transfer* t = free_.back();
    t->endpoint = &e;
    t->send = send;
    t->recv = recv;
    t->entry = entry;
    t->iteration = iteration;
    t->slot = slot;
    t->length = length;
    t->bounded_send = used.has_value();
    t->used = used.value_or(0);
    t->direct = e.direct();
    if (t->direct) {
      t->post();
      ++direct_;
    } else {
      e.comm_thread().submit(*t,
                             send != nullptr ? CommThread::kSendLane : CommThread::kReceiveLane);
    }
    free_.pop_back();
    flight_.push_back(t);
  }

  Probes& probes_;
  std::size_t capacity_;
  Abort& abort_;
  std::unique_ptr<Transfer[]> transfers_;
  std::vector<Transfer*> free_;    ///< reserved for `capacity`
  std::vector<Transfer*> flight_;  ///< reserved for `capacity`
  std::size_t direct_ = 0;         ///< the direct ones among flight_
};

}  // namespace dfg::mpi
