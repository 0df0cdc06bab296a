/// \file
/// The plan of one host in one strategy (plan.hpp): its buffers' views, its colours, its
/// entries (firings, transfers, delay copies) and each PE's steps and, on a GPU, stream orders.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/ig.hpp"
#include "plan/transfers.hpp"

namespace dfgc {

/// A buffer node as the threads see it: a view of its colour's allocation.
struct PlanBuffer {
  std::string name;              ///< "p.m@A.g0"
  std::string ident;             ///< the view's C++ name, unique in the strategy: "p_m_A_g0"
  std::string type;              ///< its token type: "Matrix"
  ir::PeId pe = 0;               ///< the PE that owns its colour
  std::uint32_t colour = 0;      ///< the colour's index on its PE
  std::uint32_t colour_lag = 0;  ///< added to every access's lag
  std::uint32_t slots = 1;       ///< the colour's slots
  std::uint32_t depth = 1;       ///< the buffer's own slots
  /// Its type is bounded (`uint8[<= N]`): each slot's length travels in its colour's length
  /// cells, and transfers move the used bytes only.
  bool bounded = false;
};

/// One access to a buffer: in cycle c it uses slot (c - lag) mod slots of colour `colour` of PE
/// `pe` (the generated dfg::slot(c, lag, slots)). `lag` includes the buffer's colour lag.
struct SlotRef {
  ir::BufferId buffer = 0;
  ir::PeId pe = 0;
  std::uint32_t colour = 0;
  std::uint32_t lag = 0;
  std::uint32_t slots = 1;

  bool operator==(const SlotRef&) const = default;
};

/// A firing's access through one actor port.
struct PortRef {
  std::string port;  ///< the actor's port name
  std::string elem;  ///< the C++ type of its token's elements: "float"
  bool input = true;
  SlotRef slot;
  /// An input fed by an edge with initial tokens: in the node's first `initial` iterations it
  /// reads initial token j (elements `initial_value`), storage of the node's own, instead of
  /// `slot`.
  std::uint32_t initial = 0;
  std::string initial_value;
  std::string type;  ///< its token type: "Matrix"
  std::string
      initial_method{};  ///< the node's member function that fills the initial tokens, else empty

  bool operator==(const PortRef&) const = default;
};

/// One allocation of a PE: a colour shared by buffer nodes that are never live at once.
struct PlanColour {
  std::uint32_t index = 0;
  std::vector<std::string> members;  ///< buffer names, sorted
  std::vector<std::string> types;    ///< the members' token types, sorted, unique: the slot's
                                     ///< bytes are the largest of bytes_<type>(params)
  std::string bytes_text;            ///< the same as an expression of the params
  std::int64_t bytes = 0;            ///< per slot, at the defaults of the runtime params
  std::uint32_t slots = 1;
  bool lengths = false;  ///< a member is bounded: the allocation keeps a length cell per slot
  /// A GPU's colour of small tokens exchanged with CPUs only: mapped host memory (the file
  /// comment's mapped tokens).
  bool mapped = false;
};

/// The end of a host-to-host transfer a host runs: it sends or receives it (MPI); none within a
/// host.
enum class NetEnd : std::uint8_t { none, send, recv };

/// One firing, transfer or delay copy: an entry of the window table. What every kind has, then
/// what its kind has (`what`).
struct Entry {
  /// A firing of a node.
  struct Firing {
    std::vector<PortRef> ports;          ///< in actor port order
    std::vector<ir::ParamValue> params;  ///< the node's param assignments, in spec order

    /// The same ports; the params are the node's, the same wherever its firings are (an Entry
    /// compares its node's id too).
    bool operator==(const Firing& o) const { return ports == o.ports; }
  };
  /// A transfer, within the host or this host's end of a host-to-host one.
  struct Transfer {
    std::uint32_t step = 0;  ///< its step without overlap
    NetEnd net = NetEnd::none;
    /// Over a gpudirect link: this host's end is in the memory of this GPU; none otherwise.
    std::optional<ir::PeId> gpudirect;
    int tag = -1;  ///< a host-to-host transfer's MPI tag; -1 otherwise
    /// A host-to-host transfer: the worker member that holds this host's end (names.cpp):
    /// "i1_b_B_cpu_recv_"; empty otherwise.
    std::string endpoint{};
    std::optional<ir::PeId> peer;  ///< a host-to-host transfer: the PE at the other end
    std::string link;              ///< its link kind: "pcie", "net", "gpudirect", ...
    std::string type;              ///< its token type: bytes_<type>(params)
    std::int64_t bytes = 0;        ///< its token bytes at the defaults of the runtime params
    /// Its source and destination slots; a host-to-host transfer's end has the one on its own
    /// host only.
    std::optional<SlotRef> read, write;
    ir::BufferId to = 0;  ///< its destination buffer (on either host)
    /// A transfer of an order-only token (ir::TokenType::order_only: a mapped fifo edge between
    /// a CPU island and a GPU island): it copies nothing. It keeps a transfer's place (its
    /// stream, its step, the neighbours and stream orders its slots give), which orders the
    /// consumer island's firing of an iteration after the producer's.
    bool order_only = false;
    /// Between a CPU and a GPU's mapped colour: run by the CPU end (runner) as a host copy, on no
    /// stream.
    bool mapped = false;

