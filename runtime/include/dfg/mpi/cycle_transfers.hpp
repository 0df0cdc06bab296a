/// \file
/// dfg::mpi::CycleTransfers: the host-to-host transfers that the rank's MPI thread (the host's CPU
/// worker) has in flight in one cycle. The generated cycle posts them, progresses them between
/// firings, and completes them all before it ends the cycle; each is timed for --stats / --trace
/// from its posting to the poll that saw it complete.
///
///     net_.start(*recv_i1_b_B_cpu_, overlap::transfer_i1_b_B_cpu, j, slot);   // receives first,
///     net_.start(*send_i2_b_C_cpu_, overlap::transfer_i2_b_C_cpu, j, slot);   // then the sends
///     ... fire this PE's nodes, each followed by net_.poll() ...
///     net_.wait();                                                            // then end_cycle
///
/// Why the cycle-end wait is the synchronisation across ranks: the two ends of a host-to-host
/// transfer are CPU PEs of different ranks, each owning the colour it touches, so no thread of
/// another PE shares them within a rank. The sender's slot must stay unchanged until its
/// MPI_Issend completed and the receiver's slot is written by its MPI_Irecv only: both complete
/// before the CPU worker ends the cycle, hence before any PE of its rank begins a cycle that
/// could reuse the slot (neighbour sync or barrier, as for the transfers within a rank).
///
/// Guarantees:
/// - Used by the rank's MPI thread only (dfg/mpi/transfer.hpp's rule); not thread-safe.
/// - The constructor allocates room for `capacity` transfers; start(), poll() and wait() never
///   allocate (start() beyond the capacity throws std::logic_error).
/// - start() posts the endpoint's operations and returns at once; poll() calls test() once per
///   transfer in flight and never blocks; wait() polls until none is in flight, throwing
///   dfg::Aborted once the Abort is raised. With tracing and stats off no clock is read.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/mpi/transfer.hpp"
#include "dfg/probe.hpp"

namespace dfg::mpi {

class CycleTransfers {
 public:
  CycleTransfers(Probes& probes, std::size_t capacity, Abort& abort = process_abort())
      : probes_(probes), capacity_(capacity), abort_(abort) {
    flight_.reserve(capacity);
  }

  CycleTransfers(const CycleTransfers&) = delete;
  CycleTransfers& operator=(const CycleTransfers&) = delete;

  /// Posts the sends of token `iteration` from `slot`; `entry` is the transfer's Probes entry.
  void start(SendEndpoint& e, std::size_t entry, std::int64_t iteration, const void* slot) {
    const Tracer::Clock::time_point begin = admit(e);
    e.start(iteration, slot);
    flight_.push_back({&e, entry, iteration, begin});
  }

  /// Posts the receives of token `iteration` into `slot`.
  void start(RecvEndpoint& e, std::size_t entry, std::int64_t iteration, void* slot) {
    const Tracer::Clock::time_point begin = admit(e);
    e.start(iteration, slot);
    flight_.push_back({&e, entry, iteration, begin});
  }

  /// Tests every transfer in flight once; returns true when none is left.
  bool poll() {
    for (std::size_t i = 0; i < flight_.size();) {
      if (!flight_[i].endpoint->test()) {
        ++i;
        continue;
      }
      if (probes_.on()) {
        const Tracer::Clock::time_point end = Tracer::Clock::now();
        probes_.record(flight_[i].entry, flight_[i].iteration, probes_.tracer().to_us(flight_[i].begin),
                       std::chrono::duration<double, std::micro>(end - flight_[i].begin).count());
      }
      flight_[i] = flight_.back();
      flight_.pop_back();
    }
    return flight_.empty();
  }

  /// Polls until every started transfer completed; throws dfg::Aborted once the stop is raised.
  void wait() {
    while (!poll()) {
      abort_.throw_if_stopped();
      std::this_thread::yield();
    }
  }

  /// The number of transfers in flight.
  std::size_t in_flight() const noexcept { return flight_.size(); }

 private:
  struct InFlight {
    Endpoint* endpoint;
    std::size_t entry;
    std::int64_t iteration;
    Tracer::Clock::time_point begin;
  };

  Tracer::Clock::time_point admit(const Endpoint& e) const {
    if (flight_.size() == capacity_) {
      throw std::logic_error("dfg::mpi::CycleTransfers: more than " + std::to_string(capacity_) +
                             " transfers in flight (starting '" + std::string(e.name()) + "')");
    }
    return probes_.on() ? Tracer::Clock::now() : Tracer::Clock::time_point();
  }

  Probes& probes_;
  std::size_t capacity_;
  Abort& abort_;
  std::vector<InFlight> flight_;
};

}  // namespace dfg::mpi
