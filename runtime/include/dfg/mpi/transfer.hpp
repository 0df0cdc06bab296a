/// \file
/// dfg::mpi::SendEndpoint and RecvEndpoint: the two ends of one host-to-host transfer of the IG
/// (a buffer node on one host to a buffer node on another), one token per start().
///
///     // rank of host A, the thread that owns MPI       // rank of host B, likewise
///     send.start(c - 1, p_m.at(dfg::slot(c, 1, 2)));   recv.start(c - 1, i2_a.at(dfg::slot(c, 1,
///     2)));
///     ... polling send.test() ...                      ... polling recv.test() ...
///     send.wait();                                     recv.wait();
///
/// Tags. Every transfer has an id, unique in the program (the code generator numbers the
/// host-to-host transfers 0, 1, ... in schedule.txt order); its messages carry tag = id on the
/// Session's own communicator (a duplicate of MPI_COMM_WORLD), so they never match another
/// transfer's or the user's MPI traffic. The constructor checks 0 <= id <= MPI_TAG_UB.
///
/// Large tokens. MPI counts are ints: a token is sent as ceil(bytes / chunk_bytes) messages
/// (chunk_bytes <= INT_MAX, default 1 GiB; a zero-byte token is one empty message), all with
/// the transfer's tag, posted in chunk order on both sides. MPI's non-overtaking rule (messages
/// from one sender on one communicator with one tag match receives in the order both were
/// posted) pairs chunk c of iteration j with the receive of chunk c of iteration j, so the tag
/// needs no chunk index and the tag space stays one per transfer whatever the token size.
/// Both ends must be built with the same bytes and chunk_bytes; a mismatch (say, ranks started
/// with different --set values) is caught on completion: MPI_ERR_TRUNCATE, or a short count.
///
/// Completion and flow control. The sender uses MPI_Issend: its request completes only once the
/// receiver has posted the matching receive. start() requires the previous token's completion,
/// so a sender is at most one token ahead of its receiver per transfer: ranks cannot drift
/// apart unboundedly, and no rank accumulates unexpected messages. The receiver posts its
/// MPI_Irecv for iteration j as soon as its slot is writable, at the start of the cycle that
/// transfers j, before it waits on anything of that cycle; the sender posts its send in the same
/// cycle. A send can therefore reach the receiver before the receive is posted only when the
/// ranks drift within that one-token window. Then a large token (above the library's eager
/// limit: some KiB to 64 KiB in MPICH and Open MPI) travels by rendezvous: only the envelope
/// waits in the unexpected queue and the payload moves once the receive is posted, straight into
/// the slot, never into library buffers. A small token may be buffered eagerly, at most one per
/// transfer. The generated cycle must post every receive and send of a cycle before waiting on
/// any of them (with and without overlap), which makes the exchange deadlock-free.
///
/// Staging. An endpoint moves the token from and into the slot itself, unless it was given a
/// Staging (stage_through(), before its first start()): then MPI sends from and receives into
/// the staging host buffer, and the Staging's copy moves the token between the slot and that
/// buffer: before the sends are posted (start() of a SendEndpoint), and once the receives
/// completed (the test() that sees them complete, before it returns true). This is how a GPU's
/// slot reaches a library that is not CUDA-aware (dfg/mpi/gpudirect.hpp); the chunks are cut
/// from the staging buffer exactly as from a slot, so both paths send the same messages.
///
/// Bounded tokens (dfg/bounded.hpp). A sender given the token's used bytes (start(j, slot, used))
/// sends the same messages as for a full token, each cut to the bytes used (empty past them); a
/// receiver given a length cell (start(j, slot, cell)) receives each message at its full size,
/// and on completion writes the sum of MPI_Get_count's into the cell. Only the used bytes cross.
///
/// Guarantees:
/// - Threads: an endpoint is built by any thread (no MPI call: it reads the Session's
///   communicator and tag bound, and tells the comm thread what it moves a cycle, which picks
///   the lanes from it: CommThread::expect()) and then used by one thread at a time, the thread
///   that owns MPI: the rank's communication thread in a generated program
///   (dfg::mpi::CycleTransfers hands it the endpoint's start() and test(); comm_thread() is the
///   Session's).
/// - start() posts nonblocking operations and returns at once; test() calls MPI_Testall once and
///   never blocks; wait() polls test() until completion, throwing dfg::Aborted as soon as the
///   endpoint's Abort is raised (it checks stopped(), an acquire load, between polls), so a rank
///   whose other threads failed leaves the wait and ends the job (dfg/mpi/abort.hpp).
/// - Allocation: requests and statuses are allocated by the constructor; start/test/wait never
///   allocate except to build an MpiError's message.
/// - The slot passed to start() must stay valid, and (for a send) unchanged, until test()
///   returned true or wait() returned. A staging buffer must outlive the endpoint. With a
///   Staging, start() (send) and the completing test() (receive) also run its copy, which
///   blocks until the copy is done; they still allocate nothing.
/// - Destroying an endpoint with a token in flight happens only on an error path: it cancels a
///   pending receive and frees (MPI_Request_free) a pending send.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dfg/abort.hpp"
#include "dfg/mpi/session.hpp"