    bool operator==(const Transfer&) const = default;
  };
  /// A delay line's copy.
  struct Copy {
    std::string type;  ///< its token type
    SlotRef read, write;

    bool operator==(const Copy&) const = default;
  };
  enum class Kind : std::uint8_t { firing, transfer, copy };  ///< the index of `what`

  std::uint32_t id = 0;    ///< NodeId, TransferId or CopyId
  std::string ident;       ///< "fire_p", "transfer_p_m_A_g0", "copy_c_x_delay_A_cpu"
  std::string label;       ///< for comments: "node p (Producer) @ A.cpu" (dfg::entry_label)
  std::string short_name;  ///< for --stats and --trace: "p (Producer)"
  std::string where;       ///< for --stats: "A.cpu", "A.cpu>A.g0"
  ir::PeId runner = 0;     ///< the PE whose thread runs it
  std::optional<StreamKind> stream;  ///< on a GPU runner, and every transfer within a host
  std::uint32_t first_cycle = 0;
  /// --profile's name: a firing's node ("p"), a transfer's link direction ("A.cpu -> A.g0"), a
  /// mapped one's host copy ("host copy A.cpu -> A.g0": kHostCopyProfile, then its direction);
  /// empty for a delay copy.
  std::string profile;
  int alternative = -1;  ///< a new-only entry of migration alternative `alternative`; -1: G0's
  std::variant<Firing, Transfer, Copy> what;

  Kind kind() const { return static_cast<Kind>(what.index()); }
  const Firing& firing() const { return std::get<Firing>(what); }
  Firing& firing() { return std::get<Firing>(what); }
  const Transfer& transfer() const { return std::get<Transfer>(what); }
  Transfer& transfer() { return std::get<Transfer>(what); }
  const Copy& copy() const { return std::get<Copy>(what); }
  /// A transfer, else nullptr.
  const Transfer* transfer_if() const { return std::get_if<Transfer>(&what); }
  Transfer* transfer_if() { return std::get_if<Transfer>(&what); }
  /// Whether it is this host's end of a host-to-host transfer.
  bool net() const { return transfer_if() && transfer_if()->net != NetEnd::none; }
  /// A transfer's or a delay copy's source and destination slots on this host; none for a
  /// firing and for the other host's end of a host-to-host transfer.
  std::optional<SlotRef> read() const;
  std::optional<SlotRef> write() const;
  /// A transfer's or a delay copy's token type; empty for a firing.
  const std::string& type() const;
  /// A firing's ports; none for the other kinds.
  const std::vector<PortRef>& ports() const;

  bool operator==(const Entry&) const = default;
};

/// The received bytes a cycle from which a host that also sends runs its communication thread on
/// two lanes: the runtime's dfg::mpi::kTwoLaneBytes (dfg/mpi/comm_thread.hpp says why), which
/// picks the lanes at run time from the tokens' actual sizes; the plan prints its choice at the
/// defaults of the runtime params.
inline constexpr std::int64_t kTwoLaneBytes = std::int64_t{64} << 10;

/// One thing a PE's thread does in a cycle, in order.
struct Step {
  enum class Kind : std::uint8_t {
    fire,          ///< a firing (entry)
    copy,          ///< a transfer within the host, launched on a stream (entry)
    mapped_copy,   ///< a transfer to or from a GPU's mapped colour, copied on the host (entry)
    net_post,      ///< this host's end of a host-to-host transfer, posted to MPI (entry)
    net_complete,  ///< wait for the MPI transfers posted in this cycle or transfer step
    delay_copy,    ///< a delay line's copy (entry)
    wait,          ///< wait for `streams`
    end_phase,     ///< without overlap: the end of transfer step `phase` (a barrier)
    end_cycle,     ///< the end of the cycle
  };
  Kind kind = Kind::fire;
  std::size_t entry = 0;            ///< fire, copy, net_post, delay_copy: index into entries
  std::vector<StreamKind> streams;  ///< wait
  std::uint32_t phase = 0;          ///< end_phase

