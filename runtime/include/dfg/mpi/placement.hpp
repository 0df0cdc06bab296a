/// \file
/// dfg::mpi placement: which MPI rank runs which host of the architecture, and the start-up
/// checks whose messages every rank must agree on. Pure functions, no MPI: dfg/mpi/session.hpp
/// calls them with the communicator's size and prints their errors once for the whole job.
///
///     host i of the architecture is rank i            (the default)
///     --hostmap A=1,B=0   or   DFG_HOSTMAP=A=1,B=0    (an override: every host exactly once,
///                                                      every rank in [0, ranks), no rank twice)
///
/// The ranks must also be started with the same run flags (--iterations, --no-overlap, --sync):
/// a rank that runs other cycles than its peers would wait forever for their messages.
/// run_flags_error() says how one rank's flags differ from rank 0's, run_params_error() how its
/// runtime params do (they size the tokens that the ranks send each other).
///
/// Guarantees: pure functions of their arguments; thread-safe; they allocate (start-up only) and
/// never throw except std::bad_alloc. An error is one line that starts with "error: " and names
/// its source (`--hostmap`, `DFG_HOSTMAP`) and the offending entry.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace dfg::mpi {

/// The environment variable that overrides the default placement when --hostmap is not given.
inline constexpr const char* kHostmapEnv = "DFG_HOSTMAP";

/// The result of placing the hosts: rank_of_host[i] is the rank that runs host i.
struct Placement {
  std::vector<int> rank_of_host;
  std::string error;  ///< "error: ..." (one line) when the placement is invalid
  bool ok() const noexcept { return error.empty(); }

  /// The host that `rank` runs, or -1 when it runs none.
  int host_of_rank(int rank) const noexcept {
    for (std::size_t i = 0; i < rank_of_host.size(); ++i) {
      if (rank_of_host[i] == rank) return static_cast<int>(i);
    }
    return -1;
  }
};

namespace detail {

inline std::string host_list(std::span<const std::string_view> hosts) {
  std::string s;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (i > 0) s += ", ";
    s += hosts[i];
  }
  return s;
}

inline std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

inline std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace detail

/// "" when `ranks` MPI ranks can run `hosts`, else the one-line error, e.g.
///   error: this program runs 2 hosts (A, B) and needs exactly 2 MPI ranks; mpirun started 3
inline std::string rank_count_error(std::span<const std::string_view> hosts, int ranks) {
  if (ranks == static_cast<int>(hosts.size())) return {};
  const std::size_t n = hosts.size();
  return "error: this program runs " + std::to_string(n) + (n == 1 ? " host (" : " hosts (") +
         detail::host_list(hosts) + ") and needs exactly " + std::to_string(n) +
         (n == 1 ? " MPI rank" : " MPI ranks") + "; mpirun started " + std::to_string(ranks);
}

/// Places `hosts` on `ranks` MPI ranks. `hostmap` is the override text (`A=1,B=0`; empty: host i
/// is rank i) and `source` names where it came from, for messages ("--hostmap", "DFG_HOSTMAP").
/// Checks the rank count first (rank_count_error), then the map: syntax, known hosts, every host
/// exactly once, ranks in range, no rank twice.
inline Placement place_hosts(std::span<const std::string_view> hosts, int ranks,
                             std::string_view hostmap, std::string_view source = "--hostmap") {
  Placement p;
  if (std::string e = rank_count_error(hosts, ranks); !e.empty()) {
    p.error = std::move(e);
    return p;
  }
  p.rank_of_host.resize(hosts.size());
  if (detail::trim(hostmap).empty()) {
    for (std::size_t i = 0; i < hosts.size(); ++i) p.rank_of_host[i] = static_cast<int>(i);
    return p;
  }
  const std::string src(source);
  auto fail = [&p, &src](std::string why) {
    p.rank_of_host.clear();
    p.error = "error: " + src + ": " + why;
    return p;
  };
  std::vector<int> rank_of_host(hosts.size(), -1);
  std::vector<int> host_of_rank(static_cast<std::size_t>(ranks), -1);
  std::string_view rest = hostmap;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view entry = detail::trim(rest.substr(0, comma));
    const auto eq = entry.find('=');
    const std::string_view name =
        eq == std::string_view::npos ? entry : detail::trim(entry.substr(0, eq));
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : detail::trim(entry.substr(eq + 1));
    if (eq == std::string_view::npos || name.empty() || value.empty()) {
      return fail("expected HOST=RANK[,HOST=RANK...], got " +
                  detail::quoted(entry.empty() ? hostmap : entry));
    }
    std::size_t host = hosts.size();
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      if (hosts[i] == name) host = i;
    }
    if (host == hosts.size()) {
      return fail("unknown host " + detail::quoted(name) + " (hosts: " + detail::host_list(hosts) +
                  ")");
    }
    if (rank_of_host[host] >= 0) return fail("host " + detail::quoted(name) + " is given twice");
    int rank = -1;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), rank);
    if (ec != std::errc() || ptr != value.data() + value.size()) {
      return fail(std::string(name) + ": expected a rank (an integer), got " +
                  detail::quoted(value));
    }
    if (rank < 0 || rank >= ranks) {
      return fail(std::string(name) + "=" + std::string(value) +
                  ": rank out of range (mpirun started " + std::to_string(ranks) +
                  (ranks == 1 ? " rank: 0)" : " ranks: 0.." + std::to_string(ranks - 1) + ")"));
    }
    if (host_of_rank[static_cast<std::size_t>(rank)] >= 0) {
      return fail(
          "rank " + std::to_string(rank) + " is given to both " +
          std::string(
              hosts[static_cast<std::size_t>(host_of_rank[static_cast<std::size_t>(rank)])]) +
          " and " + std::string(name));
    }
    rank_of_host[host] = rank;
    host_of_rank[static_cast<std::size_t>(rank)] = static_cast<int>(host);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (rank_of_host[i] < 0) {
      return fail("host " + detail::quoted(hosts[i]) +
                  " has no rank (every host needs one: " + detail::host_list(hosts) + ")");
    }
  }
  p.rank_of_host = std::move(rank_of_host);
  return p;
}