namespace dfg::mpi {

/// The largest message a transfer sends by default: 1 GiB, below INT_MAX.
inline constexpr std::size_t kDefaultChunkBytes = std::size_t{1} << 30;

/// How a token of `bytes` is cut into messages of at most `chunk_bytes` (>= 1).
struct ChunkPlan {
  std::size_t bytes = 0;
  std::size_t chunk_bytes = kDefaultChunkBytes;

  std::size_t count() const noexcept {
    return bytes == 0 ? 1 : (bytes + chunk_bytes - 1) / chunk_bytes;
  }
  std::size_t offset(std::size_t c) const noexcept { return c * chunk_bytes; }
  std::size_t size(std::size_t c) const noexcept {
    const std::size_t off = offset(c);
    return off >= bytes ? 0 : (bytes - off < chunk_bytes ? bytes - off : chunk_bytes);
  }
};

/// How an endpoint reaches a slot that MPI must not be given (a GPU's device memory when the
/// library is not CUDA-aware): copies between the slot and a host staging buffer. Both calls
/// are made by the endpoint's thread (the one that owns MPI) and return once the copy is done.
class StagingCopy {
 public:
  /// Before a send: the token's `bytes` from `slot` into the host buffer `host`.
  virtual void to_host(void* host, const void* slot, std::size_t bytes) = 0;
  /// After a receive: the token's `bytes` from the host buffer `host` into `slot`.
  virtual void to_slot(void* slot, const void* host, std::size_t bytes) = 0;

 protected:
  StagingCopy() = default;
  StagingCopy(const StagingCopy&) = default;
  StagingCopy& operator=(const StagingCopy&) = default;
  ~StagingCopy() = default;
};

/// A staging host buffer of the endpoint's bytes() and the copy to and from it.
struct Staging {
  void* host = nullptr;
  StagingCopy* copy = nullptr;
};

/// How the sender completes: synchronous (MPI_Issend, the default: see the file comment), or
/// standard (MPI_Isend: may complete before the receive is posted; for measurements).
enum class SendMode { synchronous, standard };

/// What the two ends share: completion by test() / wait(), the token's messages and tag.
class Endpoint {
 public:
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  /// Whether a started token has not completed yet.
  bool in_flight() const noexcept { return in_flight_; }
  int tag() const noexcept { return tag_; }
  int peer() const noexcept { return peer_; }
  std::size_t bytes() const noexcept { return plan_.bytes; }
  /// The number of messages per token.
  std::size_t chunks() const noexcept { return plan_.count(); }
  std::string_view name() const noexcept { return name_; }
  /// The iteration of the token last started.
  std::int64_t iteration() const noexcept { return iteration_; }
  /// Whether MPI moves the token through a staging buffer (stage_through()).
  bool staged() const noexcept { return staging_.copy != nullptr; }
  /// The communication thread of the endpoint's Session.
  CommThread& comm_thread() const noexcept { return comm_thread_; }

  /// From now on, send from / receive into `staging.host` and copy between it and the slots
  /// with `staging.copy` (see the file comment). Only while no token is in flight.
  void stage_through(Staging staging) {
    const std::string what = "dfg::mpi transfer '" + name_ + "': ";
    if (staging.host == nullptr || staging.copy == nullptr) {
      throw std::invalid_argument(what + "a staging needs a host buffer and a copy");
    }
    if (in_flight_) throw std::logic_error(what + "stage_through() while a token is in flight");
    staging_ = staging;
  }

