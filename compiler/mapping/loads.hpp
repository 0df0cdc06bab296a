/// \file
/// The period of one cycle from the loads it puts on each resource; shared by the cost model
/// (which reads the transfers of a built implementation graph) and the search's quick model
/// (which derives them from a mapping), so that both compute the same figures.
///
/// Resources: each PE's firings (the sum of its nodes' firing times), each direction of each link
/// (transfers sharing it add up: bytes / bandwidth + latency each), and each GPU's two copy
/// engines, host-to-device (every transfer into it) and device-to-host (every transfer out of
/// it), which run at once (full duplex).
///  - with overlap: period = the largest load of any resource + the cycle overhead;
///  - without overlap: period = sum over transfer steps of the step's largest resource load
///    (the step's longest transfer when no two of its transfers share a resource) + the largest
///    PE firing load + the cycle overhead.
/// A mapped transfer (a small token between a CPU and a GPU's mapped host memory, the plan's
/// Entry::Transfer::mapped) is no copy engine's: its CPU end's thread copies it on the host (the
/// costs' host copy time) and the GPU's kernel reads or writes it over the link (bytes / bandwidth,
/// no latency). With overlap the host copy adds to the CPU's firings (one thread runs both) and
/// the kernel's access to the link direction; without overlap the host copies of a step are
/// that step's resource "<cpu> host copies" (the access is inside the kernel's firing time).
///
/// Cores of one host share its memory, so an edge between two of them is no transfer; but the
/// consumer's core reads, each cycle, lines that the producer's core wrote: its cache misses and
/// the cycle handshake with that core cost it time (the costs' core reads, measured: docs/costs.md
/// `cores`). That time adds to the consumer's firings, once per output and reading core however
/// many of its nodes read that output (CoreReads).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.hpp"
#include "mapping/costs.hpp"

namespace dfgc::mapping {

struct Resource {
  /// none: no resource, as the busiest of a phase that costs nothing (a transfer step between
  /// cores of one host, which share memory).
  enum class Kind : std::uint8_t { pe, link, h2d, d2h, host_copies, none };
  Kind kind = Kind::pe;
  std::uint32_t index = 0;  ///< the PeId; for a link, LinkId * 2 + direction (0: a -> b)
  double load = 0;          ///< seconds per cycle

  /// "A.g0 firings", "link A.cpu -> A.g0", "A.g0 copy engine H2D", "A.cpu host copies",
  /// "nothing".
  std::string name(const ir::ArchGraph& arch) const;
};

class Loads {
 public:
  Loads(const ir::ArchGraph& arch, const CostTable& costs);

  /// Forgets every load; a cycle's transfer part will have `steps` steps (no overlap).
  void reset(std::uint32_t steps);
  void fire(ir::PeId pe, double seconds) {
    load_[pe] += seconds;
    fire_[pe] += seconds;
  }
  /// A transfer of `bytes` over `link` from `from` to `to`, in step `step` (no overlap).
  void transfer(ir::PeId from, ir::PeId to, ir::LinkId link, std::int64_t bytes,
                std::uint32_t step);
  /// A mapped transfer (the file comment) of `bytes` over `link` from `from` to `to`.
  void mapped_transfer(ir::PeId from, ir::PeId to, ir::LinkId link, std::int64_t bytes,
                       std::uint32_t step);
  /// Cpu `pe` reads `bytes` that another cpu of its host wrote (the file comment).
  void core_read(ir::PeId pe, std::int64_t bytes) {
    fire(pe, costs_.core_read_time(arch_, pe, bytes));
  }

  double period(ir::Strategy s) const;
  /// Every resource with a load, with overlap (a cycle's total), in kind then index order.
  std::vector<Resource> resources() const;
  /// Without overlap: each step's busiest resource, then the busiest PE (the firing phase).
  std::vector<Resource> phases() const;

 private:
  Resource busiest(const std::vector<double>& loads, std::size_t first, std::size_t last) const;
  Resource resource(std::size_t slot, double load) const;

  const ir::ArchGraph& arch_;
  const CostTable& costs_;
  std::size_t pes_;
  std::size_t links_;
  std::vector<double> load_;                ///< per resource slot, the cycle's total
  std::vector<double> fire_;                ///< per PE, its firings alone (no host copies)
  std::vector<std::vector<double>> steps_;  ///< per step, per resource slot
};

/// The core reads of a program's mappings (the file comment): for each output, each cpu that
/// reads it and is not its producer's but on its producer's host reads its block once a cycle.
class CoreReads {
 public:
  explicit CoreReads(const ir::Program& program);

  /// Charges `loads` the core reads of the mapping `pe_of`.
  void charge(Loads& loads, const std::vector<ir::PeId>& pe_of);

 private:
  struct Read {
    ir::NodeId src = 0, dst = 0;
    std::int64_t bytes = 0;  ///< the output's block
    bool first = false;      ///< the first edge of its output (edges_ are grouped by output)
  };
  const ir::ArchGraph& arch_;
  std::vector<Read> edges_;
  std::vector<ir::PeId> readers_;  ///< scratch: the cores charged for the current output
};

}  // namespace dfgc::mapping
