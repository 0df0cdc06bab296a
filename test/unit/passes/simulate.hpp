// A cycle-by-cycle simulation of an implementation graph, in the cycle model of
// compiler/passes/latency.hpp, on the storage the colours allocate. Every slot holds a tag: the
// output (node, port) and iteration of the token in it. The simulation checks that
//  - every firing at cycle c >= latency reads, on every input, the token of iteration
//    c - latency - delay of the output that feeds it, delay being the initial tokens of its edge
//    (so all inputs carry one iteration, and no shared storage clobbered it); an input's first
//    `delay` iterations read the initial tokens;
//  - every transfer and delay copy, from its first cycle, moves the token it should;
//  - with overlap, no firing or copy touches a slot that a transfer reads or writes during the
//    cycle, and no two transfers write one slot; without overlap, no transfer step reads a slot
//    that the same step writes;
//  - the PEs fire at once: no slot that a firing or delay copy of one PE writes in a cycle is read
//    or written by another PE's in the same cycle (the cpus of a host share its memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ig.hpp"

namespace dfgc::test {

struct SimReport {
  std::vector<std::string> errors;           ///< the first few violations
  std::vector<std::uint32_t> firings;        ///< per node: valid firings
  std::vector<std::int64_t> last_iteration;  ///< per node: the iteration of its last firing
};

SimReport simulate(const ir::Program& program, const ir::IgStrategy& ig, std::uint32_t cycles);

}  // namespace dfgc::test

namespace dfgc {
struct Migration;
}

namespace dfgc::test {

/// What a run through a migration did, per node: the iterations it fired in cycle order and the
/// cycle of each.
struct MigrationRun {
  std::vector<std::string> errors;
  std::vector<std::vector<std::int64_t>> iterations;  ///< per node
  std::vector<std::vector<std::int64_t>> cycles;      ///< per node, the cycle of each firing
};

/// The base graph `base` (G0) handles iterations [0, switch_at) and the migration's graph (G1),
/// delta cycles later, iterations [switch_at, iterations), every entry of each graph in its
/// iteration window (migrations.hpp). G1's buffers that keep a base buffer's storage use it; the
/// others use storage of their own. The same checks as simulate(), on the union, with the real
/// cycle counter; and no node fires twice in one cycle.
MigrationRun simulate_migration(const ir::Program& program, const ir::IgStrategy& base,
                                const Migration& migration, ir::Strategy strategy,
                                std::int64_t switch_at, std::int64_t iterations);

}  // namespace dfgc::test
