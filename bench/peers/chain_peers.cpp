// The peers chain's driver (README.md beside this file): runs one peer's stream --reps times after
// a short untimed warm-up (the threads' start, the GPU's first launches) and prints one line,
// chain.hpp's result_line(), or for a peer built without its library `peer=NAME skipped: ...`
// (exit 0).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "stages.hpp"

namespace {

constexpr const char* kUsage =
    "usage: chain_peers --peer NAME [--tokens N] [--hops H] [--reps R] [--threads T] [--lines L] [--gpu]\n"
    "  NAME: loop, tbb_function_node, tbb_lightweight, taskflow_pipeline\n"
    "  --gpu: the odd stages on the GPU (a build with PEERS_CUDA=ON); --lines: Taskflow's lines\n";

struct Peer {
  const char* name;
  peers::Runner run;    // null where the program was built without the peer's library
  const char* missing;  // then: why
};

const std::vector<Peer>& known() {
  static const std::vector<Peer> all = {
      {"loop", peers::run_loop, ""},
#ifdef PEERS_HAVE_TBB
      {"tbb_function_node", peers::run_tbb_function_node, ""},
      {"tbb_lightweight", peers::run_tbb_lightweight, ""},
#else
      {"tbb_function_node", nullptr,
       "built without oneTBB (no TBB headers and libtbb under PEERS_DEPS or the system)"},
      {"tbb_lightweight", nullptr,
       "built without oneTBB (no TBB headers and libtbb under PEERS_DEPS or the system)"},
#endif
#ifdef PEERS_HAVE_TASKFLOW
      {"taskflow_pipeline", peers::run_taskflow_pipeline, ""},
#else
      {"taskflow_pipeline", nullptr,
       "built without Taskflow (no taskflow/taskflow.hpp under TASKFLOW_INCLUDE_DIR)"},
#endif
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    peers::Options o = peers::parse(argc, argv, kUsage);
    if (o.peer == "loop") o.threads = 1;  // the floor runs on the calling thread alone
    const Peer* peer = nullptr;
    for (const Peer& p : known()) {
      if (o.peer == p.name) peer = &p;
    }
    if (peer == nullptr)
      throw std::invalid_argument("--peer: unknown peer '" + o.peer + "'\n" + kUsage);
    if (peer->run == nullptr) {
      std::printf("peer=%s skipped: %s\n", peer->name, peer->missing);
      return 0;
    }
    peers::Stages stages(o);
    peers::Options warmup = o;
    warmup.tokens = std::min<std::int64_t>(o.tokens, 1000);
    peers::Checker warmup_sink(o.hops);
    peer->run(warmup, stages, warmup_sink);

    std::vector<double> seconds;
    std::string failure;
    for (int r = 0; r < o.reps; ++r) {
      peers::Checker sink(o.hops);
      seconds.push_back(peer->run(o, stages, sink));
      if (failure.empty()) failure = sink.verdict(o.tokens);
    }
    std::printf("%s\n", peers::result_line(o, peer->name, seconds, failure).c_str());
    return failure.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chain_peers: error: %s\n", e.what());
    return 2;
  }
}
