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
//    that the same step writes.
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
