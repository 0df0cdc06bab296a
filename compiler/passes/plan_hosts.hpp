/// \file
/// The host plan: what each host's threads do, as data, before any code is printed. For each host
/// (one MPI rank of a program on several hosts) and each strategy: every firing, transfer and
/// delay copy as an entry with the processing element (PE) whose thread runs it, the CUDA stream
/// it goes on, the slots it reads and writes and, between hosts, its MPI tag; per PE its storage
/// (one allocation per colour), the buffers its thread touches, its neighbours and its steps (the
/// order its cycle runs in); per GPU its streams (a GPU of the host that runs nothing and holds
/// no storage is not in the plan: the program never selects its device). Code generation
/// (compiler/codegen/) prints it.
///
/// Who runs what: a firing and a delay copy run on their own PE (a GPU's on its compute stream);
/// a transfer within a host is launched by its GPU end: CPU -> GPU by the destination on its h2d
/// stream, GPU -> CPU by the source on its d2h stream, GPU -> GPU by the destination on its peer
/// stream. A host-to-host transfer (a net link between two CPUs, or a gpudirect link between two
/// GPUs) is an entry of both hosts' CPUs: the source host's sends it, the destination host's
/// receives it, through MPI, with the transfer's tag (net_tags()); over a gpudirect link from and
/// into the GPU's own buffer (device memory). Two PEs are neighbours when their threads touch a
/// common allocation (a colour): the owner of a colour and the launcher of every transfer that
/// reads or writes one of its members; a host-to-host transfer's end on a host is run by that
/// host's first CPU (a GPU and its CPU are neighbours through a gpudirect buffer; never across
/// hosts). The cpus of a host share its memory: a firing on one reads a buffer of another
/// directly, and its cpu is then a neighbour of the buffer's owner and of the launchers of the
/// transfers touching its colour (not of the other cpus that only read it).
///
/// A PE's steps, in the cycle model of latency.hpp:
///  - with overlap: its transfers (host-to-host sends, then receives, then the ones it launches
///    within its host, each group by destination name), its firings in schedule order, each
///    followed by its delay copies; the MPI transfers complete; the cycle ends (a GPU's cycle
///    ends on the GPU, its streams ordered by GpuCycles: its thread does not wait for it);
///  - without overlap: per transfer step, the step's transfers, the MPI ones completed, a wait for
///    the streams of the PE's transfers, the end of the phase (a PE without transfers only ends
///    the phases); then the firings with their delay copies, a GPU's wait, the end of the cycle.
/// Every host runs the whole program's cycles (the latency is the largest first cycle of any
/// host), so that the ranks' cycles correspond.
///
/// Mapped tokens: a GPU's colour whose slots are at most PlanOptions::mapped_bytes at the defaults
/// of the runtime params, and whose members no transfer touches but those between the GPU and a
/// CPU of its host, lives in mapped host memory (PlanColour::mapped): the GPU's kernels read and
/// write it through its device pointer. A transfer into or out of it (Entry::mapped) is no copy
/// call of the GPU's but a std::memcpy of the CPU end's thread, a step of that CPU's cycle
/// (Step::Kind::mapped_copy); the CPU is then a neighbour of the GPU, which releases a cycle to
/// its CPUs only once it has finished, kernels included (GpuCycles::mapped). Small tokens so
/// save a GPU's cycle its tiny copies (each costs the GPU several us); large ones are copied, as
/// a kernel reading host memory goes at the link's speed on every access.
///
/// Migration alternatives (`migrates`, passes/migrations.hpp). With Migrations, each strategy's
/// plan is the union of the base graph G0 and every alternative G1: G0's entries first, as above,
/// then each alternative's new-only entries (all of G1's when its delta is not 0, every entry's
/// iteration moving), named `m<a>_<ident>`, their first cycles shifted by delta and their transfer
/// steps aligned on the union's last one; a PE's order keeps G1's order for G1's entries and G0's
/// for the old-only ones. A G1 buffer that keeps its G0 namesake's storage is that buffer; every
/// other one gets a colour of its own on its PE, after the base's colours: allocated at start-up,
/// never shared with storage the transition uses. The node's instance on the alternative's PE is
/// one more PlanNode of that PE, constructed and init()ed at start-up like the others. Per
/// alternative the plan lists the entries a switch at iteration j* stops (old-only: they run the
/// iterations before j*) and starts (new-only: from j* on, in cycle first_cycle + j); the
/// program runs G0 until a move reprograms those windows.
///
/// Needs: the Program, the Ig, and the Migrations when the program has alternatives. Produces:
/// HostPlans, one HostPlan per host in spec order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/actor_signature.hpp"
#include "ir/ig.hpp"
#include "passes/plan_transfers.hpp"

