/// \file
/// What `dfgc map` prints: the chosen mapping as spec lines to paste, its predicted figures for
/// both strategies, the runners-up, and with --explain the resources that set the period.
#pragma once

#include <string>
#include <vector>

#include "mapping/cost_model.hpp"
#include "mapping/search.hpp"
#include "mapping/tune.hpp"

namespace dfgc::mapping {

struct Report {
  const ir::Program* program = nullptr;  ///< the chosen mapping's (tuned) program
  const Prediction* prediction = nullptr;
  const TuneResult* result = nullptr;
  const SearchOptions* options = nullptr;
  std::vector<std::string> fragment;  ///< the edited spec lines
  std::string fit;                    ///< describe_fit() of the costs, or empty
  /// The choice splits a placement written once for several nodes (a loop's, an instance's),
  /// which --apply refuses to rewrite: the lines are to paste by hand.
  bool splits = false;
};

/// "12.345 ms"
std::string format_time(double seconds);
/// "16.0 MiB"
std::string format_bytes(std::int64_t bytes);

std::string render_report(const Report& r);

/// The fastest mapping a loop ruled out, with the loop's numbers ("left out: ..."), or empty
/// when there is none or it is no faster than `chosen` (null: nothing was chosen).
std::string render_loop_refusal(const TuneResult& result, const Candidate* chosen);
/// Which resource sets each strategy's period, by how much, and the slack of the others.
std::string render_explain(const ir::Program& program, const Prediction& prediction);

/// `dfgc map --evaluate`: the figures of `program`'s own mapping as JSON, keys in a fixed order,
/// times in milliseconds rounded to the nanosecond:
///
///     {"app": ..., "arch": ...,
///      "overlap":    {"period_ms", "overhead_ms", "latency_cycles", "latency_ms", "bottleneck",
///                     "loads_ms": {resource: ms, ...}, "memory_bytes": {PE: bytes}, "fits"},
///      "no-overlap": {..., "phases_ms": [{"phase", "resource", "ms"}, ...], ...}}
std::string render_evaluation(const ir::Program& program, const Prediction& prediction,
                              const ir::PerStrategy<double>& overhead);

}  // namespace dfgc::mapping
