// Random mapping problems for the mapping tests and benchmark, the same for a given seed:
//   RandomProblem r = random_problem({.nodes = 12, .pes = 5, .seed = 7});
//   search(r.program, r.costs, options);
// Hosts of one CPU and up to three GPUs (PCIe to their CPU, NVLink between GPUs of a host), the
// CPUs joined in a chain by the network. A source pinned on the first CPU, a sink on the last,
// every other node free on every PE. Node i reads node i - 1 and sometimes an earlier node; tokens
// of 1 to 8 MiB (PCIe 12 GB/s, NVLink 50 GB/s, network 1.25 GB/s); the pinned nodes fire in 1 ms,
// the free ones in 4 to 12 ms on a GPU and 2 to 4 times that on a CPU.
#pragma once

#include <cstdint>
#include <string>

#include "mapping/costs.hpp"
#include "passes/program_builder.hpp"

namespace dfgc::test {

struct RandomSpec {
  int nodes = 10;
  int pes = 4;
  std::uint64_t seed = 1;
  int gpus_per_host = 2;  ///< at most; a host's GPUs come before the next host is made
  int token_log2 = 20;    ///< the smallest token is 2^token_log2 bytes, the largest 8 times that
};

struct RandomProblem {
  ir::Program program;
  mapping::CostTable costs;
};

class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
  std::uint32_t next() {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(s_ >> 33);
  }
  int in(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<std::uint32_t>(hi - lo + 1));
  }

 private:
  std::uint64_t s_;
};

inline RandomProblem random_problem(const RandomSpec& spec) {
  Lcg rng(spec.seed);
  ProgramBuilder b("random");
  for (int t = 0; t < 4; ++t)
    b.type("T" + std::to_string(t), ir::ElemType::u8, std::int64_t{1} << (spec.token_log2 + t));
  std::vector<std::string> hosts;
  int pes = 0;
  while (pes < spec.pes) {
    int gpus = std::min(spec.gpus_per_host, spec.pes - pes - 1);
    std::string host = "H" + std::to_string(hosts.size());
    b.host(host, gpus, 12e9);
    for (int g = 1; g < gpus; ++g)
      b.link(host + ".g0", host + ".g" + std::to_string(g), ir::LinkKind::nvlink, 50e9);
    if (!hosts.empty()) b.link(hosts.back() + ".cpu", host + ".cpu", ir::LinkKind::net, 1.25e9);
    hosts.push_back(host);
    pes += 1 + gpus;
  }
  // Two ports in three declared `mappable`, drawn apart so that the rest of the problem is the same
  // as without them.
  Lcg touch(spec.seed + 7919);
  auto attribute = [&] { return touch.in(0, 2) == 0 ? std::string() : std::string(" mappable"); };
  std::vector<int> type_of(static_cast<std::size_t>(spec.nodes));
  for (auto& t : type_of) t = rng.in(0, 3);
  // Second inputs are typed after their producer: decide them first.
  std::vector<int> second(static_cast<std::size_t>(spec.nodes), -1);
  for (int n = 2; n < spec.nodes; ++n)
    if (rng.in(0, 2) == 0) second[static_cast<std::size_t>(n)] = rng.in(0, n - 2);
  for (int n = 0; n < spec.nodes; ++n) {
    int inputs = n == 0 ? 0 : (second[static_cast<std::size_t>(n)] >= 0 ? 2 : 1);
    std::string ports;
    if (inputs >= 1)
      ports += "in T" + std::to_string(type_of[static_cast<std::size_t>(n - 1)]) + " a" +
               attribute() + ";";
    if (inputs >= 2)
      ports +=
          "in T" +
          std::to_string(type_of[static_cast<std::size_t>(second[static_cast<std::size_t>(n)])]) +
          " b" + attribute() + ";";
    if (n + 1 < spec.nodes)
      ports +=
          "out T" + std::to_string(type_of[static_cast<std::size_t>(n)]) + " o" + attribute() + ";";
    std::string name = "A" + std::to_string(n);
    b.actor(name, ports);
    std::string on = n + 1 < spec.nodes ? hosts.front() + ".cpu" : hosts.back() + ".cpu";
    b.node("n" + std::to_string(n), name, on);
  }
  for (int n = 1; n < spec.nodes; ++n) {
    b.edge("n" + std::to_string(n - 1) + ".o", "n" + std::to_string(n) + ".a");
    if (second[static_cast<std::size_t>(n)] >= 0)
      b.edge("n" + std::to_string(second[static_cast<std::size_t>(n)]) + ".o",
             "n" + std::to_string(n) + ".b");
  }
  RandomProblem r;
  r.program = b.build();
  ir::Program& p = r.program;
  const std::size_t pe_count = p.arch.pes.size();
  for (int n = 1; n + 1 < spec.nodes; ++n) {
    auto& c = p.dfg.nodes[static_cast<std::size_t>(n)].candidates;
    for (ir::PeId pe = 0; pe < pe_count; ++pe) c.push_back(pe);
  }
  r.costs.firing.assign(p.dfg.nodes.size(), std::vector<std::optional<double>>(pe_count));
  for (std::size_t n = 0; n < p.dfg.nodes.size(); ++n) {
    bool pinned = p.dfg.nodes[n].candidates.empty();
    double gpu_ms = pinned ? 1 : rng.in(4, 12);
    double cpu_factor = pinned ? 1 : rng.in(2, 4);
    for (ir::PeId pe = 0; pe < pe_count; ++pe)
      r.costs.firing[n][pe] =
          1e-3 * gpu_ms * (p.arch.pes[pe].kind == ir::PeKind::cpu ? cpu_factor : 1.0);
  }
  for (const ir::Link& l : p.arch.links)
    r.costs.links.push_back(
        {mapping::LinkCost{l.bandwidth, 5e-6}, mapping::LinkCost{l.bandwidth, 5e-6}});
  r.costs.capacity.assign(pe_count, std::nullopt);
  r.costs.overhead = {{1e-4, 1e-4}};
  return r;
}

}  // namespace dfgc::test
