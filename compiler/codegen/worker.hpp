/// \file
/// The worker of one processing element (PE): a C++ class that owns the PE's actors, allocates
/// its share of the chosen strategy's storage, and runs its cycle loop for either strategy.
/// rank.cpp places the CPU's worker in rank_<host>.cpp, gpu.cpp each GPU's in its .cu file.
///
/// The loops follow the cycle model of passes/latency.hpp, one thread per PE:
///  - with overlap, cycle c: wait for the neighbours (--sync=neighbours), launch this PE's
///    transfers, fire its nodes in schedule order (each followed by its delay copies), wait for
///    its own streams, end the cycle (publish it, or the barrier of --sync=barrier);
///  - without overlap: each transfer step ends with a wait for the PE's streams and a barrier;
///    then the firings, a wait, and the barrier that ends the cycle.
/// A loop prints the PE's steps of the host plan, one small emitter per kind of step (fire, copy,
/// net post, net complete, delay copy, wait, end phase, end cycle: worker_loop.cpp); the class,
/// its members and its constructor are worker.cpp's (the printer is worker_printer.hpp's).
/// Every name it prints is the plan's (names.cpp). The fixed part is the
/// runtime's: the worker's base (dfg::CpuWorker, dfg::GpuWorker: run state, storage, streams,
/// probes), its nodes (dfg::Node), the loop itself (dfg::Items::cycles), and per item
/// dfg::Items / dfg::GpuItems, which run it only inside its window with its error location, NVTX
/// range and probe. The text of every piece is a section of templates/parts/worker.cpp. An access
/// to a buffer in cycle c uses colour slot dfg::slot(c, lag + colour lag, slots), the constants
/// inline.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "codegen/files.hpp"

namespace dfgc::codegen {

/// The worker's class definition and its member functions, for the anonymous namespace of the
/// PE's source file.
std::string render_worker(const Model& m, ir::PeId pe);

/// The header files of the actors of `pe`'s nodes (and the initial tokens' runtime header), as
/// an #include spells them ("x.hpp" with its quotes), sorted.
std::set<std::string> actor_includes(const Model& m, ir::PeId pe);

/// The structs (indices in ProgramPlan::structs) that the ports of `pe`'s nodes carry.
std::set<std::uint32_t> structs_used(const Model& m, ir::PeId pe);

/// The static_asserts that hold the classes of `structs` to the spec's layout (empty for none),
/// for a source file that includes the actors' headers.
std::string struct_checks(const Model& m, const std::set<std::uint32_t>& structs);

}  // namespace dfgc::codegen
