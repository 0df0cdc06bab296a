/// \file
/// The costs file (docs/costs.md): measured or estimated firing times, link bandwidths and
/// latencies, GPU memory capacities and the per-cycle overhead, read from JSON and resolved
/// against a checked program into the numbers the cost model uses.
///
/// Loading checks the JSON itself and its shape (located at the offending key); resolving checks
/// every name against the program (unknown actors, nodes, PEs, links, params) and that every node
/// has a firing time on every PE it may run on.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ig.hpp"
#include "mapping/cost_expr.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::mapping {

/// The bounds of a costs file's numbers (docs/costs.md): a firing time, a cost per unit of a param
/// and the cycle overhead are at most a day; a link's bandwidth is from a byte per second to
/// 10^15 bytes per second and its latency at most a day; a PE's memory is at most 2^60 bytes. So
/// every figure the model adds up stays finite.
inline constexpr double kMaxFiringMs = 86'400'000;
inline constexpr double kMinBandwidthGBs = 1e-9;
inline constexpr double kMaxBandwidthGBs = 1e6;
inline constexpr double kMaxLatencyUs = 86'400'000'000;
inline constexpr double kMaxMemoryGiB = 1073741824;

/// One firing-time entry: `ms` (a number or a formula over the actor's params) plus, for each
/// param in `per`, its value times the milliseconds per unit.
struct FiringCost {
  CostExpr ms = CostExpr::constant(0);
  std::vector<std::pair<std::string, double>> per;
  /// An actor entry's coefficients to fit (`"fit": ["c_open", "c_pass"]`): names of its formula
  /// that are not params, found by least squares from the node measurements (fit_costs()).
  std::vector<std::string> fit;
  /// A node entry's param values when it was measured (`"at": {"last": 28}`); the entry then
  /// stands for the node only while its params have these values. Absent: always.
  std::optional<std::vector<std::pair<std::string, double>>> at;
  SourceLoc loc;     ///< the entry's key
  SourceLoc ms_loc;  ///< the formula's opening quote, when `ms` is a formula
};

/// A link override; either field may be absent (the spec's value is kept).
struct LinkOverride {
  std::optional<double> bandwidth;  ///< bytes per second
  std::optional<double> latency;    ///< seconds
  SourceLoc loc;
};

/// What one or more costs files say, names unresolved. Maps are keyed by name so iteration is in
/// name order (deterministic).
struct CostFile {
  std::uint32_t file = 0;  ///< the first file (where errors about the whole are reported)
  /// actor -> (PE kind "cpu"/"gpu" or PE name "A.g0") -> cost.
  std::map<std::string, std::map<std::string, FiringCost>> actors;
  std::map<std::string, SourceLoc> actor_locs;
  /// node -> PE name -> its measurements, in file order (what profiles measure). The last one
  /// whose `at` matches the node's params is its firing time; all of them feed fit_costs().
  std::map<std::string, std::map<std::string, std::vector<FiringCost>>> nodes;
  std::map<std::string, SourceLoc> node_locs;
  /// "A.cpu <-> A.g0" (both directions) or "A.cpu -> A.g0" (that direction).
  std::map<std::string, LinkOverride> links;
  /// A mapped token's host copy by the CPU end of a link, keyed as `links` (docs/costs.md).
  std::map<std::string, LinkOverride> host_copies;
  /// host name -> a core's read of a block another core of the host wrote (docs/costs.md).
  std::map<std::string, LinkOverride> cores;
  /// PE name -> memory capacity in bytes.
  std::map<std::string, std::pair<std::int64_t, SourceLoc>> memory;
  /// PE name -> its kind, as the file says (`"pes": {"A.c4": {"kind": "cpu"}}`, which a profile
  /// writes): the file's figures on a PE the architecture lacks are then another machine's, and
  /// its nodes' times there count for the architecture's PEs of that kind.
  std::map<std::string, std::pair<ir::PeKind, SourceLoc>> kinds;
  /// profile.host: the file is one rank's profile of a run on several hosts ("" otherwise).
  std::string profile_host;
  SourceLoc profile_host_loc;                ///< where the file says it
  ir::PerStrategy<double> overhead{{0, 0}};  ///< seconds per cycle
  ir::PerStrategy<bool> overhead_given{{false, false}};
  /// The fitted coefficients (fit_costs()), in milliseconds per unit of what they multiply.
  std::map<std::string, double> coefficients;
};

