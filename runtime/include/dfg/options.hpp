/// \file
/// dfg::Options: what a generated program's command line says (dfg/flags.hpp parses it), the
/// runtime params' table rows and a --migrate request. Data only, so that what a cycle's code
/// includes (dfg/run.hpp) does not include the parser.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace dfg {

/// One row of the program's table of runtime params (from `runtime param` in the spec).
struct RuntimeParam {
  std::string_view name;
  std::int64_t default_value = 0;
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  std::string_view help = {};
};

enum class SyncMode { neighbours, barrier };

/// The most --iterations accepts: a run has iterations plus its latency cycles, and every cycle
/// count and window end (first cycle + iterations) stays far from overflowing an int64.
inline constexpr std::int64_t kMaxIterations = std::int64_t{1} << 62;

/// --migrate NODE:PE@K; the program checks NODE and PE against its pre-generated alternatives.
struct MigrationRequest {
  std::string node;
  std::string pe;
  std::int64_t iteration = 0;  ///< the first iteration the node runs on PE
  friend bool operator==(const MigrationRequest&, const MigrationRequest&) = default;
};

struct Options {
  /// The run's iterations, counted in cycles: --iterations over `batch`.
  std::int64_t iterations = 100;
  /// The iterations one cycle runs (the app's `batch K`, given to parse_flags): --iterations is
  /// a multiple of it, and without --iterations the run has the fewest cycles that make 100.
  std::int64_t batch = 1;
  bool overlap = true;
  SyncMode sync = SyncMode::neighbours;
  std::string trace_file;  ///< empty: no trace
  bool stats = false;
  bool stats_per_item = true;   ///< false: --stats=period (no timing of each firing and transfer)
  std::string profile_file;     ///< --profile; empty: no profile
  std::string stats_json_file;  ///< --stats-json; empty: no JSON stats
  bool help = false;
  std::vector<MigrationRequest> migrations;
  std::string migrate_control;  ///< --migrate-control FILE; empty: none
  /// --rebalance[=MS]: the ms between two looks of the rebalancing policy (dfg/rebalance.hpp);
  /// 0: off.
  std::int64_t rebalance_ms = 0;
  std::string hostmap;         ///< --hostmap; empty: DFG_HOSTMAP, else host i on rank i
  bool cuda_aware_mpi = true;  ///< false: --no-cuda-aware-mpi
  bool pin_cpus = false;       ///< --pin-cpus: each PE's worker thread on a core of its own
  /// false: --no-graphs (every GPU cycle enqueued call by call, none relaunched as a CUDA graph)
  bool graphs = true;
  /// --graph-cycles: the cycles one graph holds where the plan allows several; 0: the plan's
  std::int64_t graph_cycles = 0;
  /// --checkpoint FILE (empty: none), every checkpoint_every cycles (--checkpoint-every, given
  /// in iterations); --restart FILE (empty: from iteration 0). dfg/checkpoint.hpp.
  std::string checkpoint_file;
  std::int64_t checkpoint_every = 1000;
  std::string restart_file;
  /// The runtime params' values, in the order of the table given to parse_flags.
  std::vector<std::int64_t> params;
  /// The runtime params' names, in the same order.
  std::vector<std::string> param_names;

  /// Whether the run keeps dfg::Stats (--stats, --stats-json or --profile).
  bool measures() const noexcept {
    return stats || !stats_json_file.empty() || !profile_file.empty();
  }
  /// Whether every firing and transfer is timed (--stats or --stats-json without --stats=period,
  /// or --profile).
  bool measures_items() const noexcept {
    return ((stats || !stats_json_file.empty()) && stats_per_item) || !profile_file.empty();
  }
};

}  // namespace dfg