namespace dfgc {

/// A C++ identifier for a spec name: "p.m@A.g0" -> "p_m_A_g0".
std::string identifier(std::string_view name);

/// A PE as the plan names it.
struct PlanPe {
  std::string name;        ///< "A.g0"
  std::string local_name;  ///< "g0"
  ir::HostId host = 0;
  ir::PeKind kind = ir::PeKind::cpu;
  int device = -1;  ///< CUDA device ordinal on its host; -1 for a CPU
  /// Its C++ names (plan_names.cpp): its spelling in generated names ("A_g0": kPe_A_g0), its
  /// worker class ("Worker_A_g0") and, for a GPU, the worker member that gives its end of the
  /// gpudirect transfers its path ("A_g0_gpudirect_").
  std::string ident{}, worker{}, gpudirect{};
};

/// The names of the files code generation writes for a host, and the C++ namespace of its
/// sources (plan_names.cpp): derived from spec names, unique in the project.
struct PlanFiles {
  /// The host's spelling in generated names: "A" (namespace app::host_A, kGpus_A).
  std::string ident{};
  std::string project{};   ///< the CMake project: the app's name as an identifier
  std::string app_header;  ///< "app.hpp"; "app_A.hpp" on several hosts (each host's own)
  std::string rank;        ///< "rank_A.cpp"
  std::string ns;          ///< "app"; "app::host_A" on several hosts
  /// Per PE of the program, a GPU's source: "rank_A_g0.cu", a number added where two GPUs'
  /// names would join the same way ("rank_A_b_c_2.cu"); empty for a cpu.
  std::vector<std::string> gpu;
  std::string mapped_rings;  ///< "islands/mapped_rings_A.hpp", where the host has mapped rings
};

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

/// One firing, transfer or delay copy: an entry of the window table.
struct Entry {
  enum class Kind : std::uint8_t { firing, transfer, copy };
  Kind kind = Kind::firing;
  std::uint32_t id = 0;    ///< NodeId, TransferId or CopyId
  std::string ident;       ///< "fire_p", "transfer_p_m_A_g0", "copy_c_x_delay_A_cpu"
  std::string label;       ///< for comments: "node p (Producer) @ A.cpu" (dfg::entry_label)
  std::string short_name;  ///< for --stats and --trace: "p (Producer)"
  std::string where;       ///< for --stats: "A.cpu", "A.cpu>A.g0"
  ir::PeId runner = 0;     ///< the PE whose thread runs it
  std::optional<StreamKind> stream;  ///< on a GPU runner, and every transfer within a host
  std::uint32_t first_cycle = 0;
  std::uint32_t step = 0;  ///< a transfer's step without overlap
  /// A host-to-host transfer: this host's end sends or receives it (MPI); none otherwise.
  enum class Net : std::uint8_t { none, send, recv };
  Net net = Net::none;
  /// A host-to-host transfer over a gpudirect link: this host's end is in the memory of this
  /// GPU; none otherwise.
  std::optional<ir::PeId> gpudirect;
  int tag = -1;  ///< a host-to-host transfer's MPI tag; -1 otherwise
  /// A host-to-host transfer: the worker member that holds this host's end (plan_names.cpp):
  /// "i1_b_B_cpu_recv_"; empty otherwise.
  std::string endpoint{};
  std::optional<ir::PeId> peer;  ///< a host-to-host transfer: the PE at the other end
  std::string link;              ///< a transfer's link kind: "pcie", "net", "gpudirect", ...
  std::string type;              ///< a transfer's or copy's token type: bytes_<type>(params)
  std::int64_t bytes = 0;        ///< a transfer's token bytes at the defaults of the runtime params
  /// A transfer's or copy's source and destination slots; a host-to-host transfer's end has the
  /// one on its own host only.
  std::optional<SlotRef> read, write;
  ir::BufferId to = 0;         ///< a transfer's destination buffer (on either host)
  std::vector<PortRef> ports;  ///< a firing's, in actor port order
  /// --profile's name: a firing's node ("p"), a transfer's link direction ("A.cpu -> A.g0"), a
  /// mapped one's host copy ("host copy A.cpu -> A.g0": kHostCopyProfile, then its direction);
  /// empty for a delay copy.
  std::string profile;
  std::vector<ir::ParamValue> params;  ///< a firing's node param assignments, in spec order
  int alternative = -1;  ///< a new-only entry of migration alternative `alternative`; -1: G0's
  /// A transfer of an order-only token (ir::TokenType::order_only: a mapped fifo edge between a
  /// CPU island and a GPU island): it copies nothing. It keeps a transfer's place (its stream,
  /// its step, the neighbours and stream orders its slots give), which orders the consumer
  /// island's firing of an iteration after the producer's.
  bool order_only = false;
  /// A transfer between a CPU and a GPU's mapped colour: run by the CPU end (runner) as a host
  /// copy, on no stream.
  bool mapped = false;
};

/// The largest slot, in bytes at the defaults of the runtime params, of a GPU's colour of tokens
/// exchanged with a CPU that the plan maps into host memory (mapped tokens, the file comment):
/// `dfgc --mapped-tokens=BYTES`, 0 for none. bench/results/overlap/h100-2026-11-24-mapped_tokens
/// measures the crossover this default stays below.
inline constexpr std::int64_t kMappedBytes = 4096;

/// The start of a mapped transfer's --profile name (Entry::profile): dfg::Profile times it as a
/// host copy of its CPU end, not as its link (runtime/include/dfg/profile.hpp).
inline constexpr std::string_view kHostCopyProfile = "host copy ";

/// What the plan is asked to decide beyond the program.
struct PlanOptions {
  std::int64_t mapped_bytes = kMappedBytes;  ///< the mapped tokens' threshold (kMappedBytes)
};

/// A param of the spec, as app.hpp declares it.
struct PlanParam {
  std::string name;
  std::int64_t value = 0;  ///< after -D overrides; for a runtime param, its default
  bool runtime = false;
  std::optional<ir::TuneRange> bounds;  ///< a runtime param's bounds
};

/// A token type, as app.hpp sizes it.
struct PlanType {
  std::string name;        ///< "Matrix"
  std::string elem;        ///< its element type's spec name: "f32"
  std::string cxx_elem;    ///< the same in C++: "float"
  std::string count_text;  ///< elements per token, as the spec writes it: "N * N"
  ir::SizeTerm count;      ///< the same as a tree, for the printed expressions
};

/// A host-to-host transfer of the program (either host's end), as README's table lists it.
struct NetTransfer {
  int tag = 0;
  ir::Strategy strategy = ir::Strategy::overlap;
  std::string from, to;  ///< its buffers: "p.m@A.cpu", "p.m@B.cpu"
  bool gpudirect = false;
  int alternative = -1;  ///< a transfer of migration alternative `alternative`'s entries; -1: G0's
};

/// A node of the host, as its worker declares, sets up and fires it.
struct PlanNode {
  ir::NodeId id = 0;
  std::string name;   ///< "p"
  std::string actor;  ///< the actor's spec name: "Producer"
  ir::ActorId actor_id = 0;
  std::string class_name;  ///< the C++ class of its implementation on its PE: "Producer"
  ir::PeId pe = 0;
  std::vector<std::string> port_types;  ///< per actor port, its block's type: "Matrix", "Frame_x2"
  std::vector<ir::ParamValue> params;   ///< its param assignments, in the actor's order
  std::uint32_t repetitions = 1;        ///< its firings per cycle (HostPlan::batch iterations)
  /// The header of its implementation on its PE: as the spec writes it ("fir.hpp"), and the path
  /// dfgc opened (ActorFiles::headers' key).
  std::string header, header_path;
  std::vector<std::string> libraries;  ///< its actor's CUDA libraries (`uses cufft;`), spec order
  /// Its implementation takes whole blocks (`block`): one call a cycle makes the `repetitions`
  /// firings. Otherwise each firing is a call of its own, on its part of each block.
  bool block = false;
  int alternative = -1;  ///< the instance of migration alternative `alternative`; -1: the base one
  std::vector<std::string> port_names{};  ///< per actor port, for the plan's dump
  /// How its implementation on its PE is called (the actor front end's finding); empty when the
  /// plan was made without reading the actors (--no-actors, dfgc map's models).
  std::optional<ActorSignature> signature{};
  /// The index in HostPlan::handoffs of its node when this instance takes part in a move that is
  /// handed over through this host; -1 otherwise.
  int handoff = -1;
  /// Its members in its PE's worker (plan_names.cpp): the dfg::Node ("f_node_") and, per actor
  /// port, the initial tokens an input reads ("f_initial1_"; empty where none). Every member
  /// named from a spec name ends with a suffix of its own (_node_, _initial<port>_, _send_,
  /// _recv_, _gpudirect_, _view_), none the end of another nor of a fixed member, and spec names
  /// neither end with '_' nor contain '__' (sema): no two members meet, and none hides a name of
  /// namespace scope (those never end with '_').
  std::string member{};
  std::vector<std::string> initial_members{};
  /// In a program its replicas unfold (ir::Program::copies > 1): which copy of its spec node it
  /// is (ir::Node::copy). Its firing of cycle j handles block j x ProgramPlan::copies + copy of
  /// the node's blocks (what dfg::Node::at is given).
  std::uint32_t copy = 0;
  std::string origin{};  ///< the spec node it is a copy of: "f" for "f#1"; empty: `name`
  /// An earlier copy of its spec node on this PE holds the instance it fires (`member`, named
  /// from the spec node): the worker declares and sets up that one only.
  bool shares_instance = false;
};

/// A ring of an island (ir::IslandFifo) as generated code declares it.
struct PlanIslandFifo {
  std::string name;           ///< the edge: "d1.y -> m1.x"
  std::string ident;          ///< its C++ member name: "fifo3"
  std::string elem;           ///< the C++ element type: "std::int32_t"
  std::int64_t capacity = 1;  ///< in elements, before the ring rounds it up to a power of two
  bool stated = false;        ///< `fifo N`, else computed
  /// A ring in mapped memory that this island shares with an island on a GPU or a CPU of the host:
  /// its PlanMappedRing's ident ("ring_d1_y"); empty: the island's own ring.
  std::string mapped;
};

/// A fifo edge between an island on a CPU and one on a GPU of the host: one ring in mapped pinned
/// memory (dfg::MappedRing), zero-copy, that both islands use directly, declared once for the
/// host (dfg_islands/mapped_rings.hpp).
struct PlanMappedRing {
  std::string name;      ///< the edge: "d1.y -> m1.x"
  std::string ident;     ///< "ring_d1_y"
  std::string elem;      ///< the C++ element type
  std::string from, to;  ///< the producing and the consuming island
  /// `fifo N`; else computed: `per_iteration` (the larger island's largest boundary token) times
  /// `iterations`, the most iterations the producer's firings can be ahead of the consumer's
  /// finished ones in either strategy: the distance of their first cycles, plus one, plus the
  /// GPU's cycles in flight (1 without overlap), so that the producer never finds it full.
  bool stated = false;
  std::int64_t per_iteration = 1;
  std::uint32_t iterations = 1;
  std::int64_t capacity = 1;
};

/// A dynamic node of an island: its object and, per port, its ring.
struct PlanIslandMember {
  std::string name;   ///< "m1"
  std::string actor;  ///< "Mul"
  ir::ActorId actor_id = 0;
  std::string class_name;           ///< "Mul"
  std::string header, header_path;  ///< as in PlanNode
  std::vector<ir::ParamValue> params;
  std::vector<std::uint32_t> port_fifo;  ///< per actor port: its ring's index in PlanIsland::fifos
  std::vector<bool> port_input;          ///< per actor port
  /// A parallel action (on a GPU): per actor port, the elements one firing takes or gives.
  /// Empty: the member fires by step on one thread.
  std::vector<std::uint32_t> parallel{};
  std::vector<std::string> port_names{};  ///< per actor port
  /// Of a parallel action: the most firings its rings can hold at once (per port, the ring's
  /// power-of-two capacity over the port's count; the smallest), which the island's block size
  /// serves.
  std::uint32_t batch = 0;
  std::optional<ActorSignature> signature{};  ///< as in PlanNode
};

/// A boundary port of an island's node: its adapter and its ring.
struct PlanIslandPort {
  std::string name;   ///< the island actor's port: "d1_x"
  bool input = true;  ///< Unpack (a static token into the ring) or Pack (the ring into a token)
  std::uint32_t fifo = 0;
  std::int64_t elements = 0;  ///< of its token; of a bounded one, its capacity
  /// A token of a bounded type: an input unpacks its length, an output packs what the ring
  /// holds, up to the capacity.
  bool bounded = false;
  /// A fifo edge to or from an island on another CPU: what the ring holds beyond an output
  /// token's capacity waits for the next firing. Otherwise an output takes all the island
  /// produced in its iteration, and more than the capacity is a run-time error.
  bool between = false;
  /// A mapped fifo edge (PlanMappedRing): no adapter; its token (order-only) is not touched.
  bool mapped = false;
  /// A copied fifo edge to or from an island on a GPU or a CPU of the host (`--fifos=copied`): a
  /// counted token (dfg/counted.hpp): an output packs what the ring holds, up to `elements`,
  /// after the count cell and sets it; an input unpacks the count.
  bool counted = false;
};

/// An island on one of the host's CPUs or GPUs: its node's class, generated
/// (codegen/island.hpp), runs the members to quiescence in each firing: on the CPU's thread, or
/// on the GPU by one cooperative kernel a firing.
struct PlanIsland {
  std::string name;        ///< "island_d1", its node's name
  std::string class_name;  ///< "Island_d1"
  std::string header;      ///< the generated header: "dfg_islands/island_d1.hpp" (".cuh": GPU)
  ir::PeId pe = 0;
  ir::PeKind kind = ir::PeKind::cpu;  ///< of its PE; the members' implementations of that kind
  std::vector<PlanIslandMember> members;
  std::vector<PlanIslandFifo> fifos;
  std::vector<PlanIslandPort> ports;  ///< in the island actor's port order
  /// Threads of each block of a GPU island's kernel (one block size for all: a cooperative
  /// launch has one): 1 when every member steps; with a parallel member, its largest batch
  /// rounded up to a warp, at most kIslandThreads.
  std::uint32_t threads = 1;
};

/// The most threads of a GPU island's block: 256 threads of at most 255 registers each fit an
/// SM's 64 Ki registers, so the kernel launches whatever registers its actors need.
inline constexpr std::uint32_t kIslandThreads = 256;

/// What switching to one migration alternative at iteration j* changes on this host, in one
/// strategy: indices into the strategy's entries.
struct PlanSwitch {
  std::uint32_t delta =
      0;  ///< the shift of the alternative's entries (already in their first cycles)
  /// Whether the alternative can switch back to the base with no shift: every node idles 0
  /// cycles at the switch (its first cycle in G1 + delta is its first cycle in G0).
  bool reversible = false;
  std::vector<std::size_t> stop;   ///< old-only: they run the iterations before j*
  std::vector<std::size_t> start;  ///< new-only: they run the iterations from j* on
};

/// One migration alternative of the program (every host lists all of them, in the same order).
struct PlanMigration {
  ir::NodeId node = 0;
  std::string node_name;
  ir::PeId from = 0, to = 0;
  ir::PerStrategy<PlanSwitch> sides;
  /// Between two hosts: the MPI tag of the node's state when it moves (save/restore); -1 otherwise.
  int state_tag = -1;
  /// The index in HostPlan::handoffs of its node when this host hands the move over
  /// (plan_handoffs()); -1 otherwise.
  int handoff = -1;
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
  /// Per PE: the C++ name its worker views each touched buffer by (plan_names.cpp), a loop's
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
};

/// What every host's plan shares: the spec's names, the run's shape, the program's tables. One
/// per program (HostPlans::program); each HostPlan points at it.
struct ProgramPlan {
  std::string app_name;   ///< the spec's app: "overlap_two_gpus"
  std::string arch_name;  ///< its architecture: "two_gpus"
  /// The spec's file name alone ("two_gpus.dfg"), as generated files name their source (as protoc
  /// writes `// source: foo.proto`): a path relative to the working directory, the output or the
  /// checkout would tie the text to where dfgc ran; the spec's other modules are its imports.
  std::string spec_name;
  /// The app's `batch`: the iterations a cycle runs (ir::Program::batch); the nodes' repetitions
  /// are already scaled by it.
  std::uint32_t batch = 1;
  /// The copies its replicas unfold each node into (ir::Program::copies): each copy's firings
  /// run batch / copies iterations a cycle.
  std::uint32_t copies = 1;
  std::vector<PlanPe> pe_table;         ///< every PE of the program, by PeId
  std::vector<std::string> host_names;  ///< every host of the program, by HostId
  std::vector<PlanParam> params;        ///< every param of the spec, in spec order
  std::vector<PlanType> types;          ///< every token type, in spec order
  /// Every host-to-host transfer of the program, the alternatives' that the union runs
  /// included, by tag.
  std::vector<NetTransfer> net_transfers;
  /// On several hosts with migration alternatives: the MPI tag of the ranks' agreement on a live
  /// move (after every transfer's); -1 otherwise.
  int control_tag = -1;
  std::int64_t mapped_bytes = kMappedBytes;  ///< the mapped tokens' threshold it was planned with

