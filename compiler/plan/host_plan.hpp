/// \file
/// The plan of one host (plan.hpp): its nodes, both strategies' plans, its islands, its
/// migration alternatives and state handoffs, and the names of its generated files.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/actor_signature.hpp"
#include "ir/ig.hpp"
#include "plan/program_plan.hpp"
#include "plan/strategy_plan.hpp"

namespace dfgc {

/// The names of the files code generation writes for a host, and the C++ namespace of its
/// sources (names.cpp): derived from spec names, unique in the project.
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

/// An input that peeks (`in Sample x rate 4 peek 64 = 0.5;`, ir::Port::history): the node's own
/// storage keeps the last `history` tokens of one cycle's block before the next one, so that a
/// firing's pointer sees the tokens before its rate's (dfg::PeekWindow).
struct PlanWindow {
  std::uint32_t port = 0;
  std::string port_name;      ///< "x"
  std::uint32_t history = 0;  ///< tokens: peek - rate
  std::string token;          ///< the port's token type: elements_<token>(params) a token
  std::string elem;           ///< its C++ element type
  std::string value;          ///< the history's elements before the stream's own, a C++ literal
  std::string member{};       ///< "f_window1_" (names.cpp)
  /// Its index in HostPlan::checkpoint's nodes ("f.x window": a checkpoint holds the history);
  /// -1 where the program takes none.
  int checkpoint = -1;
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
  std::uint64_t warm_up = 0;  ///< its first firings that see values before the stream (ir::Node)
  /// The header of its implementation on its PE: as the spec writes it ("fir.hpp"), and the path
  /// dfgc opened (ActorFiles::headers' key).
  std::string header, header_path;
  std::vector<std::string> libraries;  ///< its actor's CUDA libraries (`uses cufft;`), spec order
  /// Its actor says `ends stream;`: its context may end the run's stream (dfg::StreamEnd).
  bool ends_stream = false;
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
  /// Its index in HostPlan::checkpoint's nodes when its actor has save/restore (a checkpoint
  /// holds its state); -1 otherwise. Per actor port, the index in the checkpoint's inputs of an
  /// input fed by an edge with a delay; -1 for the others.
  int checkpoint = -1;
  std::vector<int> checkpoint_inputs{};
  /// Its members in its PE's worker (names.cpp): the dfg::Node ("f_node_") and, per actor
  /// port, the initial tokens an input reads ("f_initial1_"; empty where none), and each window's
  /// ("f_window1_"). Every member
  /// named from a spec name ends with a suffix of its own (_node_, _initial<port>_, _window<port>_,
  /// _send_, _recv_, _gpudirect_, _view_), none the end of another nor of a fixed member, and spec
  /// names neither end with '_' nor contain '__' (sema): no two members meet, and none hides a name
  /// of namespace scope (those never end with '_').
  std::string member{};
  std::vector<std::string> initial_members{};
  std::vector<PlanWindow> windows{};  ///< its inputs that peek, in port order
  /// In a program its replicas unfold (ir::Program::copies > 1): which copy of its spec node it
  /// is (ir::Node::copy). Its firing of cycle j handles block j x ProgramPlan::copies + copy of
  /// the node's blocks (what dfg::Node::at is given).
  std::uint32_t copy = 0;
  std::string origin{};  ///< the spec node it is a copy of: "f" for "f#1"; empty: `name`

