/// \file
/// dfg::mpi::Session: MPI for the lifetime of main, the placement of the architecture's hosts on
/// the ranks, the start-up checks every rank agrees on, and whether the library is CUDA-aware.
///
///     dfg::mpi::Session mpi(argc, argv);                       // MPI_Init_thread(SERIALIZED)
///     if (int s = mpi.place(kHosts, {flags.options.hostmap, flags.options.cuda_aware_mpi},
///     std::cerr)) return s; if (int s = mpi.agree_run_flags({iterations, overlap, barrier_sync},
///     std::cerr)) return s; if (int s = mpi.agree_params(kRuntimeParams, flags.options.params,
///     std::cerr)) return s; if (int s = mpi.agree(dfg::mpi::gpu_ordinals_error(kGpus[mpi.host()],
///     device_count), std::cerr)) return s;
///     ... spawn the workers; the rank's communication thread makes every MPI call of the cycles
///     ... return dfg::mpi::main_guard(mpi, [&] { ...; return workers.join(); });   //
///     dfg/mpi/abort.hpp
///
/// A start-up error (wrong number of ranks, a bad --hostmap, ranks started with different
/// --iterations, --no-overlap, --sync, --migrate, --migrate-control or runtime params, a GPU
/// ordinal this machine lacks) is printed once for the whole job, by the lowest rank that found it
/// (rank 0 when every rank found the same), and every rank returns 1 from
/// place()/agree()/agree_run_flags(); main returns it and the Session's destructor finalizes MPI.
/// Nothing waits for a message that will not come: the only communication is a collective per check
/// (MPI_Allreduce, MPI_Bcast), which every rank reaches.
///
/// Thread level. The rank's MPI calls are made by its communication thread's lanes
/// (comm_thread(), which run_mpi_worker runs around the host CPU worker's cycle loop), not by the
/// thread that initialised MPI: main makes the start-up calls, then the lanes make the calls of
/// the cycle loop (transfers, barriers, MPI_Abort; but for the direct ones, below), then main
/// finalizes after joining them. With one lane and nothing direct one thread calls MPI at a time
/// (MPI_THREAD_SERIALIZED; thread creation and join order the threads' calls); with two (receives
/// on one, sends on the other, so that a rank in the middle of a chain copies its incoming and
/// outgoing tokens at once: dfg/mpi/comm_thread.hpp) two threads call MPI at once, which needs
/// MPI_THREAD_MULTIPLE, as does the direct path (the CPU worker calls MPI next to the comm thread).
/// The Session asks for MPI_THREAD_MULTIPLE, which cost nothing measurable against SERIALIZED where
/// one thread calls MPI (bench/hosts/README.md); comm_lanes(wanted) gives the rank the lanes its
/// traffic wants (CommThread::wanted_lanes(): two only where the rank both receives and sends, and
/// receives at least dfg::mpi::kTwoLaneBytes a cycle), one where the library provides less than
/// MULTIPLE (a library that provides SERIALIZED only still runs, on one lane). The environment
/// variable DFG_MPI_LANES overrides the choice: "1" asks for MPI_THREAD_SERIALIZED and one lane on
/// every rank, "2" two lanes on every rank where the library allows them. Why two where the tokens
/// are large: measured with Open MPI 4.1.6 over shared memory (bench/hosts/README.md), a 3-rank
/// chain of 4 MiB tokens ran at the link's period with two lanes and at about twice it with one:
/// the library's single-copy receive (CMA) holds the one thread that calls MPI for the whole copy,
/// and the send's handshake waits behind it. Why one where they are small: two lanes cost a rank
/// that both receives and sends 1-3.6 us a cycle more with 1-byte tokens (the library locks on
/// every call, and two threads poll it). place() fails with a clear message if
/// the library provides less than SERIALIZED.
///
/// Direct small tokens. Where MPI provides MPI_THREAD_MULTIPLE, direct() is true and the host's
/// CPU worker makes the MPI calls of its windowed transfers of at most kDirectMaxBytes itself
/// (dfg/mpi/cycle_transfers.hpp), and of the --sync=barrier barrier's MPI_Ibarrier
/// (dfg/mpi/barrier.hpp, on barrier_comm() or the node leaders' communicator), next to the comm
/// thread's lanes: no handoff between two threads per small token. DFG_MPI_DIRECT=0 hands them to
/// the comm thread as well (for measurements); so does DFG_MPI_LANES=1, which asks for
/// MPI_THREAD_SERIALIZED, and a library that provides less than MULTIPLE. Each rank decides alone:
/// the messages are the same either way.
///
/// The ranks' barrier. place() also builds what --sync=barrier's barrier needs
/// (dfg/mpi/barrier.hpp): the ranks of one node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED)
/// share a NodeBarrier's two counters (MPI_Win_allocate_shared), and the first rank of each node
/// joins the node leaders' communicator, over which a job of several nodes meets between nodes.
/// DFG_MPI_BARRIER=ibarrier on any rank makes every rank meet by MPI_Ibarrier on
/// barrier_comm() instead, as the runtime did before (node_barrier() is null then).
/// DFG_MPI_NODE_RANKS=K (for tests and measurements) makes every K ranks of a node a node of
/// their own, so that one machine runs the barrier of several nodes; place() takes the smallest K
/// the ranks were given.
///
/// Window. A transfer of a small token (at most window_bytes(), one message) runs with a window
/// of W tokens instead of one MPI_Issend round trip each (dfg/mpi/transfer.hpp): window() is W,
/// kDefaultWindow unless the environment variable DFG_MPI_WINDOW sets it ("0": every transfer
/// by MPI_Issend, as large tokens always go; else an even number from 2 to kMaxWindow);
/// window_bytes() is kWindowMaxBytes unless DFG_MPI_WINDOW_BYTES sets it (1 to
/// kMaxWindowBytes, for measurements). Both ends of a transfer must agree on them, so place()
/// makes each the smallest of the ranks' values.
///
/// CUDA-aware MPI. cuda_aware() is true only when the library says so at run time
/// (MPIX_Query_cuda_support, called only where the MPI header declares it: Open MPI's mpi-ext.h
/// with MPIX_CUDA_AWARE_SUPPORT, MPICH >= 4.0 with MPIX_GPU_SUPPORT_CUDA) and the program was
/// not told otherwise (--no-cuda-aware-mpi). Anywhere else it is false and transfers stage
/// through pinned host memory.
///
/// Guarantees:
/// - Construction, place(), agree(), agree_run_flags(), agree_params() and destruction are
///   called by main, outside the cycle loop; place(), agree(), agree_run_flags() and
///   agree_params() are collective (every rank calls them, in the same order) and block in
///   MPI_Allreduce (agree() one, place() three: the checks, that every rank holds the same
///   map, the window and the barrier; then, unless DFG_MPI_BARRIER=ibarrier, the NodeBarrier's
///   communicators, window and an MPI_Barrier of the node's ranks) or MPI_Bcast (agree_run_flags()
///   and agree_params(): rank 0's values, then one agree()). They allocate. The accessors are
///   const, noexcept and never block.
/// - comm() is this Session's own duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN: the
///   runtime's tags never meet other MPI traffic of the program, and failed calls return codes
///   (dfg/mpi/check.hpp turns them into MpiError). credit_comm() is a second one, for the
///   windows' credits (a transfer's credits carry its tag there), and barrier_comm() a third, for
///   the CPU worker's direct barriers (its collectives never meet the comm thread's, which a
///   migration's leash posts on comm()).
/// - The destructor frees the NodeBarrier's window (collective over the node's ranks, which all
///   reach it at the end of main), the communicators, and calls MPI_Finalize unless MPI was already
///   finalized; it never throws.
#pragma once