  const PlanPe& pe(ir::PeId p) const { return pe_table[p]; }
  /// Whether the program spans several hosts (an MPI program, one rank per host).
  bool multi_host() const { return host_names.size() > 1; }
};

/// The plan of one host.
struct HostPlan {
  ir::HostId host = 0;
  std::string host_name;
  std::shared_ptr<const ProgramPlan> program;  ///< what every host's plan shares
  std::vector<ir::PeId> cpus;                  ///< every cpu of the host, the first one first
  std::vector<ir::PeId> gpus;  ///< the GPUs that run an entry or hold storage; the others are
                               ///< never opened
  ir::PerStrategy<StrategyPlan> strategies;
  std::vector<PlanNode> nodes;                ///< the nodes on the host's PEs, in schedule order
  std::vector<std::set<StreamKind>> streams;  ///< per PE (GPUs): every stream either strategy uses
  std::vector<std::uint32_t> colour_count;    ///< per PE: the most colours of either strategy
  std::vector<PlanSharing> sharing;           ///< per PE (the host's)
  std::vector<PlanMigration> migrations;      ///< every alternative of the program, in order
  /// Whether the plan holds the implementations' signatures (PlanNode::signature) and the state
  /// handoffs: the actors were read.
  bool signed_nodes = false;
  /// The nodes this host hands over when they move (dfg::StateHandoff), in node order: a move
  /// with both ends on the host, so that the new instance's first firing follows the old one's
  /// last (a sink's output stays in order), its state included where both implementations have
  /// save/restore; a move with one end here and the other on another host when both have
  /// save/restore (through its state tag).
  std::vector<ir::NodeId> handoffs;
  std::vector<PlanIsland> islands;           ///< the islands on the host's cpus, in spec order
  std::vector<PlanMappedRing> mapped_rings;  ///< in the order of their edges in the islands
  PlanFiles files;