  /// True when no token is in flight (the last one completed); one MPI_Testall, never blocks.
  bool test() {
    if (!in_flight_) return true;
    int done = 0;
    const int rc =
        MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, statuses_.data());
    if (rc != MPI_SUCCESS) fail(rc, "MPI_Testall");
    if (done == 0) return false;
    in_flight_ = false;
    if (receiving_) {
      const std::size_t received = check_counts();
      if (staging_.copy != nullptr && received != 0)
        staging_.copy->to_slot(slot_, staging_.host, received);
      if (length_ != nullptr) *length_ = received;
    }
    return true;
  }

  /// Polls test() until the token completed; throws dfg::Aborted once the stop is raised.
  void wait() {
    while (!test()) {
      abort_.throw_if_stopped();
      std::this_thread::yield();
    }
  }

 protected:
  Endpoint(const Session& session, bool receiving, int peer, int id, std::size_t bytes,
           std::string_view name, std::size_t chunk_bytes, Abort& abort)
      : comm_(session.comm()),
        comm_thread_(session.comm_thread()),
        receiving_(receiving),
        peer_(peer),
        tag_(id),
        plan_{bytes, chunk_bytes},
        name_(name),
        abort_(abort) {
    const std::string what = "dfg::mpi transfer '" + name_ + "': ";
    if (id < 0 || id > session.tag_ub()) {
      throw std::invalid_argument(what + "id " + std::to_string(id) +
                                  " is not a valid MPI tag (0.." +
                                  std::to_string(session.tag_ub()) + ")");
    }
    if (peer < 0 || peer >= session.size()) {
      throw std::invalid_argument(what + "peer rank " + std::to_string(peer) + " is out of range");
    }
    if (chunk_bytes == 0 || chunk_bytes > static_cast<std::size_t>(INT_MAX)) {
      throw std::invalid_argument(what + "chunk_bytes must be in 1.." + std::to_string(INT_MAX));
    }
    requests_.assign(plan_.count(), MPI_REQUEST_NULL);
    statuses_.resize(plan_.count());
    comm_thread_.expect(receiving_, plan_.bytes);
  }

  ~Endpoint() {
    comm_thread_.forget(receiving_, plan_.bytes);
    if (!in_flight_) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized != 0) return;
    for (MPI_Request& r : requests_) {
      if (r == MPI_REQUEST_NULL) continue;
      if (receiving_) {
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      } else {
        MPI_Request_free(&r);
      }
    }
  }

  void begin(std::int64_t iteration) {
    if (in_flight_) {
      throw std::logic_error("dfg::mpi transfer '" + name_ + "': start(" +
                             std::to_string(iteration) + ") while iteration " +
                             std::to_string(iteration_) + " is in flight");
    }
    iteration_ = iteration;
  }

  [[noreturn]] void fail(int rc, std::string_view call) const {
    throw MpiError("transfer '" + name_ + "', iteration " + std::to_string(iteration_) + ": " +
                       std::string(call) + ": " + error_string(rc),
                   rc);
  }

  /// The bytes received: all of them, or for a bounded token (a length cell), up to all.
  std::size_t check_counts() const {
    std::size_t received = 0;
    for (std::size_t c = 0; c < requests_.size(); ++c) {
      int count = 0;
      MPI_Get_count(&statuses_[c], MPI_BYTE, &count);
      const bool bounded =
          length_ != nullptr && count >= 0 && static_cast<std::size_t>(count) <= plan_.size(c);
      received += static_cast<std::size_t>(count < 0 ? 0 : count);
      if (!bounded && static_cast<std::size_t>(count) != plan_.size(c)) {
        throw MpiError("transfer '" + name_ + "', iteration " + std::to_string(iteration_) +
                           ": received " + std::to_string(count) + " bytes in message " +
                           std::to_string(c) + ", expected " + std::to_string(plan_.size(c)) +
                           " (do the ranks agree on the token sizes?)",
                       MPI_ERR_COUNT);
      }
    }
    return received;
  }

  MPI_Comm comm_;
  CommThread& comm_thread_;
  bool receiving_;
  int peer_;
  int tag_;
  ChunkPlan plan_;
  std::string name_;
  Abort& abort_;
  std::vector<MPI_Request> requests_;
  std::vector<MPI_Status> statuses_;
  Staging staging_;
  void* slot_ = nullptr;  ///< a staged receive's slot, written once the receives complete
  std::uint64_t* length_ = nullptr;  ///< a bounded receive's length cell, written on completion
  bool in_flight_ = false;
  std::int64_t iteration_ = -1;
};

