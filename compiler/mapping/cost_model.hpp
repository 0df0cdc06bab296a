/// \file
/// The cost model: what a mapping's implementation graph (built by the passes) will cost per
/// cycle, for both strategies. Period as loads.hpp states it; latency in cycles is the largest
/// input latency of any node (its first firing on valid tokens), and in seconds (cycles + 1) *
/// period: an iteration enters at the start of cycle 0 and its last firing ends with cycle L.
/// Memory per PE is the implementation graph's, after buffer sharing. Delay-line copies and the
/// time to launch work are not modelled apart: the measured cycle overhead covers them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mapping/loads.hpp"
#include "plan/plan.hpp"

namespace dfgc::mapping {

struct StrategyPrediction {
  double period = 0;  ///< seconds
  std::uint32_t latency_cycles = 0;
  double latency = 0;                ///< seconds
  std::vector<Resource> resources;   ///< overlap: every loaded resource
  std::vector<Resource> phases;      ///< no overlap: each step's busiest resource, then firing
  std::vector<std::int64_t> memory;  ///< per PE, bytes after buffer sharing
  std::int64_t peak_memory = 0;      ///< the largest of `memory`
  std::vector<ir::PeId> overflows;   ///< PEs whose memory exceeds their capacity
};

using Prediction = ir::PerStrategy<StrategyPrediction>;

/// The figures of `program`'s mapping, whose implementation graph is `ig`; the transfers the
/// plan maps under `plan` (--mapped-tokens) are costed as mapped ones (loads.hpp).
Prediction predict(const ir::Program& program, const ir::Ig& ig, const CostTable& costs,
                   const PlanOptions& plan = {});

}  // namespace dfgc::mapping
