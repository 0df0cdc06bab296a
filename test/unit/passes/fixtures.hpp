// Programs the passes' tests and benchmark share: the papers' examples and generated graphs.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "passes/insert_buffers.hpp"
#include "passes/latency.hpp"
#include "passes/program_builder.hpp"
#include "passes/schedule.hpp"
#include "sema/rates.hpp"
#include "support/assert.hpp"
#include "support/diagnostics.hpp"
#include "support/source_manager.hpp"

namespace dfgc::test {

/// Actors with 0..2 inputs and 1..2 outputs on one token type.
inline void add_generic_actors(ProgramBuilder& b, const std::string& type) {
  b.actor("Source", "out " + type + " o");
  b.actor("Sink", "in " + type + " i");
  b.actor("Map", "in " + type + " i; out " + type + " o");
  b.actor("Join", "in " + type + " x; in " + type + " y; out " + type + " o");
  b.actor("Split", "in " + type + " i; out " + type + " o; out " + type + " p");
}

/// The PACCO journal paper's figures 5-7: two hosts, each a CPU and three GPUs on PCIe, the CPUs on
/// Infiniband; b on GPU1 of host 0 broadcasts to c1 (host 1's CPU), c2 (GPU0 of host 1) and d.
inline ProgramBuilder paper_example() {
  ProgramBuilder b("paper");
  b.type("Image", ir::ElemType::f32, 1 << 20, "W * H", true);
  add_generic_actors(b, "Image");
  b.host("A", 3).host("B", 3).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.node("p", "Source", "A.cpu").node("a", "Map", "A.g0").node("b", "Map", "A.g1");
  b.node("c1", "Sink", "B.cpu").node("c2", "Sink", "B.g0").node("d", "Map", "A.g1");
  b.node("e", "Map", "A.g1").node("f", "Join", "A.g1").node("c3", "Sink", "A.g2");
  b.edge("p.o", "a.i")
      .edge("a.o", "b.i")
      .edge("b.o", "c2.i")
      .edge("b.o", "c1.i")
      .edge("b.o", "d.i");
  b.edge("d.o", "e.i").edge("e.o", "f.x").edge("d.o", "f.y").edge("f.o", "c3.i");
  return b;
}

/// The journal paper's section 5.1: P -> I -> I -> C over two hosts, 16 MiB matrices.
inline ProgramBuilder piic() {
  ProgramBuilder b("overlap");
  b.type("Matrix", ir::ElemType::f32, 2048 * 2048, "N * N");
  b.actor("Producer", "out Matrix m").actor("Inc", "in Matrix a; out Matrix b");
  b.actor("Consumer", "in Matrix m");
  b.host("A", 1).host("B", 1).link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
  b.node("p", "Producer", "A.cpu").node("i1", "Inc", "A.g0").node("i2", "Inc", "B.g0");
  b.node("c", "Consumer", "B.cpu");
  b.edge("p.m", "i1.a").edge("i1.b", "i2.a").edge("i2.b", "c.m");
  return b;
}

/// 4 hosts A..D, each a CPU and 3 GPUs on PCIe; g0 <-> g1 on NVLink; the CPUs in a ring.
/// `cores` > 1: each host has cpus c0 .. c<cores - 1> (one memory), its links on c0.
inline void cluster16(ProgramBuilder& b, int cores = 1) {
  const char* hosts[] = {"A", "B", "C", "D"};
  const std::string cpu = cores == 1 ? ".cpu" : ".c0";
  for (const char* h : hosts)
    b.host(h, 3, 25e9, cores)
        .link(std::string(h) + ".g0", std::string(h) + ".g1", ir::LinkKind::nvlink, 50e9);
  for (int h = 0; h < 4; ++h)
    b.link(std::string(hosts[h]) + cpu, std::string(hosts[(h + 1) % 4]) + cpu, ir::LinkKind::net,
           2.6e9);
}

/// A random layered DAG of `nodes` nodes on cluster16 (or the architecture `arch` adds), randomly
/// mapped. Each input reads one of the last `window` outputs, preferring those no one reads yet.
inline ProgramBuilder random_program(std::uint32_t seed, int nodes, int window,
                                     const std::function<void(ProgramBuilder&)>& arch) {
  ProgramBuilder b("random");
  b.type("T", ir::ElemType::f32, 1024);
  add_generic_actors(b, "T");
  arch(b);
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::vector<std::string> pes;
  for (const ir::Pe& pe : b.program().arch.pes) pes.push_back(pe.name);
  std::vector<std::string> open;  // outputs not consumed yet
  std::vector<std::string> all;   // every output
  auto producer = [&]() -> std::string {
    if (!open.empty() && pick(3) != 0) {
      std::size_t i =
          open.size() - 1 -
          static_cast<std::size_t>(pick(std::min<int>(window, static_cast<int>(open.size()))));
      std::string o = open[i];
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
      return o;
    }
    std::size_t back =
        static_cast<std::size_t>(pick(std::min<int>(window, static_cast<int>(all.size()))));
    return all[all.size() - 1 - back];
  };
  for (int i = 0; i < nodes; ++i) {
    std::string name = "n" + std::to_string(i);
    const std::string& pe = pes[static_cast<std::size_t>(pick(static_cast<int>(pes.size())))];
    int kind = all.empty() ? 0 : i == nodes - 1 ? 1 : pick(10);
    if (kind == 0) {
      b.node(name, "Source", pe);
    } else if (kind == 1) {
      b.node(name, "Sink", pe).edge(producer(), name + ".i");
    } else if (kind <= 5) {
      b.node(name, "Map", pe).edge(producer(), name + ".i");
    } else if (kind <= 7) {
      b.node(name, "Split", pe).edge(producer(), name + ".i");
    } else {
      std::string x = producer(), y = producer();
      b.node(name, "Join", pe).edge(x, name + ".x").edge(y, name + ".y");
    }
    const ir::Actor& actor = b.program().dfg.actors[b.program().dfg.nodes.back().actor];
    for (const ir::Port& port : actor.ports)
      if (port.dir == ir::PortDir::out) {
        open.push_back(name + "." + port.name);
        all.push_back(name + "." + port.name);
      }
  }
  return b;
}

/// The same on cluster16 with `cores` cpus a host.
inline ProgramBuilder random_program(std::uint32_t seed, int nodes, int window = 20,
                                     int cores = 1) {
  return random_program(seed, nodes, window, [cores](ProgramBuilder& b) { cluster16(b, cores); });
}

/// Rates on a built program: each node gets an actor of its own and fires 1, 2 or 4 times per
/// iteration (random, seeded); every output moves a block of 4 tokens a cycle, so each port's
/// rate is 4 / q. solve_rates() then makes the repetitions and the block types (float[1024 x k]).
inline void add_random_rates(ir::Program& p, std::uint32_t seed) {
  std::mt19937 rng(seed * 7919u + 1);
  std::vector<std::uint32_t> q(p.dfg.nodes.size());
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    q[n] = 1u << (rng() % 3);
    ir::Actor a = p.dfg.actor_of(n);
    a.name += "_" + p.dfg.nodes[n].name;
    for (ir::Port& port : a.ports) port.rate = 4 / q[n];
    p.dfg.nodes[n].actor = static_cast<ir::ActorId>(p.dfg.actors.size());
    p.dfg.actors.push_back(std::move(a));
  }
  SourceManager sources;
  DiagnosticEngine diags(sources);
  DFGC_INTERNAL_ASSERT(sema::solve_rates(p, diags),
                       "the random rates are consistent by construction");
}