#include "dfg/mpi/check.hpp"  // first: <mpi.h> without the C++ bindings
#if defined(OPEN_MPI) && OPEN_MPI && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/flags.hpp"
#include "dfg/mpi/comm_thread.hpp"
#include "dfg/mpi/placement.hpp"

namespace dfg::mpi {

/// The largest token a transfer moves with a window by default (dfg/mpi/transfer.hpp's file
/// comment; Session::window_bytes()): 16 KiB. Measured with Open MPI 4.1.6 over shared memory
/// (bench/hosts/README.md, "Direct small tokens"), a window sent by the CPU worker itself pays up
/// to 32 KiB and costs more from 64 KiB; but a token above kDirectMaxBytes is handed to the comm
/// thread, about 1 us a transfer more, which leaves the window no gain above 16 KiB on a middle
/// rank (an estimate: the window through the comm thread was not measured at these sizes).
inline constexpr std::size_t kWindowMaxBytes = std::size_t{16} << 10;

/// The largest windowed token the CPU worker sends and receives itself (Session::direct()):
/// 2 KiB, one eager message in Open MPI's shared memory (its eager limit, 4 KiB, holds the
/// header too; a 4 KiB token went by rendezvous in the measurement) and in MPICH's. An eager
/// message into a receive posted in advance needs no MPI call to move while the worker fires; a
/// larger one would wait for the worker's next poll, so it stays on the comm thread.
inline constexpr std::size_t kDirectMaxBytes = std::size_t{2} << 10;

/// Whether the MPI library reports, at run time, that it can send from and receive into CUDA
/// device memory. False where the library offers no way to ask.
inline bool library_cuda_aware() noexcept {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;  // Open MPI built with CUDA support
#elif defined(MPICH_NUMVERSION) && defined(MPIX_GPU_SUPPORT_CUDA)
  return MPIX_Query_cuda_support() == 1;  // MPICH >= 4.0
#else
  return false;
#endif
}

/// The memory and communicators of --sync=barrier's shared-memory barrier (dfg/mpi/barrier.hpp),
/// which Session::place() builds. `arrived` and `released` point into memory that the ranks of
/// this node share, each on its own cache line, zero at first; the barrier accesses them through
/// std::atomic_ref only.
struct NodeBarrier {
  std::int64_t* arrived = nullptr;   ///< the arrivals of the node's ranks, summed over the barriers
  std::int64_t* released = nullptr;  ///< the barriers every node passed (several nodes only)
  int node_ranks = 1;                ///< the ranks that share this node's counters
  int nodes = 1;                     ///< the nodes of the job
  MPI_Comm leaders = MPI_COMM_NULL;  ///< the nodes' first ranks, on those only, where nodes > 1
};

/// What main tells the Session from its command line (dfg/flags.hpp).
struct SessionOptions {
  std::string_view hostmap;  ///< --hostmap; empty: DFG_HOSTMAP if set, else host i on rank i
  bool cuda_aware = true;    ///< false: --no-cuda-aware-mpi (stage through host memory)
};

/// The flags of `options` that every rank must share (agree_run_flags()).
inline RunFlags run_flags(const Options& options) {
  RunFlags flags{options.iterations,
                 options.overlap,
                 options.sync == SyncMode::barrier,
                 {},
                 !options.migrate_control.empty()};
  for (const MigrationRequest& m : options.migrations) {
    if (!flags.migrations.empty()) flags.migrations += ' ';
    flags.migrations += m.node + ':' + m.pe + '@' + std::to_string(m.iteration);
  }
  return flags;
}

class Session {
 public:
  /// The least thread level the runtime works with (one lane).
  static constexpr int kThreadLevel = MPI_THREAD_SERIALIZED;
  /// The environment variable that sets the communication thread's lanes on every rank ("1", "2").
  static constexpr const char* kLanesEnv = "DFG_MPI_LANES";
  /// The environment variable that sets the small tokens' window ("0": none).
  static constexpr const char* kWindowEnv = "DFG_MPI_WINDOW";
  /// The environment variable that sets the largest windowed token, in bytes.
  static constexpr const char* kWindowBytesEnv = "DFG_MPI_WINDOW_BYTES";
  /// The largest token DFG_MPI_WINDOW_BYTES may window.
  static constexpr int kMaxWindowBytes = 1 << 20;
  /// The environment variable that, at "0", hands the small tokens to the comm thread too.
  static constexpr const char* kDirectEnv = "DFG_MPI_DIRECT";
  /// The environment variable that, at "ibarrier", makes --sync=barrier's barrier MPI_Ibarrier.
  static constexpr const char* kBarrierEnv = "DFG_MPI_BARRIER";
  /// The environment variable that cuts each node into nodes of at most this many ranks.
  static constexpr const char* kNodeRanksEnv = "DFG_MPI_NODE_RANKS";
  /// The window of a small token's transfer, in tokens, unless DFG_MPI_WINDOW says otherwise:
  /// the receiver holds this many receives (and buffers of the token's bytes) posted, and the
  /// sender runs at most this many tokens ahead of what the receiver took.
  static constexpr int kDefaultWindow = 8;
  static constexpr int kMaxWindow = 64;