/// The run flags every rank must share (dfg/flags.hpp's Options).
struct RunFlags {
  std::int64_t iterations = 0;  ///< --iterations
  bool overlap = true;          ///< false: --no-overlap
  bool barrier_sync = false;    ///< --sync=barrier
  /// The --migrate requests as given, "NODE:PE@K" each, space-separated ("" for none): ranks
  /// that would switch at different iterations wait for each other's tokens for ever.
  std::string migrations = {};
  /// Whether --migrate-control was given: with it, every rank takes part in the agreement on
  /// live moves (rank 0 reads the file, the others answer), so every rank needs it. The files
  /// may differ: only rank 0's is read.
  bool live_moves = false;
};

namespace detail {
inline constexpr std::string_view kRunFlagsNeeded =
    "; every rank needs the same --iterations, --no-overlap, --sync, --migrate and "
    "--migrate-control";
}  // namespace detail

/// "" when `mine`, the flags of rank `me` ("rank 1 (host B)"), are `first`'s, the flags of rank 0
/// (`first_who`), else the one-line error naming the first flag that differs, e.g.
///   error: rank 1 (host B) was started with --iterations 50, rank 0 (host A) with 100; every
///   rank needs the same --iterations, --no-overlap, --sync, --migrate and --migrate-control
inline std::string run_flags_error(const RunFlags& mine, std::string_view me, const RunFlags& first,
                                   std::string_view first_who) {
  std::string mine_text, first_text;
  auto moves = [](const std::string& m) { return m.empty() ? "no --migrate" : "--migrate " + m; };
  if (mine.iterations != first.iterations) {
    mine_text = "with --iterations " + std::to_string(mine.iterations);
    first_text = "with " + std::to_string(first.iterations);
  } else if (mine.overlap != first.overlap) {
    mine_text = mine.overlap ? "without --no-overlap" : "with --no-overlap";
    first_text = first.overlap ? "without it" : "with it";
  } else if (mine.barrier_sync != first.barrier_sync) {
    mine_text = mine.barrier_sync ? "with --sync=barrier" : "with --sync=neighbours";
    first_text = first.barrier_sync ? "with --sync=barrier" : "with --sync=neighbours";
  } else if (mine.migrations != first.migrations) {
    mine_text = "with " + moves(mine.migrations);
    first_text = "with " + moves(first.migrations);
  } else if (mine.live_moves != first.live_moves) {
    mine_text = mine.live_moves ? "with --migrate-control" : "without --migrate-control";
    first_text = first.live_moves ? "with it" : "without it";
  } else {
    return {};
  }
  return "error: " + std::string(me) + " was started " + mine_text + ", " + std::string(first_who) +
         " " + first_text + std::string(detail::kRunFlagsNeeded);
}

/// "" when `mine`, the runtime params' values of rank `me`, are `first`'s, the values of rank 0
/// (`first_who`), else the one-line error naming the first param that differs (`names` in the
/// order of the values), e.g.
///   error: rank 1 (host B) was started with N=128, rank 0 (host A) with N=256; every rank needs
///   the same runtime params (--set, --params)
inline std::string run_params_error(std::span<const std::string_view> names,
                                    std::span<const std::int64_t> mine, std::string_view me,
                                    std::span<const std::int64_t> first,
                                    std::string_view first_who) {
  for (std::size_t i = 0; i < names.size() && i < mine.size() && i < first.size(); ++i) {
    if (mine[i] == first[i]) continue;
    const std::string name(names[i]);
    return "error: " + std::string(me) + " was started with " + name + "=" +
           std::to_string(mine[i]) + ", " + std::string(first_who) + " with " + name + "=" +
           std::to_string(first[i]) +
           "; every rank needs the same runtime params (--set, --params)";
  }
  return {};
}

/// One GPU that a host's PEs use: its spec name ("B.g1") and its CUDA device ordinal.
struct GpuUse {
  std::string_view name;
  int ordinal = 0;
};

/// "" when every GPU in `used` is a device of this machine (`device_count`, from
/// cudaGetDeviceCount), else the reason, without the "error: rank R (host H): " prefix that
/// Session::agree() adds, e.g.
///   B.g1 is CUDA device 1, but this machine has 1 CUDA device (ordinal 0)
inline std::string gpu_ordinals_error(std::span<const GpuUse> used, int device_count) {
  for (const GpuUse& g : used) {
    if (g.ordinal >= 0 && g.ordinal < device_count) continue;
    std::string has;
    if (device_count <= 0)
      has = "no CUDA device";
    else if (device_count == 1)
      has = "1 CUDA device (ordinal 0)";
    else
      has = std::to_string(device_count) + " CUDA devices (ordinals 0.." +
            std::to_string(device_count - 1) + ")";
    return std::string(g.name) + " is CUDA device " + std::to_string(g.ordinal) +
           ", but this machine has " + has;
  }
  return {};
}

}  // namespace dfg::mpi