/// Reads and checks the JSON of `path` (loaded into `sources` so that diagnostics quote it):
/// load_json_file() (json_document.hpp), then read_costs().
std::optional<CostFile> load_costs(const std::string& path, SourceManager& sources,
                                   DiagnosticEngine& diags);
/// Checks the JSON of `file`, a file of `sources`, and reads it.
std::optional<CostFile> read_costs(std::uint32_t file, const SourceManager& sources,
                                   DiagnosticEngine& diags);

/// Adds `later` to `into`: node measurements accumulate; an actor's entry for a PE or kind, a
/// link, a PE's memory and a strategy's overhead that `later` gives replace `into`'s (a profile
/// given after an estimate overrides it). Two ranks' profiles of a run on several hosts (both
/// with a profile_host) merge in either order: the smaller overhead, a link's slower figures.
void merge_costs(CostFile& into, CostFile later);

/// A link direction's figures: direction 0 is a -> b, 1 is b -> a.
struct LinkCost {
  double bandwidth = 0;  ///< bytes per second
  double latency = 0;    ///< seconds
};

/// A core's read of a block another core of its host wrote, where the costs file gives no figure
/// (docs/costs.md, `cores`): measured with FMRadio's mappings on the 16 cores of an Intel Xeon
/// host (bench/streamit/edges).
inline constexpr double kCoreReadLatency = 30e-9;
inline constexpr double kCoreReadBandwidth = 2e9;

/// The numbers of one program.
struct CostTable {
  /// [node][pe]: the firing time in seconds; nullopt where the node may not run.
  std::vector<std::vector<std::optional<double>>> firing;
  std::vector<std::array<LinkCost, 2>> links;  ///< per LinkId, per direction
  /// Per LinkId, per direction: a mapped token's host copy by the link's CPU end (no figure:
  /// bandwidth infinite, latency 0; empty: every copy costs nothing).
  std::vector<std::array<LinkCost, 2>> host_copies;
  std::vector<std::optional<std::int64_t>> capacity;  ///< per PE: memory capacity in bytes
  /// Per host: a core's read, each cycle, of a block that another core of the host wrote
  /// (kCoreRead* unless the file says otherwise; empty: every read costs nothing).
  std::vector<LinkCost> core_reads;
  ir::PerStrategy<double> overhead{{0, 0}};  ///< seconds per cycle

  /// The time to move `bytes` over `link` from PE `from`.
  double transfer_time(const ir::ArchGraph& arch, ir::LinkId link, ir::PeId from,
                       std::int64_t bytes) const;
  /// The time of a mapped token's host copy of `bytes` between the ends of `link`, from `from`.
  double host_copy_time(const ir::ArchGraph& arch, ir::LinkId link, ir::PeId from,
                        std::int64_t bytes) const;
  /// The time a kernel spends reading (or writing) a mapped token of `bytes` over `link` in the
  /// direction from `from`: the bytes at the link's bandwidth, no per-transfer latency.
  double mapped_read_time(const ir::ArchGraph& arch, ir::LinkId link, ir::PeId from,
                          std::int64_t bytes) const;
  /// The time cpu `pe` spends reading `bytes` that another cpu of its host wrote.
  double core_read_time(const ir::ArchGraph& arch, ir::PeId pe, std::int64_t bytes) const;
};

/// Resolves `costs` for `program`. A node may run on its PE, or on each of its candidates if it
/// is free; each of those needs a firing time: the node's measurement on that PE, else the
/// actor's entry for that PE, else the mean of the node's measurements on the other PEs of its
/// kind (the architecture's, or those of another machine the file names in `pes`), else the
/// actor's entry for its kind. Reports every problem; returns nullopt if there was one.
std::optional<CostTable> resolve_costs(const CostFile& costs, const ir::Program& program,
                                       DiagnosticEngine& diags);

}  // namespace dfgc::mapping