  /// The spec node's name: `origin` for a copy, else `name`.
  const std::string& spec_name() const { return origin.empty() ? name : origin; }
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
  /// The edge's `delay D`: elements the island's own ring holds before the stream, each
  /// `initial_value` (a C++ literal); a mapped ring holds its own (PlanMappedRing::initial).
  std::uint32_t initial = 0;
  std::string initial_value = "0";
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
  std::int64_t capacity = 1;  ///< computed: per_iteration x iterations + initial
  /// The edge's `delay D`: the elements it holds before the stream, each `initial_value`.
  std::uint32_t initial = 0;
  std::string initial_value = "0";
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
  /// A parallel action: per actor port, the elements one firing takes or gives. Empty: the
  /// member fires by step on one thread.
  std::vector<std::uint32_t> parallel{};
  std::vector<std::string> port_names{};  ///< per actor port
  /// Of a parallel action: the most firings its rings can hold at once (per port, the ring's
  /// power-of-two capacity over the port's count; the smallest): a GPU island's block size
  /// serves it, a CPU fires up to that many in one batch.
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
/// on the GPU by one kernel a firing.
struct PlanIsland {
  std::string name;        ///< "island_d1", its node's name
  std::string class_name;  ///< "Island_d1"
  std::string header;      ///< the generated header: "dfg_islands/island_d1.hpp" (".cuh": GPU)
  ir::PeId pe = 0;
  ir::PeKind kind = ir::PeKind::cpu;  ///< of its PE; the members' implementations of that kind
  std::vector<PlanIslandMember> members;
  std::vector<PlanIslandFifo> fifos;
  std::vector<PlanIslandPort> ports;  ///< in the island actor's port order
  /// A GPU island's batch: the threads of each block of its grid kernel (one block size for
  /// all: a cooperative launch has one), the least of its block kernel's block: 1 when every
  /// member steps; with a parallel member, its largest batch rounded up to a warp, at most
  /// kIslandThreads.
  std::uint32_t threads = 1;

  /// The ports with an adapter (all but the mapped ones): a GPU island's kernel runs them as
  /// members before its nodes.
  std::size_t adapters() const {
    return static_cast<std::size_t>(std::count_if(
        ports.begin(), ports.end(), [](const PlanIslandPort& p) { return !p.mapped; }));
  }
  /// The threads of a GPU island's block (dfg::GpuIslandKernel::block): a warp per adapter and
  /// per node, and at least the batch; the run caps it at what the device runs the kernel with.
  std::size_t block_threads() const {
    return std::max<std::size_t>(std::min<std::size_t>(32 * (adapters() + members.size()), 1024),
                                 threads);
  }
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
  /// A joint alternative (Migration::parts): the single alternatives it makes together, and its
  /// moves' text ("g:A.c2 + a:A.c1"); node, from and to are then its first part's.
  std::vector<std::size_t> parts{};
  std::string moves{};
  ir::PerStrategy<PlanSwitch> sides;
  /// Between two hosts: the MPI tag of the node's state when it moves (save/restore); -1 otherwise.
  int state_tag = -1;
  /// The index in HostPlan::handoffs of its node when this host hands the move over
  /// (plan_handoffs()); -1 otherwise.
  int handoff = -1;
};

/// What a checkpoint of the host holds (dfg/checkpoint.hpp; plan_checkpoints()).
struct PlanCheckpoint {
  /// The input of a node fed by an edge with a delay: the tokens it reads in its first `delay`
  /// cycles after the checkpoint's iteration.
  struct Input {
    std::string name;  ///< "f.state"
    std::uint32_t delay = 0;
    std::string type;  ///< its block's type: bytes_<type>(params) a token
  };
  std::uint64_t spec = 0;     ///< the graph's digest: types, params, actors, nodes, edges
  std::uint64_t mapping = 0;  ///< the placement's: the arch, each node's PE and alternatives
  /// The nodes with save/restore and the windows ("f.x window"), in the host's node order.
  std::vector<std::string> nodes;
  std::vector<Input> inputs;
  /// "node 'x' (class X) keeps data member 'm'": state that a restart cannot give back.
  std::vector<std::string> unsaved;
  std::string refused;  ///< why the program takes no checkpoints; empty when it can
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
  /// Without overlap the entries are those with overlap, in the same order (most programs): one
  /// enum of entries serves both strategies, and a loop of either may serve both
  /// (PlanSharing::loop).
  bool same_entries = false;
  std::vector<PlanMigration> migrations;  ///< every alternative of the program, in order
  /// Whether the plan holds the implementations' signatures (PlanNode::signature) and the state
  /// handoffs: the actors were read.
  bool signed_nodes = false;
  /// The nodes this host hands over when they move (dfg::StateHandoff), in node order: a move
  /// with both ends on the host, so that the new instance's first firing follows the old one's
  /// last (a sink's output stays in order), its state included where both implementations have
  /// save/restore; a move with one end here and the other on another host when both have
  /// save/restore (through its state tag).
  std::vector<ir::NodeId> handoffs;
  PlanCheckpoint checkpoint;                 ///< once the nodes are signed
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

}  // namespace dfgc
