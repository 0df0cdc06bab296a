// The chain as a oneTBB flow graph: an input_node, H serial function_nodes, a sequencer_node and a
// serial sink function_node in a line, tokens passed by value; once with the default policy
// (queueing: each message a task), once with queueing_lightweight (a node with free concurrency
// runs its body on the thread that put the message). A flow graph does not keep the order of the
// messages between serial nodes (a task bypassed to one thread may overtake one queued on
// another): the sequencer_node, the flow graph's way, gives them back to the sink in order. The
// scheduler's threads are limited to --threads (the main thread, which waits for the graph, counts
// as one of them).
#include <memory>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/global_control.h>

#include "stages.hpp"

namespace peers {
namespace {

template <typename Policy>
double run_graph(const Options& o, Stages& stages, Checker& sink) {
  namespace flow = tbb::flow;
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(o.threads));
  flow::graph g;
  std::int64_t next = 0;
  flow::input_node<Token> source(g, [&](tbb::flow_control& control) {
    if (next == o.tokens) {
      control.stop();
      return Token{};
    }
    return source_token(next++);
  });
  std::vector<std::unique_ptr<flow::function_node<Token, Token, Policy>>> nodes;
  for (std::size_t i = 1; i <= static_cast<std::size_t>(o.hops); ++i) {
    nodes.push_back(std::make_unique<flow::function_node<Token, Token, Policy>>(
        g, flow::serial, [&stages, i](const Token& t) { return stages.fire(i, t); }));
  }
  const auto check = [&sink](const Token& t) {
    sink.take(t);
    return flow::continue_msg();
  };
  flow::function_node<Token, flow::continue_msg, Policy> last(g, flow::serial, check);
  flow::make_edge(source, *nodes.front());
  for (std::size_t i = 1; i < nodes.size(); ++i) flow::make_edge(*nodes[i - 1], *nodes[i]);
  // Token k leaves the last stage holding k + hops in element 0.
  flow::sequencer_node<Token> order(
      g, [&o](const Token& t) { return static_cast<std::size_t>(t.v[0] - o.hops); });
  flow::make_edge(*nodes.back(), order);
  flow::make_edge(order, last);

  const auto start = Clock::now();
  source.activate();
  g.wait_for_all();
  return seconds_since(start);
}

}  // namespace

double run_tbb_function_node(const Options& o, Stages& stages, Checker& sink) {
  return run_graph<tbb::flow::queueing>(o, stages, sink);
}

double run_tbb_lightweight(const Options& o, Stages& stages, Checker& sink) {
  return run_graph<tbb::flow::queueing_lightweight>(o, stages, sink);
}

}  // namespace peers
