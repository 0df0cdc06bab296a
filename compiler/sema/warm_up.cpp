#include "sema/warm_up.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dfgc::sema {

namespace {

/// Strongly connected parts of the graph (Tarjan, iterative): part[v] for each node.
std::vector<std::uint32_t> parts(const ir::Dfg& dfg) {
  const std::size_t n = dfg.nodes.size();
  std::vector<std::vector<ir::NodeId>> out(n);
  for (const ir::Edge& e : dfg.edges) out[e.src].push_back(e.dst);
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> index(n, kNone), low(n, 0), part(n, kNone);
  std::vector<bool> on_stack(n, false);
  std::vector<ir::NodeId> stack;
  std::uint32_t next = 0, count = 0;
  for (ir::NodeId root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    std::vector<std::pair<ir::NodeId, std::size_t>> calls{{root, 0}};
    index[root] = low[root] = next++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!calls.empty()) {
      auto& [v, i] = calls.back();
      if (i < out[v].size()) {
        const ir::NodeId w = out[v][i++];
        if (index[w] == kNone) {
          index[w] = low[w] = next++;
          stack.push_back(w);
          on_stack[w] = true;
          calls.emplace_back(w, 0);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        ir::NodeId w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          part[w] = count;
        } while (w != v);
        ++count;
      }
      const ir::NodeId done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
    }
  }
  return part;
}

}  // namespace

void compute_warm_up(ir::Program& program) {
  ir::Dfg& dfg = program.dfg;
  const std::vector<std::uint32_t> part = parts(dfg);
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