/// random_program() with loops: about a fifth of the Join nodes leave input y open, and once every
/// node is placed each such input is fed by an output of the node itself or of a later one
/// (which closes a loop through the Join), over an edge of 1 to 3 initial tokens; then each loop
/// whose latency its tokens do not cover (first_cycles) gets the tokens it lacks on its delayed
/// edge, until every loop is covered under both strategies. `cores` cpus a host (cluster16);
/// `rates`: add_random_rates() before the loops are covered.
inline ir::Program random_loop_program(std::uint32_t seed, int nodes,
                                       std::vector<std::string>* raised = nullptr, int cores = 1,
                                       bool rates = false) {
  ProgramBuilder b("loops");
  b.type("T", ir::ElemType::f32, 1024);
  add_generic_actors(b, "T");
  cluster16(b, cores);
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::vector<std::string> pes;
  for (const ir::Pe& pe : b.program().arch.pes) pes.push_back(pe.name);
  std::vector<std::string> all;                      // every output
  std::vector<std::pair<std::string, int>> pending;  // open inputs, with their node's index
  std::vector<int> first_output;                     // per node: its first output in `all`
  for (int i = 0; i < nodes; ++i) {
    std::string name = "n" + std::to_string(i);
    const std::string& pe = pes[static_cast<std::size_t>(pick(static_cast<int>(pes.size())))];
    auto recent = [&] {
      return all[all.size() - 1 -
                 static_cast<std::size_t>(pick(std::min<int>(6, static_cast<int>(all.size()))))];
    };
    int kind = all.empty() ? 0 : i == nodes - 1 ? 1 : pick(10);
    first_output.push_back(static_cast<int>(all.size()));
    if (kind == 0)
      b.node(name, "Source", pe);
    else if (kind == 1)
      b.node(name, "Sink", pe).edge(recent(), name + ".i");
    else if (kind <= 4)
      b.node(name, "Map", pe).edge(recent(), name + ".i");
    else if (kind <= 6)
      b.node(name, "Split", pe).edge(recent(), name + ".i");
    else {
      b.node(name, "Join", pe).edge(recent(), name + ".x");
      if (pick(2) == 0)
        pending.emplace_back(name + ".y", i);
      else
        b.edge(recent(), name + ".y");
    }
    const ir::Actor& actor = b.program().dfg.actors[b.program().dfg.nodes.back().actor];
    for (const ir::Port& port : actor.ports)
      if (port.dir == ir::PortDir::out) all.push_back(name + "." + port.name);
  }
  for (const auto& [input, node] : pending) {
    int from = first_output[static_cast<std::size_t>(node)];
    int span = static_cast<int>(all.size()) - from;
    b.edge(all[static_cast<std::size_t>(from + pick(std::min(span, 8)))], input,
           1 + static_cast<std::uint32_t>(pick(3)));
  }
  ir::Program p = b.build();
  if (rates) add_random_rates(p, seed);
  for (int round = 0; round < 64; ++round) {
    bool covered = true;
    for (ir::Strategy s : ir::kStrategies) {
      Schedule order = schedule(p.dfg, p.arch, p.mapping);
      BufferPlan plan = insert_buffers(p.dfg, p.arch, p.mapping);
      Latencies l = compute_latency(p.dfg, order, plan);
      if (!l[s].uncovered) continue;
      covered = false;
      const UncoveredLoop& loop = *l[s].uncovered;
      for (ir::EdgeId e : loop.edges)
        if (p.dfg.edges[e].delay) {
          p.dfg.edges[e].delay += loop.cycles() - loop.tokens;
          if (raised) raised->push_back(p.dfg.nodes[p.dfg.edges[e].dst].name);
          break;
        }
      break;
    }
    if (covered) break;
  }
  return p;
}

}  // namespace dfgc::test
