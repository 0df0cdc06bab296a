/// \file
/// What code generation derives from the implementation graph before printing anything: for each
/// strategy, every firing, transfer and delay copy as a window entry with the processing element
/// (PE) whose thread runs it and the CUDA stream it goes on; which PEs share memory (the
/// neighbours of --sync=neighbours); the streams of each GPU; C++ identifiers for spec names.
///
/// Who runs what, on one host: a firing and a delay copy run on their own PE (a GPU's on its
/// compute stream); a transfer is launched by its GPU end: CPU -> GPU by the destination on its
/// h2d stream, GPU -> CPU by the source on its d2h stream, GPU -> GPU by the destination on its
/// peer stream. Two PEs are neighbours when their threads touch a common allocation (a colour):
/// the owner of a colour and the launcher of every transfer that reads or writes one of its
/// members.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/frontend.hpp"
#include "ir/ig.hpp"

namespace dfgc::codegen {

/// A C++ identifier for a spec name: "p.m@A.g0" -> "p_m_A_g0".
std::string identifier(std::string_view name);

enum class StreamKind : std::uint8_t { compute, h2d, d2h, peer };
/// "compute", "h2d", "d2h", "peer".
std::string_view to_string(StreamKind s);

/// One firing, transfer or delay copy: an entry of the window table.
struct Entry {
  enum class Kind : std::uint8_t { firing, transfer, copy };
  Kind kind = Kind::firing;
  std::uint32_t id = 0;     ///< NodeId, TransferId or CopyId
  std::string ident;        ///< "fire_p", "transfer_p_m_A_g0", "copy_c_x_delay_A_cpu"
  std::string label;        ///< for comments and errors: "node p (Producer) @ A.cpu"
  std::string short_name;   ///< for --stats and --trace: "p (Producer)"
  std::string where;        ///< for --stats: "A.cpu", "A.cpu>A.g0"
  ir::PeId runner = 0;      ///< the PE whose thread runs it
  std::optional<StreamKind> stream;  ///< on a GPU runner
  std::uint32_t first_cycle = 0;
  std::uint32_t step = 0;   ///< a transfer's step without overlap
};

/// One strategy's entries, in the order the threads run them.
struct StrategyModel {
  ir::Strategy strategy = ir::Strategy::overlap;
  std::vector<Entry> entries;  ///< PE by PE: its transfers (by destination name), then its
                               ///< firings in schedule order, each followed by its delay copies
  std::vector<std::vector<std::size_t>> by_pe;  ///< entry indices per PE, in run order
  std::vector<std::set<ir::PeId>> neighbours;   ///< per PE
  std::uint32_t latency = 0;  ///< the largest first cycle
  std::vector<std::string> buffer_idents;  ///< per buffer, unique: "p_m_A_g0"

  /// The buffers the thread of `pe` touches, sorted by name.
  std::vector<ir::BufferId> touched(const ir::IgStrategy& s, ir::PeId pe) const;
};

struct Model {
  const ir::Program* program = nullptr;
  const ir::Ig* ig = nullptr;
  const ActorSignatures* signatures = nullptr;
  ir::HostId host = 0;
  ir::PerStrategy<StrategyModel> strategies;
  std::vector<std::set<StreamKind>> streams;  ///< per PE (GPUs): every stream either strategy uses
  std::vector<std::uint32_t> colour_count;    ///< per PE: the most colours of either strategy

  const ir::Pe& pe(ir::PeId p) const { return program->arch.pes[p]; }
  bool has_gpu() const;
  /// The host's PEs, cpu first, then its gpus.
  std::vector<ir::PeId> pes() const;
};

/// Builds the model of a single-host program.
Model build_model(const ir::Program& program, const ir::Ig& ig, const ActorSignatures& signatures);

/// The PE whose thread launches a transfer.
ir::PeId launcher(const ir::Program& program, const ir::IgTransfer& t);
StreamKind stream_of(const ir::Program& program, const ir::IgTransfer& t);

}  // namespace dfgc::codegen
