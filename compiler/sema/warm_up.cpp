#include "sema/warm_up.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dfgc::sema {

void compute_warm_up(ir::Program& program) {
  ir::Dfg& dfg = program.dfg;
  const std::vector<std::uint32_t> part = dfg.loop_parts();
  // Monotone in every node's count; around a loop its rates are balanced, so the counts settle
  // within a few rounds of its length. The bound only guards against a loop that never settles.
  const std::size_t rounds = 2 * dfg.nodes.size() + 2;
  for (std::size_t round = 0; round < rounds; ++round) {
    bool changed = false;
    for (ir::NodeId v = 0; v < dfg.nodes.size(); ++v) {
      ir::Node& node = dfg.nodes[v];
      std::uint64_t warm_up = 0;
      std::vector<ir::Node::WarmUpInput> inputs;
      for (ir::EdgeId id : dfg.in_edges(v)) {
        const ir::Edge& e = dfg.edges[id];
        const ir::Port& in = dfg.actor_of(v).ports[e.dst_port];
        const ir::Port& out = dfg.actor_of(e.src).ports[e.src_port];
        if (in.fifo_elem) continue;  // a dynamic actor's ring: no firings to count
        std::uint64_t before = dfg.nodes[e.src].warm_up * out.rate;
        if (part[e.src] != part[v])  // a loop's initial tokens and windows are its state
          before +=
              in.history + std::uint64_t{e.delay} * node.repetitions * in.rate + e.delay_tokens;
        if (before == 0) continue;
        inputs.push_back({e.dst_port, before});
        warm_up = std::max(warm_up, (before + in.rate - 1) / in.rate);
      }
      changed = changed || warm_up != node.warm_up || inputs != node.warm_up_inputs;
      node.warm_up = warm_up;
      node.warm_up_inputs = std::move(inputs);
    }
    if (!changed) return;
  }
}

}  // namespace dfgc::sema