  /// Initialises MPI (MPI_Init_thread asking for MPI_THREAD_SERIALIZED) unless it already is,
  /// and duplicates MPI_COMM_WORLD. A failure here is fatal by MPI's default error handler.
  Session(int& argc, char**& argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
      MPI_Init_thread(&argc, &argv, requested_thread_level(), &provided_);
      owns_mpi_ = true;
    } else {
      MPI_Query_thread(&provided_);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &credit_comm_);
    MPI_Comm_set_errhandler(credit_comm_, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &barrier_comm_);
    MPI_Comm_set_errhandler(barrier_comm_, MPI_ERRORS_RETURN);
    window_ = window_from_env();
    window_bytes_ = window_bytes_from_env();
    const char* direct = std::getenv(kDirectEnv);
    direct_ = provided_ >= MPI_THREAD_MULTIPLE && requested_thread_level() == MPI_THREAD_MULTIPLE &&
              !(direct != nullptr && std::string_view(direct) == "0");
    int* tag_ub = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
    tag_ub_ = found != 0 && tag_ub != nullptr ? *tag_ub : 32767;  // 32767: the standard's minimum
  }

  ~Session() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized != 0) return;
    if (barrier_win_ != MPI_WIN_NULL) MPI_Win_free(&barrier_win_);
    if (node_barrier_.leaders != MPI_COMM_NULL) MPI_Comm_free(&node_barrier_.leaders);
    if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    if (credit_comm_ != MPI_COMM_NULL) MPI_Comm_free(&credit_comm_);
    if (barrier_comm_ != MPI_COMM_NULL) MPI_Comm_free(&barrier_comm_);
    if (owns_mpi_) MPI_Finalize();
  }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  MPI_Comm comm() const noexcept { return comm_; }
  /// The communicator of the windows' credits (see the file comment).
  MPI_Comm credit_comm() const noexcept { return credit_comm_; }
  /// The communicator of the CPU worker's direct barriers (see the file comment).
  MPI_Comm barrier_comm() const noexcept { return barrier_comm_; }
  /// The window of a small token's transfer (0: none), the same on every rank after place().
  int window() const noexcept { return window_; }
  /// The largest token a transfer windows, the same on every rank after place().
  std::size_t window_bytes() const noexcept { return static_cast<std::size_t>(window_bytes_); }
  /// Whether the CPU worker makes its windowed transfers' and barriers' MPI calls itself (see the
  /// file comment).
  bool direct() const noexcept { return direct_; }
  /// The shared-memory barrier's memory (see the file comment), or null where the ranks meet by
  /// MPI_Ibarrier (DFG_MPI_BARRIER=ibarrier on some rank) or before place().
  const NodeBarrier* node_barrier() const noexcept {
    return node_barrier_.arrived != nullptr ? &node_barrier_ : nullptr;
  }
  /// How the ranks meet at --sync=barrier's barrier, in words: "shared memory (3 ranks, 1 node)",
  /// "shared memory (4 ranks, 2 nodes; MPI_Ibarrier between nodes)" or "MPI_Ibarrier".
  std::string barrier_name() const {
    if (node_barrier() == nullptr) return "MPI_Ibarrier";
    const int nodes = node_barrier_.nodes;
    return "shared memory (" + std::to_string(size_) + " ranks, " + std::to_string(nodes) +
           (nodes == 1 ? " node)" : " nodes; MPI_Ibarrier between nodes)");
  }
  /// Whether DFG_MPI_BARRIER asks for MPI_Ibarrier ("ibarrier"); anything else, or unset, asks for
  /// the shared-memory barrier.
  static bool ibarrier_from_env() noexcept {
    const char* text = std::getenv(kBarrierEnv);
    return text != nullptr && std::string_view(text) == "ibarrier";
  }
  /// DFG_MPI_NODE_RANKS's value where it is a number from 1 to 2^20, else 2^20 (no cut).
  static int node_ranks_from_env() noexcept {
    constexpr int kNoCut = 1 << 20;
    const char* text = std::getenv(kNodeRanksEnv);
    if (text == nullptr || *text == '\0') return kNoCut;
    int k = 0;
    for (const char* ch = text; *ch != '\0'; ++ch) {
      if (*ch < '0' || *ch > '9' || k > kNoCut) return kNoCut;
      k = k * 10 + (*ch - '0');
    }
    return k >= 1 && k <= kNoCut ? k : kNoCut;
  }
  /// DFG_MPI_WINDOW_BYTES's value where it is a number from 1 to kMaxWindowBytes, else
  /// kWindowMaxBytes.
  static int window_bytes_from_env() noexcept {
    const int fallback = static_cast<int>(kWindowMaxBytes);
    const char* text = std::getenv(kWindowBytesEnv);
    if (text == nullptr || *text == '\0') return fallback;
    long long b = 0;
    for (const char* ch = text; *ch != '\0'; ++ch) {
      if (*ch < '0' || *ch > '9' || b > kMaxWindowBytes) return fallback;
      b = b * 10 + (*ch - '0');
    }
    return b >= 1 && b <= kMaxWindowBytes ? static_cast<int>(b) : fallback;
  }
  /// DFG_MPI_WINDOW's value where it is "0" or an even number from 2 to kMaxWindow, else
  /// kDefaultWindow.
  static int window_from_env() noexcept {
    const char* text = std::getenv(kWindowEnv);
    if (text == nullptr) return kDefaultWindow;
    const std::string_view v(text);
    int w = 0;
    for (char ch : v) {
      if (ch < '0' || ch > '9' || w > kMaxWindow) return kDefaultWindow;
      w = w * 10 + (ch - '0');
    }
    if (v.empty() || (w != 0 && (w < 2 || w > kMaxWindow || w % 2 != 0))) return kDefaultWindow;
    return w;
  }
  /// The largest tag comm() accepts (MPI_TAG_UB; at least 32767 by the standard).
  int tag_ub() const noexcept { return tag_ub_; }
  /// The thread level MPI provided (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE).
  int thread_level() const noexcept { return provided_; }
  /// How many lanes the communication thread runs, for a rank whose traffic wants `wanted`
  /// (CommThread::wanted_lanes()): DFG_MPI_LANES's "1" or "2" where it is set, else `wanted`;
  /// 1 where MPI does not provide MPI_THREAD_MULTIPLE.
  int comm_lanes(int wanted) const noexcept {
    if (provided_ < MPI_THREAD_MULTIPLE || requested_thread_level() != MPI_THREAD_MULTIPLE)
      return 1;
    const char* lanes = std::getenv(kLanesEnv);
    if (lanes != nullptr && std::string_view(lanes) == "2") return 2;
    return wanted >= 2 ? 2 : 1;
  }
  /// The level MPI_Init_thread asks for: MPI_THREAD_SERIALIZED when DFG_MPI_LANES is "1", else
  /// MPI_THREAD_MULTIPLE.
  static int requested_thread_level() noexcept {
    const char* lanes = std::getenv(kLanesEnv);
    return lanes != nullptr && std::string_view(lanes) == "1" ? MPI_THREAD_SERIALIZED
                                                              : MPI_THREAD_MULTIPLE;
  }

  /// The index of the host this rank runs, -1 before a successful place().
  int host() const noexcept { return host_; }
  std::string_view host_name() const noexcept {
    return host_ >= 0 ? hosts_[static_cast<std::size_t>(host_)] : std::string_view();
  }
  /// The rank that runs host `host` (after a successful place()).
  int rank_of_host(int host) const noexcept {
    return placement_.rank_of_host[static_cast<std::size_t>(host)];
  }
  /// Whether transfers may pass CUDA device pointers to MPI (see the file comment).
  bool cuda_aware() const noexcept { return cuda_aware_; }
  /// The rank's communication thread (dfg/mpi/comm_thread.hpp): not running until
  /// run_mpi_worker starts it; the transfers and barriers of the cycle loop run on it.
  CommThread& comm_thread() const noexcept { return *comm_thread_; }

  /// "rank 1 (host B)", or "rank 1" before place(): how messages name this rank.
  std::string who() const { return who_of(rank_); }

  /// How messages name rank `rank`: "rank 0 (host A)", or "rank 0" before place().
  std::string who_of(int rank) const {
    std::string w = "rank " + std::to_string(rank);
    const int host = host_ >= 0 ? placement_.host_of_rank(rank) : -1;
    if (host >= 0) w += " (host " + std::string(hosts_[static_cast<std::size_t>(host)]) + ")";
    return w;
  }

  /// Collective. Places `hosts` (the architecture's, in spec order; the strings must outlive the
  /// Session) on the ranks, from options.hostmap, else the DFG_HOSTMAP environment variable, else
  /// host i on rank i; checks the thread level MPI provided and the rank count. Returns 0, or 1
  /// on every rank after the error was printed once on `err`.
  int place(std::span<const std::string_view> hosts, const SessionOptions& options,
            std::ostream& err) {
    hosts_.assign(hosts.begin(), hosts.end());
    std::string error;
    if (provided_ < kThreadLevel) {
      error =
          "error: the MPI library provides only " + thread_level_name(provided_) +
          "; this program needs MPI_THREAD_SERIALIZED (its communication thread makes the MPI calls)";
    } else {
      std::string_view text = options.hostmap;
      std::string_view source = "--hostmap";
      if (text.empty()) {
        if (const char* env = std::getenv(kHostmapEnv); env != nullptr) {
          text = env;
          source = kHostmapEnv;
        }
      }
      placement_ = place_hosts(hosts_, size_, text, source);
      error = placement_.error;
    }
    if (const int status = agree(error, err); status != 0) return status;
    // Every rank must hold the same map (an environment variable may differ between ranks):
    // the element-wise maximum of (r, -r) over the ranks gives each entry's max and -min.
    const std::size_t n = placement_.rank_of_host.size();
    std::vector<int> bounds(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      bounds[i] = placement_.rank_of_host[i];
      bounds[n + i] = -placement_.rank_of_host[i];
    }
    check(MPI_Allreduce(MPI_IN_PLACE, bounds.data(), static_cast<int>(2 * n), MPI_INT, MPI_MAX,
                        comm_),
          "MPI_Allreduce (host map)");
    int window[4] = {window_, window_bytes_, ibarrier_from_env() ? 0 : 1, node_ranks_from_env()};
    check(MPI_Allreduce(MPI_IN_PLACE, window, 4, MPI_INT, MPI_MIN, comm_),
          "MPI_Allreduce (window, barrier)");
    window_ = window[0];
    window_bytes_ = window[1];
    const bool shared_barrier = window[2] != 0;
    bool same = true;
    for (std::size_t i = 0; i < n; ++i) same = same && bounds[i] == -bounds[n + i];
    if (!same) {
      if (rank_ == 0) {
        print_line(err, "error: the ranks were given different host maps (--hostmap or " +
                            std::string(kHostmapEnv) + " must be the same on every rank)");
      }
      return 1;
    }
    host_ = placement_.host_of_rank(rank_);
    cuda_aware_ = options.cuda_aware && library_cuda_aware();
    if (shared_barrier) set_up_node_barrier(window[3]);
    return 0;
  }

  /// Collective, after a successful place(). Compares this rank's run flags with rank 0's; when
  /// some rank differs, the lowest such rank prints run_flags_error() once on `err` and every
  /// rank returns 1; otherwise 0.
  int agree_run_flags(const RunFlags& mine, std::ostream& err) {
    std::int64_t values[5] = {mine.iterations, mine.overlap ? 1 : 0, mine.barrier_sync ? 1 : 0,
                              mine.live_moves ? 1 : 0,
                              static_cast<std::int64_t>(mine.migrations.size())};
    check(MPI_Bcast(values, 5, MPI_INT64_T, 0, comm_), "MPI_Bcast (run flags)");
    std::string moves = mine.migrations;
    moves.resize(static_cast<std::size_t>(values[4]));
    if (values[4] > 0) {
      check(MPI_Bcast(moves.data(), static_cast<int>(values[4]), MPI_CHAR, 0, comm_),
            "MPI_Bcast (run flags: --migrate)");
    }
    const RunFlags first{values[0], values[1] != 0, values[2] != 0, std::move(moves),
                         values[3] != 0};
    return agree(run_flags_error(mine, who(), first, who_of(0)), err);
  }

  /// Collective, after a successful place(). Compares this rank's runtime params' values
  /// (`values`, named by `table`, as parse_flags gives them) with rank 0's; when some rank
  /// differs, the lowest such rank prints run_params_error() once on `err` and every rank
  /// returns 1; otherwise 0.
  int agree_params(std::span<const RuntimeParam> table, std::span<const std::int64_t> values,
                   std::ostream& err) {
    std::vector<std::int64_t> first(values.begin(), values.end());
    if (!first.empty()) {
      check(MPI_Bcast(first.data(), static_cast<int>(first.size()), MPI_INT64_T, 0, comm_),
            "MPI_Bcast (runtime params)");
    }
    std::vector<std::string_view> names;
    for (const RuntimeParam& p : table) names.push_back(p.name);
    return agree(run_params_error(names, values, who(), first, who_of(0)), err);
  }

  /// Collective. Every rank passes its own check's result ("" when fine); when some rank failed,
  /// the lowest failing rank prints its error on `err` (prefixed "error: <who()>: " unless it
  /// already starts with "error: ") and every rank returns 1; otherwise 0.
  int agree(std::string_view local_error, std::ostream& err) {
    const int mine = local_error.empty() ? size_ : rank_;
    int lowest = size_;
    check(MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm_),
          "MPI_Allreduce (start-up check)");
    if (lowest == size_) return 0;
    if (lowest == rank_) {
      print_line(err, local_error.substr(0, 7) == "error: "
                          ? std::string(local_error)
                          : "error: " + who() + ": " + std::string(local_error));
    }
    return 1;
  }

 private:
  /// One write, so that the launcher does not interleave the line with other ranks' output.
  static void print_line(std::ostream& err, std::string line) {
    line += '\n';
    err.write(line.data(), static_cast<std::streamsize>(line.size()));
    err.flush();
  }

  /// Collective (from place()): the node's communicator, the leaders' and the shared counters of
  /// the NodeBarrier, zeroed by the node's first rank before any rank returns; every
  /// `node_ranks_cut` ranks of a node form a node of their own (DFG_MPI_NODE_RANKS).
  void set_up_node_barrier(int node_ranks_cut) {
    MPI_Comm machine = MPI_COMM_NULL;
    check(MPI_Comm_split_type(barrier_comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &machine),
          "MPI_Comm_split_type (barrier)");
    int node_rank = 0;
    check(MPI_Comm_rank(machine, &node_rank), "MPI_Comm_rank (barrier)");
    check(MPI_Comm_split(machine, node_rank / node_ranks_cut, rank_, &node_comm_),
          "MPI_Comm_split (barrier nodes)");
    MPI_Comm_free(&machine);
    check(MPI_Comm_rank(node_comm_, &node_rank), "MPI_Comm_rank (barrier)");
    check(MPI_Comm_size(node_comm_, &node_barrier_.node_ranks), "MPI_Comm_size (barrier)");
    MPI_Comm leaders = MPI_COMM_NULL;
    check(MPI_Comm_split(barrier_comm_, node_rank == 0 ? 0 : MPI_UNDEFINED, rank_, &leaders),
          "MPI_Comm_split (barrier)");
    if (leaders != MPI_COMM_NULL)
      check(MPI_Comm_size(leaders, &node_barrier_.nodes), "MPI_Comm_size");
    check(MPI_Bcast(&node_barrier_.nodes, 1, MPI_INT, 0, node_comm_), "MPI_Bcast (barrier)");
    if (node_barrier_.nodes > 1) {
      node_barrier_.leaders = leaders;
    } else if (leaders != MPI_COMM_NULL) {
      MPI_Comm_free(&leaders);
    }
    constexpr MPI_Aint kLine = 64;  // a counter per cache line
    void* base = nullptr;
    check(MPI_Win_allocate_shared(node_rank == 0 ? 2 * kLine : 0, 1, MPI_INFO_NULL, node_comm_,
                                  &base, &barrier_win_),
          "MPI_Win_allocate_shared (barrier)");
    MPI_Aint bytes = 0;
    int unit = 0;
    check(MPI_Win_shared_query(barrier_win_, 0, &bytes, &unit, &base),
          "MPI_Win_shared_query (barrier)");
    auto* lines = static_cast<unsigned char*>(base);
    node_barrier_.arrived = reinterpret_cast<std::int64_t*>(lines);
    node_barrier_.released = reinterpret_cast<std::int64_t*>(lines + kLine);
    if (node_rank == 0) {
      std::atomic_ref<std::int64_t>(*node_barrier_.arrived).store(0);
      std::atomic_ref<std::int64_t>(*node_barrier_.released).store(0);
    }
    check(MPI_Barrier(node_comm_), "MPI_Barrier (barrier)");  // the zeros before any arrival
  }

  static std::string thread_level_name(int level) {
    if (level == MPI_THREAD_SINGLE) return "MPI_THREAD_SINGLE";
    if (level == MPI_THREAD_FUNNELED) return "MPI_THREAD_FUNNELED";
    if (level == MPI_THREAD_SERIALIZED) return "MPI_THREAD_SERIALIZED";
    return "MPI_THREAD_MULTIPLE";
  }

  bool owns_mpi_ = false;
  int provided_ = MPI_THREAD_SINGLE;
  int rank_ = 0;
  int size_ = 1;
  int tag_ub_ = 32767;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm credit_comm_ = MPI_COMM_NULL;
  MPI_Comm barrier_comm_ = MPI_COMM_NULL;
  int window_ = kDefaultWindow;
  int window_bytes_ = static_cast<int>(kWindowMaxBytes);
  bool direct_ = false;
  MPI_Comm node_comm_ = MPI_COMM_NULL;
  MPI_Win barrier_win_ = MPI_WIN_NULL;
  NodeBarrier node_barrier_;
  std::vector<std::string_view> hosts_;
  Placement placement_;
  int host_ = -1;
  bool cuda_aware_ = false;
  std::unique_ptr<CommThread> comm_thread_ = std::make_unique<CommThread>();
};

