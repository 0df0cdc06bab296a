// The chain as a Taskflow pipeline: H + 2 serial pipes (the source, the stages, the sink) of a
// tf::ScalablePipeline (the number of pipes is known at run time only), --lines lines, each line's
// token in a buffer of its own as Taskflow's pipelines keep their data; the executor has --threads
// workers (the main thread only waits).
#include <functional>
#include <vector>

#include <taskflow/algorithm/pipeline.hpp>
#include <taskflow/taskflow.hpp>

#include "stages.hpp"

namespace peers {

double run_taskflow_pipeline(const Options& o, Stages& stages, Checker& sink) {
  tf::Executor executor(static_cast<std::size_t>(o.threads));
  tf::Taskflow taskflow;
  std::vector<Token> line(static_cast<std::size_t>(o.lines));
  using Pipe = tf::Pipe<std::function<void(tf::Pipeflow&)>>;
  std::vector<Pipe> pipes;
  pipes.emplace_back(tf::PipeType::SERIAL, [&](tf::Pipeflow& pf) {
    if (static_cast<std::int64_t>(pf.token()) == o.tokens) {
      pf.stop();
      return;
    }
    line[pf.line()] = source_token(static_cast<std::int64_t>(pf.token()));
  });
  for (std::size_t i = 1; i <= static_cast<std::size_t>(o.hops); ++i) {
    pipes.emplace_back(tf::PipeType::SERIAL, [&, i](tf::Pipeflow& pf) {
      line[pf.line()] = stages.fire(i, line[pf.line()]);
    });
  }
  pipes.emplace_back(tf::PipeType::SERIAL, [&](tf::Pipeflow& pf) { sink.take(line[pf.line()]); });
  tf::ScalablePipeline<std::vector<Pipe>::iterator> pipeline(static_cast<std::size_t>(o.lines),
                                                             pipes.begin(), pipes.end());
  taskflow.composed_of(pipeline);

  const auto start = Clock::now();
  executor.run(taskflow).wait();
  return seconds_since(start);
}

}  // namespace peers