  /// Whether `entry` names the step's entry (fire, copy, mapped_copy, net_post, delay_copy).
  bool has_entry() const noexcept {
    switch (kind) {
      case Kind::fire:
      case Kind::copy:
      case Kind::mapped_copy:
      case Kind::net_post:
      case Kind::delay_copy: return true;
      case Kind::net_complete:
      case Kind::wait:
      case Kind::end_phase:
      case Kind::end_cycle: return false;
    }
    return false;
  }
  bool operator==(const Step&) const = default;
};
/// "fire", "copy", "mapped copy", "net post", "net complete", "delay copy", "wait", "end phase",
/// "end cycle".
std::string_view to_string(Step::Kind k);

/// With overlap, a GPU's thread enqueues its next cycle before the GPU has finished the last one:
/// its streams order their cycles among themselves, on the GPU. In cycle c, `stream` first waits
/// for `after`'s cycle c - `cycles`: the latest cycle in which `after` touched a slot that
/// `stream` touches in cycle c, one of the two writing it. An access of lag l to a colour of S
/// slots uses slot (c - l) mod S, so an access of lag x on `stream` and one of lag y on `after`
/// meet at the distance (x - y) mod S (S when that is 0: the same cycle never meets, or the two
/// streams would race within it); `cycles` is the least such distance. A stream's cycles run in
/// order, so the wait covers every earlier cycle of `after` too.
struct StreamOrder {
  StreamKind stream = StreamKind::compute;
  StreamKind after = StreamKind::compute;
  std::uint32_t cycles = 1;
  std::string colour;  ///< the colour of that distance: "A.g0 colour 2"
};

/// A GPU's cycles with overlap, run ahead of its thread: each cycle's end is recorded on every
/// stream of the GPU, the streams wait for each other as `orders` say, and the thread waits only
/// for its neighbours (the host end of the GPU's copies, the other GPUs) and for room: at most
/// `in_flight` cycles enqueued and not finished (the largest order distance, at least 2).
struct GpuCycles {
  std::vector<StreamKind> streams;  ///< every stream of the GPU
  std::vector<StreamOrder> orders;  ///< by (stream, after)
  std::uint32_t in_flight = 2;
  /// The GPU has a mapped colour: it releases a cycle to its CPU neighbours once it has finished
  /// it, kernels included (dfg::Release::cycle), not once its copies have.
  bool mapped = false;
  /// Its cycles as CUDA graphs (dfg::CycleGraphs), relaunched: the cycles' slots, and the halves
  /// of its nodes' windows (`windows`), repeat every `graph_phases` cycles. 0: each cycle
  /// enqueued call by call, for the reason `graph_why` (graphs.cpp).
  std::uint32_t graph_phases = 0;
  bool windows = false;
  std::string graph_why{};
  /// With graphs: how many cycles in a row one graph may hold (the runtime's --graph-cycles,
  /// this by default). More than 1 only where no other PE waits for the GPU's cycles nor it for
  /// theirs (its neighbours: none), so that nothing needs to happen on the host between them.
  std::uint32_t graph_cycles = 1;
  /// With graphs: a firing (its entry index) whose input is fed by an edge with a delay, and its
  /// first cycles that read initial tokens (the largest delay of its inputs). Which token such an
  /// input reads changes from cycle to cycle in those, so they are enqueued call by call.
  struct InitialReads {
    std::size_t entry = 0;
    std::uint32_t cycles = 0;
    std::string why;  ///< "node 'm' (Mix) reads the initial tokens of input 'state'"
  };
  std::vector<InitialReads> graph_initial{};
};

/// One strategy's plan of a host.
struct StrategyPlan {
  ir::Strategy strategy = ir::Strategy::overlap;
  std::vector<Entry> entries;                   ///< PE by PE, in the order the threads run them
  std::vector<std::vector<std::size_t>> by_pe;  ///< entry indices per PE, in run order
  std::vector<std::set<ir::PeId>> neighbours;   ///< per PE
  std::uint32_t latency = 0;  ///< the largest first cycle of the whole program (every host)
  std::vector<int>
      net_tags;  ///< per transfer of the Ig: its MPI tag (net_tags()), -1 within a host
  std::vector<PlanBuffer> buffers;                 ///< per buffer of the Ig
  std::vector<std::vector<PlanColour>> storage;    ///< per PE of the host: its colours by index
  std::vector<std::vector<ir::BufferId>> touched;  ///< per PE: the buffers its thread touches,
                                                   ///< sorted by name
  /// Per PE: the C++ name its worker views each touched buffer by (names.cpp), a loop's
  /// local "buf_p_m_A_g0" or, where both loops share the views (PlanSharing::views), the member
  /// "p_m_A_g0_view_".
  std::vector<std::map<ir::BufferId, std::string>> views{};
  std::vector<std::vector<Step>> steps;              ///< per PE of the host
  std::vector<std::optional<GpuCycles>> gpu_cycles;  ///< per PE: a GPU's, with overlap
  std::uint32_t transfer_steps = 1;  ///< without overlap: the steps of a cycle's transfer part
  bool has_transfers = false;        ///< whether the program has any transfer
};

/// What both strategies give one PE alike, so that its worker prints it once.
struct PlanSharing {
  /// The same colours (members, types, mapped), index by index: one allocation serves either
  /// strategy, only the slots depending on the one that runs.
  bool colours = false;
  /// The same touched buffers with the same names, each in the same colour of the same PE: one
  /// view of each serves both loops.
  bool views = false;
  /// The same steps over the same entries, on a CPU of a program on one host (no GPU cycles run
  /// ahead, no MPI between cycles): one cycle loop serves both strategies.
  bool loop = false;
};

}  // namespace dfgc
