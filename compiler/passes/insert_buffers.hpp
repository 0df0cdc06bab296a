/// \file
/// Buffer node insertion. Every node output gets a buffer node on its node's PE. For each edge to a
/// consumer on another PE, the token follows the route (routes.hpp) and gets a buffer node on every
/// PE it crosses, the consumer's included; a PE that already holds a buffer node of the same output
/// (an earlier edge's route passed there) reuses it, so the buffers of one output form a tree
/// rooted at its own buffer. Each tree edge is a transfer over one link. A consumer on the
/// producer's PE reads the producer's buffer directly.
/// The cpus of a host share its memory: routes leave and enter a host at its first cpu (where its
/// links attach), a buffer in host memory serves every cpu of the host, and a consumer on another
/// cpu of the host reads it directly, with no copy (a shared read, `shared`). The buffer a
/// transfer fills in host memory is named for the consumer's cpu when the route ends there. Needs:
/// the Dfg (every input port fed by exactly one edge), the ArchGraph and the Mapping. Produces:
/// BufferPlan, the same for both strategies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/ig.hpp"

namespace dfgc {

struct PlannedBuffer {
  std::string name;  ///< "<node>.<port>@<pe>", unique: one buffer node per output and PE
  ir::PeId pe = 0;
  ir::NodeId node = 0;  ///< the output whose tokens it holds
  std::uint32_t port = 0;
  ir::TypeId type = 0;
  std::uint32_t hop = 0;              ///< transfers from the output's own buffer
  std::optional<ir::TransferId> in;   ///< the transfer that fills it; none for an output's own
  std::vector<ir::TransferId> out;    ///< the transfers that read it, in creation order
  std::vector<ir::EdgeId> consumers;  ///< the edges whose consumer reads it, in spec order
  /// Whether a consumer on another cpu of its host reads it directly (shared memory).
  bool shared = false;
};

struct PlannedTransfer {
  ir::BufferId from = 0;
  ir::BufferId to = 0;
  ir::LinkId link = 0;
};

struct BufferPlan {
  std::vector<PlannedBuffer> buffers;  ///< in creation order: node, port, then route order
  std::vector<PlannedTransfer> transfers;
  std::vector<ir::BufferId> edge_buffer;  ///< per edge: what its consumer reads
  std::vector<bool>
      edge_shared;  ///< per edge: its consumer reads a buffer of another cpu of its host
  std::vector<std::vector<ir::BufferId>> port_buffer;  ///< per node, per actor port

  /// The transfers from the output's own buffer down to `b`, nearest the root first.
  std::vector<ir::TransferId> path_to(ir::BufferId b) const;
};

BufferPlan insert_buffers(const ir::Dfg& dfg, const ir::ArchGraph& arch,
                          const ir::Mapping& mapping);

/// One line per buffer node ("buffer <name> hop <h>") then per transfer ("<from> -> <to> <link>").
std::string dump(const BufferPlan& plan, const ir::Program& program);

}  // namespace dfgc