/// --trace on several hosts: the ranks' files share a time base, rank 0's epoch, so that
/// tools/merge-traces joins them into one and a transfer's two ends show on one time line.
/// Every rank but 0 measures its clock against rank 0's by round trips (NTP's way): it sends its
/// time, rank 0 answers with its own, and of kTraceRounds trips the shortest one's midpoint is
/// taken to be the instant rank 0 read its clock. The error is at most half that trip (a few
/// microseconds within a host, about a network latency between hosts), however late a rank comes
/// to it: a barrier's exit alone can be milliseconds apart on a loaded machine. A barrier after
/// the trips keeps the ranks in step.
/// Before the workers are built (a GPU's timers copy the epoch), on the main thread; nothing
/// without --trace (every rank has the same flags).
inline constexpr int kTraceRounds = 16;

template <class Tracer>
void align_trace_epochs(const Session& session, Tracer& tracer) {
  if (!tracer.enabled()) return;
  using Clock = typename Tracer::Clock;
  const int tag = 0;  // before any transfer: the program's tags are not in use yet
  auto ns = [](typename Clock::duration d) {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  };
  if (session.rank() == 0) {
    tracer.restart_epoch();  // before it answers any round trip
    for (int peer = 1; peer < session.size(); ++peer) {
      for (int round = 0; round < kTraceRounds; ++round) {
        long long ping = 0;
        check(MPI_Recv(&ping, 1, MPI_LONG_LONG, peer, tag, session.comm(), MPI_STATUS_IGNORE),
              "MPI_Recv (the trace's time base)");
        long long since_epoch = ns(Clock::now() - tracer.epoch());
        check(MPI_Send(&since_epoch, 1, MPI_LONG_LONG, peer, tag, session.comm()),
              "MPI_Send (the trace's time base)");
      }
    }
  } else {
    long long best_trip = -1;
    typename Clock::time_point epoch;  // the first round sets it
    for (int round = 0; round < kTraceRounds; ++round) {
      auto sent = Clock::now();
      long long ping = 0;
      check(MPI_Send(&ping, 1, MPI_LONG_LONG, 0, tag, session.comm()),
            "MPI_Send (the trace's time base)");
      long long since_epoch = 0;  // rank 0's clock, from its epoch
      check(MPI_Recv(&since_epoch, 1, MPI_LONG_LONG, 0, tag, session.comm(), MPI_STATUS_IGNORE),
            "MPI_Recv (the trace's time base)");
      auto got = Clock::now();
      long long trip = ns(got - sent);
      if (best_trip < 0 || trip < best_trip) {
        best_trip = trip;
        epoch = sent + (got - sent) / 2 -
                std::chrono::duration_cast<typename Clock::duration>(
                    std::chrono::nanoseconds(since_epoch));
      }
    }
    tracer.restart_epoch(epoch);
  }
  check(MPI_Barrier(session.comm()), "MPI_Barrier (the trace's time base)");
}

}  // namespace dfg::mpi
