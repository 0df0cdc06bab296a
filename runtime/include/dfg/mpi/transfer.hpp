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
/// the slot, never into library buffers. A token below the eager limit may be buffered eagerly,
/// at most one per transfer, unless it goes through a window (below), where it never is. The
/// generated cycle must post every receive and send of a cycle before waiting on any of them
/// (with and without overlap), which makes the exchange deadlock-free.
///
/// Window (small tokens). A round trip per token bounds the cycle of a program whose tokens are
/// small: MPI_Issend completes only once the receiver's acknowledgement is back, so a cycle costs
/// at least a synchronous round trip between two processes (2.3 us over Open MPI's shared memory).
/// A transfer of a token of at most Session::window_bytes() (kWindowMaxBytes unless the
/// environment says otherwise) in one message runs instead with a window of
/// W = Session::window() tokens (0: none, every transfer as above), on both ends alike:
/// - The receiver keeps W receives posted, each into a buffer of its own (a ring of W tokens),
///   the first W at its first start(). start() names the slot of the next token; test() sees the
///   token's receive complete, copies it into the slot (through the Staging where there is one),
///   and posts the receive W tokens later into the buffer it freed. It tells the sender how many
///   receives it has posted (a credit: one int64 on Session::credit_comm(), tag = id) once they
///   are first posted and then after every W / 2 tokens.
/// - The sender keeps kCreditSlots receives of credits posted. It sends token n (counted from 0)
///   with MPI_Isend only once a credit said that more than n receives are posted, and completes
///   as the Isend does.
/// So a data message always finds its receive posted (the library buffers no payload, eagerly or
/// otherwise), a token costs one message one way, and the sender runs at most W tokens ahead of
/// the tokens the receiver took. A credit always finds a receive posted too: the sender heard a
/// credit of P, so sent at most P tokens, so the receiver took at most P and has posted at most
/// P + W: at most W / (W / 2) = 2 credits are on their way, fewer than kCreditSlots. Memory: W
/// tokens' bytes on the receiving rank per transfer (at most kMaxWindow x window_bytes(); W x
/// kWindowMaxBytes at the defaults), and kCreditSlots int64 on each end.
/// A window lets a token go wherever MPI_Issend would have completed, and earlier: once the
/// receiver has started token j it has taken tokens 0 .. j - 1, and the last credit it sent
/// covers at least j - W / 2 + W > j tokens; so the generated cycle stays deadlock-free.
/// End. Both ends count their tokens (the same n), so the sender knows the credits to come:
/// 1 + n / (W / 2) (none when n = 0). The destructor, after the cycle loop (the thread that owns
/// MPI again), hears them all (sender), or sees its credits delivered and cancels its W receives
/// (receiver); once the Abort is raised it only cancels and frees, as for a token in flight.
/// Larger tokens keep MPI_Issend: they are a round trip or more anyway (rendezvous above the
/// library's eager limit), where the window would add a copy out of the ring. Why the limit is
/// 16 KiB: kWindowMaxBytes (dfg/mpi/session.hpp).
/// Direct. A windowed token of at most kDirectMaxBytes (one eager message) is the host CPU
/// worker's own where the Session is direct(): dfg::mpi::CycleTransfers posts and tests it on the
/// worker, not on the comm thread; the messages, and every guarantee above, are the same.
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
///   that owns the endpoint: the rank's communication thread in a generated program
///   (dfg::mpi::CycleTransfers hands it the endpoint's start() and test(); comm_thread() is the
///   Session's), or, for a direct() endpoint, the host's CPU worker, which makes its calls itself
///   while the comm thread makes the others (MPI_THREAD_MULTIPLE: Session::direct()). No MPI
///   request or member of an endpoint is ever touched by both.
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
///   pending receive and frees (MPI_Request_free) a pending send. Destroying a windowed endpoint
///   after its last token waits for the window's last credits (see Window), polling, until the
///   Abort is raised.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