/// The sending end of transfer `id`, to rank `peer`.
class SendEndpoint final : public Endpoint {
 public:
  /// `name` is the transfer as schedule.txt prints it ("i1.b@A.cpu -> i2.a@B.cpu"), for messages.
  SendEndpoint(const Session& session, int peer, int id, std::size_t bytes, std::string_view name,
               std::size_t chunk_bytes = kDefaultChunkBytes, SendMode mode = SendMode::synchronous,
               Abort& abort = process_abort())
      : Endpoint(session, false, peer, id, bytes, name, chunk_bytes, abort), mode_(mode) {}

  /// Posts the sends of token `iteration` from `slot` (bytes() bytes), staged: after copying it
  /// into the staging buffer. The previous token must have completed (test() returned true, or
  /// wait() returned).
  void start(std::int64_t iteration, const void* slot) { start(iteration, slot, plan_.bytes); }

  /// The same for a bounded token of `used` bytes (at most bytes()): every message is cut to the
  /// bytes used, so the receiver, posted at the capacity, counts them.
  void start(std::int64_t iteration, const void* slot, std::size_t used) {
    if (used > plan_.bytes) {
      throw std::length_error("dfg::mpi transfer '" + name_ + "', iteration " +
                              std::to_string(iteration) + ": a token of " + std::to_string(used) +
                              " bytes is over the capacity of " + std::to_string(plan_.bytes) +
                              " bytes");
    }
    begin(iteration);
    if (staging_.copy != nullptr) {
      if (used != 0) staging_.copy->to_host(staging_.host, slot, used);
      slot = staging_.host;
    }
    const auto* base = static_cast<const unsigned char*>(slot);
    for (std::size_t c = 0; c < requests_.size(); ++c) {
      const std::size_t offset = plan_.offset(c);
      const std::size_t full = plan_.size(c);
      const int n =
          static_cast<int>(offset >= used ? 0 : (used - offset < full ? used - offset : full));
      const void* p = n == 0 ? slot : base + plan_.offset(c);
      const int rc = mode_ == SendMode::synchronous
                         ? MPI_Issend(p, n, MPI_BYTE, peer_, tag_, comm_, &requests_[c])
                         : MPI_Isend(p, n, MPI_BYTE, peer_, tag_, comm_, &requests_[c]);
      if (rc != MPI_SUCCESS) fail(rc, mode_ == SendMode::synchronous ? "MPI_Issend" : "MPI_Isend");
    }
    in_flight_ = true;
  }

 private:
  SendMode mode_;
};

/// The receiving end of transfer `id`, from rank `peer`.
class RecvEndpoint final : public Endpoint {
 public:
  RecvEndpoint(const Session& session, int peer, int id, std::size_t bytes, std::string_view name,
               std::size_t chunk_bytes = kDefaultChunkBytes, Abort& abort = process_abort())
      : Endpoint(session, true, peer, id, bytes, name, chunk_bytes, abort) {}

  /// Posts the receives of token `iteration` into `slot` (bytes() bytes), staged: into the
  /// staging buffer, copied into `slot` on completion. The previous token must have completed.
  void start(std::int64_t iteration, void* slot) { start(iteration, slot, nullptr); }

  /// The same for a bounded token: once the receives complete, `length` holds the bytes received.
  void start(std::int64_t iteration, void* slot, std::uint64_t* length) {
    begin(iteration);
    slot_ = slot;
    length_ = length;
    if (staging_.copy != nullptr) slot = staging_.host;
    auto* base = static_cast<unsigned char*>(slot);
    for (std::size_t c = 0; c < requests_.size(); ++c) {
      const int n = static_cast<int>(plan_.size(c));
      void* p = n == 0 ? slot : base + plan_.offset(c);
      const int rc = MPI_Irecv(p, n, MPI_BYTE, peer_, tag_, comm_, &requests_[c]);
      if (rc != MPI_SUCCESS) fail(rc, "MPI_Irecv");
    }
    in_flight_ = true;
  }
};

/// Polls every endpoint in `endpoints` until all completed; throws dfg::Aborted once `abort`
/// is raised. The thread that owns MPI only.
inline void wait_all(std::span<Endpoint* const> endpoints, Abort& abort = process_abort()) {
  while (true) {
    bool all = true;
    for (Endpoint* e : endpoints) all = e->test() && all;
    if (all) return;
    abort.throw_if_stopped();
    std::this_thread::yield();
  }
}

}  // namespace dfg::mpi
