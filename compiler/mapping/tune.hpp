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
  std::vector<TunedValue> tuned;  ///< one per tunable param, in declaration order
  Candidate candidate;
};

struct TuneResult {
  std::vector<TunedCandidate> best;  ///< best first
  std::uint64_t combinations = 0;    ///< value combinations searched
  std::uint64_t rejected = 0;        ///< combinations the spec's checks refused
  double mappings = 0;               ///< mappings per combination
  bool exact = true;
  std::uint64_t evaluated = 0;
  std::uint64_t built = 0;
  std::uint64_t loop_refused = 0;        ///< mappings left out because a loop lacks tokens
  std::optional<LoopRefusal> loop_best;  ///< the fastest of them, over every combination
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