/// The receives of credits a windowed sender keeps posted, and the credits a receiver keeps in
/// flight at most.
inline constexpr std::size_t kCreditSlots = 4;

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
  /// The transfer's window in tokens (0: every token by MPI_Issend; see the file comment).
  std::size_t window() const noexcept { return window_; }
  /// The tokens started so far.
  std::int64_t tokens() const noexcept { return tokens_; }
  /// Whether MPI moves the token through a staging buffer (stage_through()).
  bool staged() const noexcept { return staging_.copy != nullptr; }
  /// Whether the host's CPU worker makes this endpoint's MPI calls itself rather than the comm
  /// thread: a windowed, unstaged transfer of at most kDirectMaxBytes (one eager message) on a
  /// Session that allows it (Session::direct()).
  bool direct() const noexcept {
    return direct_ && staging_.copy == nullptr && window_copy_ == nullptr;
  }
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

  /// A windowed receiver whose slots MPI may be given but the host may not write (a GPU's
  /// device memory under a CUDA-aware library, dfg/mpi/gpudirect.hpp): from now on its tokens are
  /// copied from the window's host buffer into the slot with `copy.to_slot` rather than
  /// std::memcpy, on the comm thread. Nothing changes for a sender, or an unwindowed endpoint,
  /// where MPI writes the slot itself. Only while no token is in flight.
  void copy_window_through(StagingCopy& copy) {
    if (in_flight_) {
      throw std::logic_error("dfg::mpi transfer '" + name_ +
                             "': copy_window_through() while a token is in flight");
    }
    if (window_ != 0 && receiving_) window_copy_ = &copy;
  }

  /// True when no token is in flight (the last one completed); one MPI_Testall, never blocks.
  bool test() {
    if (!in_flight_) return true;
    if (window_ != 0) return receiving_ ? test_window_receive() : test_window_send();
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
    credit_requests_.fill(MPI_REQUEST_NULL);
    if (session.window() > 0 && plan_.count() == 1 && bytes <= session.window_bytes()) {
      window_ = static_cast<std::size_t>(session.window());
      direct_ = session.direct() && bytes <= kDirectMaxBytes;
      credit_comm_ = session.credit_comm();
      if (receiving_) {
        ring_.resize(std::max<std::size_t>(window_ * bytes, 1));
        ring_requests_.assign(window_, MPI_REQUEST_NULL);
      }
    }
    comm_thread_.expect(receiving_, plan_.bytes);
  }

  ~Endpoint() {
    comm_thread_.forget(receiving_, plan_.bytes);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized != 0) return;
    if (window_ != 0 && !in_flight_ && !abort_.stopped()) {
      try {
        close_window();
      } catch (...) {  // an MPI error or the stop: give up as on an error path
      }
    }
    for (MPI_Request& r : requests_) drop(r, receiving_);
    for (MPI_Request& r : ring_requests_) drop(r, true);
    for (MPI_Request& r : credit_requests_) drop(r, !receiving_);
  }

  /// An error path's end of a request still pending: a receive is cancelled, a send freed.
  static void drop(MPI_Request& r, bool receive) noexcept {
    if (r == MPI_REQUEST_NULL) return;
    if (receive) {
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
      MPI_Request_free(&r);
    }
  }

  /// A windowed receiver's test(): the next token's receive (see the file comment).
  bool test_window_receive() {
    if (posted_ == 0) {  // the first token: W receives, then the first credit
      for (std::size_t e = 0; e < window_; ++e) post_window_receive(e);
      send_credit();
    }
    const std::size_t e = static_cast<std::size_t>(tokens_ - 1) % window_;
    int done = 0;
    const int rc = MPI_Test(&ring_requests_[e], &done, statuses_.data());
    if (rc != MPI_SUCCESS) fail(rc, "MPI_Test");
    if (done == 0) return false;
    const std::size_t received = check_counts();
    const unsigned char* entry = ring_.data() + e * plan_.bytes;
    if (received != 0) {
      if (staging_.copy != nullptr)
        staging_.copy->to_slot(slot_, entry, received);
      else if (window_copy_ != nullptr)
        window_copy_->to_slot(slot_, entry, received);
      else
        std::memcpy(slot_, entry, received);
    }
    if (length_ != nullptr) *length_ = received;
    post_window_receive(e);
    if (tokens_ % static_cast<std::int64_t>(window_ / 2) == 0) send_credit();
    in_flight_ = false;
    return true;
  }

  /// A windowed sender's test(): the send once the credits allow it, then its completion.
  bool test_window_send() {
    if (!credits_posted_) {
      for (std::size_t k = 0; k < kCreditSlots; ++k) post_credit_receive(k);
      credits_posted_ = true;
    }
    hear_credits();
    if (!sent_) {
      if (tokens_ > credit_) return false;  // token tokens_ - 1 needs more than that posted
      const int rc =
          MPI_Isend(send_data_, send_count_, MPI_BYTE, peer_, tag_, comm_, requests_.data());
      if (rc != MPI_SUCCESS) fail(rc, "MPI_Isend");
      sent_ = true;
    }
    int done = 0;
    const int rc = MPI_Test(requests_.data(), &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) fail(rc, "MPI_Test");
    if (done == 0) return false;
    in_flight_ = false;
    return true;
  }

  /// Posts the receive of ring entry `e` for the next token not yet posted.
  void post_window_receive(std::size_t e) {
    const int rc = MPI_Irecv(ring_.data() + e * plan_.bytes, static_cast<int>(plan_.bytes),
                             MPI_BYTE, peer_, tag_, comm_, &ring_requests_[e]);
    if (rc != MPI_SUCCESS) fail(rc, "MPI_Irecv (window)");
    ++posted_;
  }

  /// Tells the sender how many receives are posted, once the credit sent kCreditSlots ago
  /// completed (it has: at most 2 credits are on their way).
  void send_credit() {
    const std::size_t k = static_cast<std::size_t>(credits_sent_) % kCreditSlots;
    complete(credit_requests_[k], "MPI_Isend (credit)");
    credit_values_[k] = posted_;
    const int rc = MPI_Isend(&credit_values_[k], 1, MPI_INT64_T, peer_, tag_, credit_comm_,
                             &credit_requests_[k]);
    if (rc != MPI_SUCCESS) fail(rc, "MPI_Isend (credit)");
    ++credits_sent_;
  }

  void post_credit_receive(std::size_t k) {
    const int rc = MPI_Irecv(&credit_values_[k], 1, MPI_INT64_T, peer_, tag_, credit_comm_,
                             &credit_requests_[k]);
    if (rc != MPI_SUCCESS) fail(rc, "MPI_Irecv (credit)");
  }

  /// Takes the credits that arrived, in order, posting each slot's receive again.
  void hear_credits() {
    while (true) {
      const std::size_t k = static_cast<std::size_t>(credits_heard_) % kCreditSlots;
      int done = 0;
      const int rc = MPI_Test(&credit_requests_[k], &done, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) fail(rc, "MPI_Test (credit)");
      if (done == 0) return;
      credit_ = std::max(credit_, credit_values_[k]);
      ++credits_heard_;
      post_credit_receive(k);
    }
  }

  /// Polls `r` until it completed; throws dfg::Aborted once the stop is raised.
  void complete(MPI_Request& r, std::string_view call) {
    while (r != MPI_REQUEST_NULL) {
      int done = 0;
      const int rc = MPI_Test(&r, &done, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) fail(rc, call);
      if (done != 0) return;
      abort_.throw_if_stopped();
      std::this_thread::yield();
    }
  }

  /// The window's end after the last token (see the file comment): the sender hears every
  /// credit still to come, the receiver sees its credits delivered; what is left posted is
  /// cancelled by the destructor.
  void close_window() {
    if (receiving_) {
      for (MPI_Request& r : credit_requests_) complete(r, "MPI_Isend (credit)");
      return;
    }
    const std::int64_t expected =
        tokens_ == 0 ? 0 : 1 + tokens_ / static_cast<std::int64_t>(window_ / 2);
    while (credits_heard_ < expected) {
      hear_credits();
      if (credits_heard_ >= expected) break;
      abort_.throw_if_stopped();
      std::this_thread::yield();
    }
  }

  void begin(std::int64_t iteration) {
    if (in_flight_) {
      throw std::logic_error("dfg::mpi transfer '" + name_ + "': start(" +
                             std::to_string(iteration) + ") while iteration " +
                             std::to_string(iteration_) + " is in flight");
    }
    iteration_ = iteration;
    ++tokens_;
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
  StagingCopy* window_copy_ = nullptr;  ///< a windowed receiver's copy into a device slot
  void* slot_ = nullptr;  ///< a staged receive's slot, written once the receives complete
  std::uint64_t* length_ = nullptr;  ///< a bounded receive's length cell, written on completion
  bool in_flight_ = false;
  std::int64_t iteration_ = -1;
  std::int64_t tokens_ = 0;  ///< start()s so far: the token in flight is number tokens_ - 1

  // The window (window_ > 0; see the file comment).
  std::size_t window_ = 0;
  bool direct_ = false;  ///< windowed, eager, on a Session whose CPU worker calls MPI itself
  MPI_Comm credit_comm_ = MPI_COMM_NULL;
  std::array<std::int64_t, kCreditSlots> credit_values_{};
  std::array<MPI_Request, kCreditSlots> credit_requests_;
  std::vector<unsigned char> ring_;         ///< receiver: window_ tokens
  std::vector<MPI_Request> ring_requests_;  ///< receiver: entry e holds token n with n % W == e
  std::int64_t posted_ = 0;                 ///< receiver: receives posted so far
  std::int64_t credits_sent_ = 0;           ///< receiver
  bool credits_posted_ = false;             ///< sender: its credit receives are posted
  std::int64_t credits_heard_ = 0;          ///< sender
  std::int64_t credit_ = 0;                 ///< sender: receives the receiver said it posted
  bool sent_ = false;                       ///< sender: the token in flight's MPI_Isend is posted
  const void* send_data_ = nullptr;         ///< sender: the token in flight's message
  int send_count_ = 0;
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
    in_flight_ = true;
    if (window_ != 0) {  // sent by test() once the credits allow (see the file comment)
      send_data_ = slot;
      send_count_ = static_cast<int>(used);
      sent_ = false;
      test();
      return;
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
    in_flight_ = true;
    if (window_ != 0) {  // received into the ring, copied into the slot by test()
      test();
      return;
    }
    if (staging_.copy != nullptr) slot = staging_.host;
    auto* base = static_cast<unsigned char*>(slot);
    for (std::size_t c = 0; c < requests_.size(); ++c) {
      const int n = static_cast<int>(plan_.size(c));
      void* p = n == 0 ? slot : base + plan_.offset(c);
      const int rc = MPI_Irecv(p, n, MPI_BYTE, peer_, tag_, comm_, &requests_[c]);
      if (rc != MPI_SUCCESS) fail(rc, "MPI_Irecv");
    }
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
