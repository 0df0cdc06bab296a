/// \file
/// The search's fast view of one program. It derives a mapping's transfers the way buffer
/// insertion does (the router's paths; the buffers of one output form a tree, a PE already holding
/// one is reused) without building the implementation graph, and so evaluates a mapping in
/// microseconds. Its period and latency equal the cost model's (mapping tests compare them on
/// random mappings); memory after buffer sharing needs the implementation graph. A transfer
/// between a CPU and a GPU of its host is mapped (loads.hpp) by the plan's rule
/// (plan/plan.hpp, mapped_colour()) applied to the GPU's buffer of the token alone: the
/// plan applies it to the buffer's colour, and buffer sharing may put a small token's buffer in a
/// colour with a larger or otherwise transferred one, which the plan then copies; the cost
/// model, on the implementation graph, costs that copy.
///
/// It also bounds from below every completion of a partial mapping (free nodes not yet placed),
/// for branch and bound and the greedy start:
///  - firings: each PE's load so far; the largest load any unplaced node would add to its best
///    candidate; the total (placed loads + each unplaced node's cheapest time) over the PEs;
///  - transfers: an output whose producer and consumers are all placed has its exact tree; a
///    placed consumer on another PE of a partly placed output needs one transfer into its PE,
///    which loads that GPU's H2D engine at least as much as the cheapest link into it, and the
///    producing GPU's D2H engine likewise (unless the token is small enough to be mapped);
///  - latency: the delays of the placed edges without initial tokens (an unplaced one may cost
///    nothing, an edge with a delay may only lower it).
/// A mapping under which a loop's latency exceeds its initial tokens (passes/latency.hpp) cannot
/// run: evaluate() says so, and the search leaves it out.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "mapping/loads.hpp"
#include "passes/latency.hpp"
#include "passes/routes.hpp"
#include "plan/plan.hpp"

namespace dfgc::mapping {

inline constexpr ir::PeId kUnplaced = std::numeric_limits<ir::PeId>::max();

struct QuickFigures {
  bool routable = true;       ///< every edge has a path through the links
  bool loops_covered = true;  ///< every loop carries enough initial tokens, both strategies
  /// Otherwise a loop that lacks tokens, and the strategy it lacks them in (overlap first): its
  /// L cycles with d < L tokens would let one iteration through every L / d cycles, a period of
  /// period x L / d (loop_bound) if the cycles could stretch; they cannot, so the mapping is out.
  std::optional<UncoveredLoop> uncovered;
  ir::Strategy uncovered_in = ir::Strategy::overlap;
  double loop_bound = 0;
  ir::PerStrategy<double> period{{0, 0}};
  ir::PerStrategy<std::uint32_t> latency{{0, 0}};
  double total_load = 0;  ///< sum of every resource's load (a tie-breaker for the search)
};

class QuickModel {
 public:
  /// `plan`: the mapped tokens' threshold (--mapped-tokens).
  QuickModel(const ir::Program& program, const CostTable& costs, const PlanOptions& plan = {});

  QuickFigures evaluate(const std::vector<ir::PeId>& pe_of);

  /// Lower bounds over every completion of `partial` (kUnplaced for unplaced nodes); the period
  /// is +infinity when a placed edge has no path.
  double period_bound(ir::Strategy s, const std::vector<ir::PeId>& partial);
  std::uint32_t latency_bound(ir::Strategy s, const std::vector<ir::PeId>& partial) const;

  /// The nodes in a topological order of the edges without delay (ties by node index).
  const std::vector<ir::NodeId>& order() const { return order_; }
  /// Where a node may run: its candidates, or its pinned PE.
  const std::vector<ir::PeId>& allowed(ir::NodeId n) const { return allowed_[n]; }
  bool reachable(ir::PeId from, ir::PeId to) const { return reach_[from][to]; }

 private:
  struct Output {
    ir::NodeId node = 0;
    std::uint32_t port = 0;
    std::int64_t bytes = 0;
    std::vector<ir::EdgeId> edges;  ///< its consumers, in spec order
  };
  struct Transfer {
    ir::PeId from, to;
    ir::LinkId link;
    std::int64_t bytes;
    std::uint32_t hop;
    bool mapped = false;  ///< a mapped transfer (mark_mapped())
  };
  /// The tree of `out` from its node's PE to the consumers placed in `pe_of`; sets each placed
  /// consumer edge's hop count and appends the transfers. False if a path is missing.
  bool build_tree(const Output& out, const std::vector<ir::PeId>& pe_of);
  /// Marks the mapped transfers of `out`'s tree, transfers_[first, end): between a CPU and a GPU
  /// of its host, where no other transfer of the tree touches the GPU's buffer and only ports
  /// declared `mappable` of the nodes `pe_of` puts on that GPU do (mapped_colour()).
  void mark_mapped(std::size_t first, const Output& out, const std::vector<ir::PeId>& pe_of);
  double fire_bound(const std::vector<ir::PeId>& partial) const;
  /// The PE that stands for `pe`'s memory: a host's first cpu for each of its cpus.
  ir::PeId memory_of(ir::PeId pe) const;
  /// The cheapest transfer of `bytes` into (or out of) `pe` over any of its links.
  double cheapest(ir::PeId pe, std::int64_t bytes, bool into) const;

  const ir::Program& p_;
  const CostTable& costs_;
  PlanOptions plan_;
  Router router_;
  Loads loads_;
  CoreReads core_reads_;
  std::vector<ir::NodeId> order_;
  CycleWalk walk_;                    ///< for first_cycles(), once
  std::vector<std::uint32_t> index_;  ///< index_[node]: its place in order_
  std::vector<std::vector<ir::PeId>> allowed_;
  std::vector<std::vector<bool>> reach_;
  std::vector<std::vector<const Route*>> routes_;  ///< [from][to], null when unreachable
  std::vector<Output> outputs_;
  std::vector<std::vector<ir::EdgeId>> in_edges_;
  // Scratch, reused by every evaluation.
  std::vector<Transfer> transfers_;
  std::vector<std::uint32_t> edge_hop_;
  std::vector<bool> edge_shared_;  ///< per edge: read by another cpu of the producer's host
  std::vector<std::pair<ir::PeId, std::uint32_t>> on_pe_;
};

}  // namespace dfgc::mapping
