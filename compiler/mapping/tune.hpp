/// \file
/// Mapping and tuning together: for every combination of the tunable params' values (`param
/// split = 20 in [1, 39];`, those not fixed by -D), the spec is checked again with those values,
/// the costs resolved (firing times may depend on them) and the mapping searched; the best
/// candidates of all combinations are kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mapping/costs.hpp"
#include "mapping/edits.hpp"
#include "mapping/search.hpp"
#include "sema/sema.hpp"

namespace dfgc::mapping {

struct TunedCandidate {
  /// One per tunable param, in declaration order, then one per free node with a replica range.
  std::vector<TunedValue> tuned;
  /// Its figures; the period per cycle of the app's written batch (replicas may raise the
  /// batch of the program searched). pe_of indexes the nodes of its combination's program.
  Candidate candidate;
  /// Each free node of the spec and its placement as --apply writes it (`A.c1`, `{A.c1, A.c2}`).
  std::vector<std::pair<std::string, std::string>> placed{};
};

struct TuneResult {
  std::vector<TunedCandidate> best;  ///< best first
  std::uint64_t combinations = 0;    ///< value combinations searched
  std::uint64_t rejected = 0;        ///< combinations the spec's checks refused
  /// The first of them and the first error sema gave it: "node 'f' over 2 shares: the app
  /// runs 'batch 3', but ...".
  std::string first_rejected;
  double mappings = 0;  ///< mappings per combination
  bool exact = true;
  std::uint64_t evaluated = 0;
  std::uint64_t built = 0;
  std::uint64_t loop_refused = 0;        ///< mappings left out because a loop lacks tokens
  std::optional<LoopRefusal> loop_best;  ///< the fastest of them, over every combination
  std::string loop_where;      ///< its free nodes' placements: "f @ A.c1, g @ {A.c1, A.c2}"
  std::string loop_why;        ///< its loop, described (describe(UncoveredLoop, ...))
  std::size_t free_nodes = 0;  ///< in the spec
};

inline constexpr std::uint64_t kMaxCombinations = 100000;

/// The tunable params of `program` that -D does not fix.
std::vector<const ir::Param*> tunables(const ir::Program& program, const SemaOptions& sema);

/// Searches every combination; nullopt after reporting when there are more than
/// kMaxCombinations or when resolving the costs fails.
std::optional<TuneResult> tune_and_search(const Spec& spec, const ir::Program& base,
                                          const SemaOptions& sema, const CostFile& costs,
                                          const SearchOptions& options,
                                          const SourceManager& sources, DiagnosticEngine& diags);

/// The program of one candidate: checked again with its tuned values, its mapping applied.
std::optional<ir::Program> program_for(const Spec& spec, const SemaOptions& sema,
                                       const TunedCandidate& c, const SourceManager& sources);

}  // namespace dfgc::mapping