  /// The first cpu: the host end of its links, its MPI thread.
  ir::PeId cpu() const { return cpus.front(); }
  const PlanPe& pe(ir::PeId p) const { return program->pe(p); }
  /// Whether this host has a GPU PE.
  bool has_gpu() const { return !gpus.empty(); }
  /// Whether the program spans several hosts (an MPI program, one rank per host).
  bool multi_host() const { return program->multi_host(); }
  /// Whether this host sends or receives a transfer over a gpudirect link.
  bool has_gpudirect() const;
  /// The names of the nodes of `handoffs`, in its order.
  std::vector<std::string> handoff_names() const;
  /// The host's PEs, cpus first, then its gpus.
  std::vector<ir::PeId> pes() const;
  /// The nodes on `pe`, in schedule order.
  std::vector<const PlanNode*> nodes_on(ir::PeId pe) const;
  /// Node `n`'s instance on `pe` (the base one, or an alternative's).
  const PlanNode& node(ir::NodeId n, ir::PeId pe) const;
};

struct HostPlans {
  std::shared_ptr<const ProgramPlan> program;
  std::vector<HostPlan> hosts;  ///< by HostId
};

/// The cycles of `gpu` in `sp` run ahead of its thread (with overlap): its streams, and their
/// orders derived from the lags of the slots its entries touch (StreamOrder).
GpuCycles gpu_cycles(const HostPlan& h, const StrategyPlan& sp, ir::PeId gpu);

struct Migrations;

/// Plans every host of the program; with `migrations`, the union of the base and every
/// alternative; with `signatures` (the actors were read), how each node is called and the state
/// handoffs (HostPlan::signed_nodes), which code generation needs.
HostPlans plan_hosts(const ir::Program& program, const ir::Ig& ig,
                     const Migrations* migrations = nullptr, const PlanOptions& options = {},
                     const ActorSignatures* signatures = nullptr);

/// The plan, host by host, PE by PE, one item a line, by spec names only (`dfgc schedule
/// --emit=plan`, --dump-after=plan_hosts).
std::string dump(const HostPlans& plans);

}  // namespace dfgc
