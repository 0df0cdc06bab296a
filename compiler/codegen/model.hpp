/// \file
/// What code generation derives from the implementation graph before printing anything: for each
/// strategy, every firing, transfer and delay copy as a window entry with the processing element
/// (PE) whose thread runs it and the CUDA stream it goes on; which PEs share memory (the
/// neighbours of --sync=neighbours); the streams of each GPU; C++ identifiers for spec names.
///
/// A model describes one host (one MPI rank of a program on several hosts): its PEs' entries
/// only, in a program whose cycle count (the latency) is the whole program's.
///
/// Who runs what: a firing and a delay copy run on their own PE (a GPU's on its compute stream);
/// a transfer is launched by its GPU end: CPU -> GPU by the destination on its h2d stream,
/// GPU -> CPU by the source on its d2h stream, GPU -> GPU by the destination on its peer stream.
/// A host-to-host transfer (a net link between two CPUs, or a gpudirect link between two GPUs)
/// is an entry of both hosts' CPUs: the source host's sends it, the destination host's receives
/// it, through MPI, with the transfer's tag (net_tags()); over a gpudirect link from and into
/// the GPU's own buffer (device memory). Two PEs are neighbours when their threads touch a
/// common allocation (a colour): the owner of a colour and the launcher of every transfer that
/// reads or writes one of its members; a host-to-host transfer's end on a host is run by that
/// host's CPU (a GPU and its CPU are neighbours through a gpudirect buffer; never across hosts).
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
  /// A host-to-host transfer: this host's end sends or receives it (MPI); none otherwise.
  enum class Net : std::uint8_t { none, send, recv };
  Net net = Net::none;
  /// A host-to-host transfer over a gpudirect link: this host's end is in the memory of this
  /// GPU; none otherwise.
  std::optional<ir::PeId> gpudirect;
};

/// One strategy's entries, in the order the threads run them.
struct StrategyModel {
  ir::Strategy strategy = ir::Strategy::overlap;
  std::vector<Entry> entries;  ///< PE by PE: its transfers (host-to-host receives, then sends,
                               ///< then the others, each group by destination name), then its
                               ///< firings in schedule order, each followed by its delay copies
  std::vector<std::vector<std::size_t>> by_pe;  ///< entry indices per PE, in run order
  std::vector<std::set<ir::PeId>> neighbours;   ///< per PE
  std::uint32_t latency = 0;  ///< the largest first cycle of the whole program (every host)
  std::vector<int> net_tags;  ///< per transfer: its MPI tag (net_tags()), -1 within a host
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
  /// Whether this host has a GPU PE.
  bool has_gpu() const;
  /// Whether the program spans several hosts (an MPI program, one rank per host).
  bool multi_host() const { return program->arch.hosts.size() > 1; }
  /// Whether this host sends or receives a transfer over a gpudirect link.
  bool has_gpudirect() const;
  /// The host's PEs, cpu first, then its gpus.
  std::vector<ir::PeId> pes() const;
};

/// Builds the model of host `host` of the program.
Model build_model(const ir::Program& program, const ir::Ig& ig, const ActorSignatures& signatures,
                  ir::HostId host = 0);

/// Whether `t` goes between two hosts (a net or gpudirect link): an MPI message.
bool is_net(const ir::Program& program, const ir::IgTransfer& t);
/// Whether `t` goes over a gpudirect link: an MPI message between two GPUs' buffers.
bool is_gpudirect(const ir::Program& program, const ir::IgTransfer& t);
/// The PE that runs one end of a host-to-host transfer: the CPU of `end`'s host.
ir::PeId net_runner(const ir::Program& program, ir::PeId end);

/// The MPI tag of every host-to-host transfer, per strategy and TransferId (-1 for the others):
/// numbered 0, 1, ... in schedule.txt order, the overlap strategy first, then no-overlap (a tag
/// is unique in the program).
ir::PerStrategy<std::vector<int>> net_tags(const ir::Program& program, const ir::Ig& ig);

/// The PE whose thread launches a transfer within a host.
ir::PeId launcher(const ir::Program& program, const ir::IgTransfer& t);
StreamKind stream_of(const ir::Program& program, const ir::IgTransfer& t);

}  // namespace dfgc::codegen
