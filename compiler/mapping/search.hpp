/// \file
/// The mapping search: where to place the free nodes of one program (pinned nodes stay), best
/// first by an objective, under optional constraints.
///
///  - exact: the heuristic's result first (a tight bound from the start), then branch and bound
///    over the free nodes in topological order, each node's candidates by increasing bound; a
///    branch is cut when the quick model's lower bound (quick_model.hpp) reaches the worst of the
///    best `alternatives + 1` found so far. Gives the optimum; among mappings of equal score, the
///    first found.
///  - heuristic: a greedy start (each free node, in topological order, where the lower bound of
///    the partial mapping is least), simulated annealing from it (moves: one node to another
///    candidate, or two nodes swapping PEs; a fixed-seed generator, a fixed number of steps: the
///    same input gives the same answer), then steepest descent over single moves.
///  - automatic: exact while the number of mappings is at most `exact_limit`.
/// Memory (after buffer sharing) needs the implementation graph: a mapping is built with the
/// passes before it may enter the list of the best when the objective is memory, or when a
/// memory bound applies (--max-memory, a GPU's capacity).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mapping/cost_model.hpp"
#include "mapping/costs.hpp"
#include "stages/stages.hpp"

namespace dfgc::mapping {

enum class Objective { period, latency, memory };

struct SearchOptions {
  Objective objective = Objective::period;
  ir::Strategy strategy = ir::Strategy::overlap;  ///< the strategy whose figures are optimised
  std::optional<std::uint32_t> max_latency_cycles;
  std::optional<double> max_latency;       ///< seconds
  std::optional<std::int64_t> max_memory;  ///< bytes on any one PE
  enum class Method { automatic, exact, heuristic };
  Method method = Method::automatic;
  std::size_t alternatives = 5;  ///< how many runners-up to keep besides the best
  double exact_limit = 1e6;
  std::uint64_t seed = 1;
  std::uint64_t annealing_steps = 0;  ///< 0: chosen from the problem's size
  PlanOptions plan = {};              ///< the mapped tokens' threshold (--mapped-tokens)
  /// Around the stages the search runs (sema of each tuning, the passes of each mapping whose
  /// implementation graph it builds): --time-passes; none when null.
  PipelineHooks* hooks = nullptr;
};

/// One mapping and its figures for the optimised strategy.
struct Candidate {
  std::vector<ir::PeId> pe_of;
  double score = 0;  ///< the objective's value (seconds, or bytes for memory)
  double period = 0;
  std::uint32_t latency_cycles = 0;
  double latency = 0;
  std::int64_t peak_memory = -1;  ///< -1 until the mapping's implementation graph is built
};

/// Orders candidates: score, then period, then latency in seconds, then in cycles, then PE
/// indices.
bool better(const Candidate& a, const Candidate& b);

/// The fastest mapping (by its loads' period) the search left out because a loop lacks initial
/// tokens under it: the numbers `dfgc map` reports.
struct LoopRefusal {
  Candidate candidate;  ///< period: what the loads alone would give
  UncoveredLoop loop;
  ir::Strategy strategy = ir::Strategy::overlap;  ///< the strategy the loop lacks tokens in
  double bound = 0;  ///< period x cycles / tokens: the period the loop allows
};

struct SearchResult {
  std::vector<Candidate> best;     ///< best first; empty when no mapping meets the constraints
  std::uint64_t loop_refused = 0;  ///< mappings left out because a loop lacks tokens
  std::optional<LoopRefusal> loop_best;  ///< the fastest of them
  bool exact = false;
  std::uint64_t evaluated = 0;  ///< mappings evaluated with the quick model
  std::uint64_t built = 0;      ///< mappings whose implementation graph was built
};

/// The number of mappings of the program's free nodes (as a double: it may be huge).
double mapping_count(const ir::Program& program);

SearchResult search(const ir::Program& program, const CostTable& costs,
                    const SearchOptions& options);

/// `program` with its mapping replaced by `pe_of`.
ir::Program with_mapping(const ir::Program& program, const std::vector<ir::PeId>& pe_of);

}  // namespace dfgc::mapping
