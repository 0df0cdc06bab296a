/// \file
/// The class of an island's node (plan/plan.hpp, PlanIsland): its rings (dfg::Fifo), its
/// members' objects and their steps on their rings (dfg::In, dfg::Out), the Unpack and Pack
/// adapters of its ports, and a `fire` that runs the dfg::Island to quiescence. Written into the
/// project as dfg_islands/<island>.hpp; the worker of its CPU includes and fires it as any actor.
/// A GPU island's (dfg_islands/<island>.cuh): the state of its kernel in device memory (rings,
/// nodes, GpuUnpack and GpuPack adapters, one block each) and a `fire` that enqueues the kernel
/// of dfg/cuda/gpu_island_cycle.hpp on the node's stream. A fifo edge between a CPU island and a
/// GPU island is a ring both use (dfg_islands/mapped_rings_<host>.hpp, dfg/cuda/mapped_ring.hpp):
/// no adapter on either side.
#pragma once

#include <string>

#include "codegen/files.hpp"

namespace dfgc::codegen {

/// The project path of the island's header: "dfg_islands/island_d1.hpp" (".cuh" on a GPU).
std::string island_file(const PlanIsland& island);

std::string render_island(const Model& m, const PlanIsland& island);

/// The project path of the host's mapped rings (PlanMappedRing): dfg_islands/mapped_rings_A.hpp.
std::string mapped_rings_file(const Model& m);
/// The header that declares them, one dfg::MappedRing each, for the islands on both sides.
std::string render_mapped_rings(const Model& m);

}  // namespace dfgc::codegen
