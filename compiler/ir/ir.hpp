/// \file
/// The checked program that every pass after sema consumes: parameters, token types, the data-flow
/// graph (Dfg), the architecture graph (ArchGraph) and the mapping of nodes to processing elements.
/// All names are resolved to indices; all vectors are in spec order, which is the tie-break order
/// of every later pass. Nothing here points into the AST.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "support/source_manager.hpp"

namespace dfgc::ir {

using ActorId = std::uint32_t;
using NodeId = std::uint32_t;
using EdgeId = std::uint32_t;
using TypeId = std::uint32_t;
using PeId = std::uint32_t;
using HostId = std::uint32_t;
using LinkId = std::uint32_t;
using StructId = std::uint32_t;

/// c32 and c64 are complex numbers (std::complex<float>, std::complex<double>): I/Q samples.
/// `record` is a struct of the spec (`struct Hit { ... }`): the token type says which
/// (TokenType::record); the functions below take scalar and complex types only.
enum class ElemType { f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, c32, c64, record };

/// Whether `t` is a complex type (c32, c64).
constexpr bool is_complex(ElemType t) { return t == ElemType::c32 || t == ElemType::c64; }

/// The spec's spelling: "float", "double", "int8" ... "uint64", "cfloat", "cdouble".
std::string_view spec_name(ElemType t);
/// The C++ spelling used in generated code: "float", "double", "std::int8_t" ...
std::string_view cxx_name(ElemType t);
/// The canonical type as Clang prints it on x86-64 Linux: "float", "int", "unsigned char",
/// "long"...
std::string_view canonical_cxx_name(ElemType t);
std::size_t elem_size(ElemType t);
/// The alignment of an element type on x86-64 Linux (and in CUDA): its size, that of a complex
/// type's parts.
std::size_t elem_align(ElemType t);
/// A scalar or complex element type; nullopt for any other name (a struct's too).
std::optional<ElemType> parse_elem_type(std::string_view spec_spelling);

/// A field of a struct: an element type, or a fixed array of them (`float amp[4];`).
struct StructField {
  std::string name;
  ElemType elem = ElemType::f32;  ///< scalar or complex, never record
  std::uint32_t count = 1;        ///< the array's elements; 1 for a single element
  bool array = false;             ///< declared `name[count]`
  std::size_t offset = 0;         ///< bytes from the start of the struct, as C lays it out
  SourceLoc loc;                  ///< the field's name
};

/// `struct Hit { float time; int32 channel; }`: a token element of plain fields that the actors
/// name in C++ as `cxx_name` (a class of the user's headers, checked against these fields).
/// The layout is C's: each field at the next multiple of its alignment, the size rounded up to
/// the struct's alignment (that of its most aligned field).
struct StructType {
  std::string name;      ///< in the spec
  std::string cxx_name;  ///< in C++: the spec name, or the one given (`struct Hit = "rx::Hit"`)
  std::vector<StructField> fields;
  std::size_t size = 0;
  std::size_t align = 1;
  SourceLoc loc;  ///< the struct's name
};

/// Lays `s` out as C does: sets each field's offset, the size and the alignment.
void lay_out(StructType& s);

/// A size expression's tree, with params by name: what generated code prints, operator by
/// operator, to compute a size from the runtime params when the program starts.
struct SizeTerm {
  enum class Kind { integer, param, negate, add, subtract, multiply, divide, modulo, min, max };
  Kind kind = Kind::integer;
  std::int64_t value = 0;          ///< integer: the literal
  std::string param;               ///< param: its name
  bool runtime = false;            ///< param: whether it is a runtime param
  std::vector<SizeTerm> operands;  ///< negate: one; the operators, min and max: two
};

/// A size that may depend on runtime params. `value` is the value used at compile time (the
/// default of every runtime param); `text` is the expression as written, with params by name
/// ("N * N"); `runtime` says whether any runtime param occurs in it; `tree` is the expression.
struct SizeExpr {
  std::int64_t value = 0;
  std::string text;
  bool runtime = false;
  SizeTerm tree;
};

/// The range `dfgc map` may choose a tunable param's value in, both ends included.
struct TuneRange {
  std::int64_t min = 0;
  std::int64_t max = 0;
};

struct Param {
  std::string name;
  std::int64_t value = 0;  ///< after -D overrides; for a runtime param, its default
  bool runtime = false;
  SourceLoc loc;
  std::optional<TuneRange> tune;  ///< set for `param split = 20 in [1, 39];`
  /// A runtime param's bounds, `runtime param N = 256 in [1, 65536];`: the generated program
  /// refuses a value outside them.
  std::optional<TuneRange> bounds;
};

struct TokenType {
  std::string name;
  ElemType elem = ElemType::f32;
  SizeExpr count;  ///< elements per token; of a bounded type, the capacity
  SourceLoc loc;
  /// `uint8[<= N]`: each token holds 0 to `count` elements, its length travelling with it.
  /// Buffers are sized at the capacity; transfers move the used bytes only.
  bool bounded = false;
  /// The token of a mapped fifo edge between a CPU island and a GPU island (IslandFifo::mapped):
  /// one element that nothing writes and no transfer moves; its edge orders the two firings.
  bool order_only = false;
  /// Of a token of structs (elem is ElemType::record): the struct and what a token's users need
  /// of it, copied from Program::structs so that the type alone tells its bytes and its names.
  struct Record {
    StructId id = 0;
    std::string name;  ///< in the spec
    std::string cxx;   ///< in C++
    std::size_t size = 0;
  };
  std::optional<Record> record{};
  /// The element's spelling in the spec ("float", "Hit"), in C++ ("float", "rx::Hit"), its bytes.
  std::string_view elem_spec() const { return record ? record->name : spec_name(elem); }
  std::string_view elem_cxx() const { return record ? record->cxx : cxx_name(elem); }
  std::size_t elem_bytes() const { return record ? record->size : elem_size(elem); }
  /// The element as generated code spells it: a struct from the global namespace ("::rx::Hit"),
  /// where no name of the generated code's namespace hides it.
  std::string elem_code() const {
    if (!record) return std::string(cxx_name(elem));
    return record->cxx.rfind("::", 0) == 0 ? record->cxx : "::" + record->cxx;
  }
  std::int64_t bytes() const { return count.value * static_cast<std::int64_t>(elem_bytes()); }
};

enum class PortDir { in, out };

struct Port {
  std::string name;
  PortDir dir = PortDir::in;
  TypeId type = 0;
  SourceLoc loc;
  std::uint32_t rate = 1;  ///< tokens one firing consumes or produces (`rate`)
  /// An input that peeks (`peek 64 = 0.5`): the tokens before its rate's that a firing sees too,
  /// peek - rate, and their elements' value before the stream's own (a C++ literal); 0 without.
  std::uint32_t history = 0;
  std::string history_value{};
  SourceLoc peek_loc{};  ///< the `peek` keyword
  /// A port of a dynamic actor: the element type its ring carries (`in int32 x fifo 8;`); `type`
  /// is then unused.
  std::optional<ElemType> fifo_elem{};
  /// Of a dynamic input, `fifo N`: the capacity of the ring it reads, in elements; nullopt when
  /// dfgc computes it (the island's largest boundary token).
  std::optional<std::int64_t> fifo_capacity{};
  SourceLoc fifo_loc{};  ///< the `fifo` keyword
  /// `mappable`: the GPU implementation touches each byte of the token at most once a firing,
  /// from many threads at once, so the plan may leave a small token exchanged with a CPU in mapped
  /// host memory (plan.hpp, mapped tokens). Never on a generated island actor's ports: its
  /// kernel is slower on mapped boundary tokens (bench/results/suite).
  bool mappable = false;
  /// A port of a group (`in T x[N];`): the group's name (x; the port is x0 .. x{N-1}) and the
  /// port's place in it. `fire` takes the group's ports as one dfg::Ports parameter named x.
  /// Empty for a single port.
  std::string group{};
  std::uint32_t group_index = 0;
};

enum class PeKind { cpu, gpu };
std::string_view to_string(PeKind k);

/// An actor param's value as sema evaluated it, in the param's type: an integer (int, int64), a
/// float (rounded to float), a double or a bool.
using ParamScalar = std::variant<std::int64_t, float, double, bool>;

/// `v` as one number, as a costs file (JSON) holds it: an integer converted, a float as the
/// double its shortest decimal text reads as (0.1f: 0.1, as --profile writes it), true 1, false 0.
double to_double(const ParamScalar& v);

/// An actor parameter's declared type and default, as C++ literal text ("100", "2.5", "true").
struct ActorParam {
  std::string name;
  std::string type;  ///< int, int64, float, double, bool
  std::optional<std::string> default_literal;
  SourceLoc loc;
  std::optional<ParamScalar> default_value =
      {};  ///< the default evaluated: default_literal's value
};

struct Impl {
  PeKind kind = PeKind::cpu;
  std::string header;       ///< path as written in the spec
  std::string header_path;  ///< resolved relative to the spec file's directory (as dfgc opens it)
  std::string class_name;
  SourceLoc loc;
  SourceLoc header_loc;  ///< the header string in the spec (invalid: use loc)
  /// `block`: one call of fire per cycle takes the node's whole blocks (its q firings; one kernel
  /// launch on a GPU). Without it, fire is called q times per cycle, once per firing.
  bool block = false;
  /// `parallel (in 64, out 64)` on an implementation of a dynamic actor: per actor port, the
  /// elements one firing of its parallel action takes or gives (every port has one, at least 1);
  /// a GPU island fires it n times at once on n threads. Empty: the class fires by `step`.
  std::vector<std::uint32_t> parallel{};
  SourceLoc parallel_loc{};  ///< the `parallel` keyword
};

struct Actor {
  std::string name;
  std::vector<Port> ports;  ///< in declaration order, inputs and outputs mixed
  std::vector<ActorParam> params;
  std::vector<Impl> impls;
  /// The CUDA libraries its GPU implementation calls (`uses cufft;`), in spec order: the
  /// generated CMakeLists.txt links them (CUDA::cufft) when a node of the actor runs on a GPU.
  std::vector<std::string> libraries;
  SourceLoc loc;
  /// `actor Mul dynamic`: its ports are rings of elements, its class fires by `bool step(...)`,
  /// and its nodes join an island (sema/islands.hpp) instead of the static graph.
  bool dynamic = false;
  /// `ends stream;`: its fire may end the run's stream (ctx.end_stream()); the location of
  /// `ends`. Its nodes' sinks must all be downstream of them (sema/graph.cpp).
  std::optional<SourceLoc> ends{};
  /// Made by sema for an island: the static actor whose one node runs the island (its index in
  /// Program::islands); its class is generated (codegen/island.hpp).
  std::optional<std::uint32_t> island{};

  const Impl* impl_for(PeKind kind) const;
  std::optional<std::uint32_t> port_index(std::string_view name) const;
  /// The ports of group `name` in order (`in T x[N];`); empty when no group has that name.
  std::vector<std::uint32_t> group_ports(std::string_view name) const;
};

/// The value a node gives an actor parameter (its own or the actor's default).
struct ParamValue {
  std::string name;
  std::string literal;                  ///< C++ literal text
  SourceLoc loc;                        ///< the assignment in the node, or the actor's default
  ParamScalar value = std::int64_t{0};  ///< the value sema evaluated, which `literal` spells
};

/// A PE of a node's replica set and its share of the iterations.
struct Replica {
  PeId pe = 0;
  std::uint32_t weight = 1;
  SourceLoc loc;  ///< the PE reference in the set
};

/// A PE a node may move to while the program runs (`migrates B.g1` in the spec).
struct Alternative {
  PeId pe = 0;
  SourceLoc loc;  ///< the PE reference after `migrates`
};

struct Node {
  std::string name;
  ActorId actor = 0;
  std::vector<ParamValue> params;  ///< one per actor param, in the actor's order
  SourceLoc loc;
  SourceLoc mapping_loc;  ///< the `@ A.g0` of the spec
  /// For a free node (`@ any gpu`, `@ B.*`): the PEs `dfgc map` may choose, in arch order; the
  /// mapping then holds the first as a placeholder. Empty for a pinned node.
  std::vector<PeId> candidates;
  /// For a free node `@ any cpu replicas in [MIN, MAX]`: how many shares of its iterations
  /// `dfgc map` may deal it over (1 and 1 without a range).
  std::uint32_t replicas_min = 1;
  std::uint32_t replicas_max = 1;
  SourceLoc replicas_loc;  ///< the word `replicas`
  /// For `dfgc map` (SemaOptions::replica_shares): the free node's iterations are dealt over
  /// this many shares, each placed on its own among the candidates (shares on one PE add up to a
  /// weight). 0: not dealt. Sema unfolds the graph as for a replica set of as many PEs.
  std::uint32_t shares = 0;
  /// The PEs it may migrate to, in spec order: each has an implementation of the actor and a path
  /// to and from the PEs of the node's neighbours; none is the node's own PE.
  std::vector<Alternative> alternatives;
  /// `@ {A.g0, A.g1: 2}` as sema read it: the PEs its iterations are dealt over and their
  /// weights. Sema then unfolds the graph (sema/replicas.hpp) and clears it.
  std::vector<Replica> replicas{};
  /// In an unfolded program (Program::copies > 1): the node of the spec this one is a copy of,
  /// and which copy. Copy j of a node handles, in each cycle, the j-th of the cycle's
  /// Program::copies blocks of iterations. Empty and 0 otherwise.
  std::string origin{};
  std::uint32_t copy = 0;
  /// The name of the spec's node: `f` for each copy `f#j` of an unfolded graph.
  const std::string& spec_name() const { return origin.empty() ? name : origin; }
  /// In an unfolded program, a copy of a node dealt over shares: copy mod shares. `dfgc map`
  /// places the copies of one spec node with the same share together (0 for every copy of a
  /// node not dealt).
  std::uint32_t share = 0;
  /// Its spec node's copies run on more than one PE (`@ {...}`): each PE holds an instance of its
  /// own, so the actor must keep nothing between firings. Copies on one PE share one instance.
  bool replicated = false;
  /// Its entry of the repetition vector: how many firings of one iteration (one cycle) its
  /// ports' rates ask for. The node is called once a cycle with the whole block of each port.
  std::uint32_t repetitions = 1;
  /// The node's first firings that see a value from before the stream (sema/warm_up.hpp): a peek
  /// window's history, initial tokens outside a loop, or a token such a firing made upstream.
  std::uint64_t warm_up = 0;
  /// Each input with values from before the stream, and how many tokens its window sees before
  /// the stream's first token it has no warm-up in (the window's history, the initial tokens,
  /// and the producer's warm-up firings' tokens).
  struct WarmUpInput {
    std::uint32_t port = 0;
    std::uint64_t before = 0;
    bool operator==(const WarmUpInput&) const = default;
  };
  std::vector<WarmUpInput> warm_up_inputs{};
  /// Per actor port, the type of the block one cycle moves through it (repetitions x rate tokens
  /// of the port's type); empty when every block is one token (the actor's port types).
  std::vector<TypeId> block_types;
};

/// One token per iteration flows from (src, src_port) to (dst, dst_port). An edge with `delay`
/// initial tokens hands its consumer, in iteration i, the token its producer made in iteration
/// i - delay; in its first `delay` iterations the consumer reads the initial tokens, every element
/// set to `initial`, or filled by the consumer's member function `initial_method` (`= fill()`).
struct Edge {
  NodeId src = 0;
  std::uint32_t src_port = 0;  ///< index into the source actor's ports
  NodeId dst = 0;
  std::uint32_t dst_port = 0;
  TypeId type = 0;
  SourceLoc loc;
  std::uint32_t delay = 0;  ///< initial tokens
  /// `delay D tokens`: D as written (0 for a delay in iterations); once the rates are solved,
  /// `delay` holds D / B whole blocks (B the consumer port's tokens a cycle) and `delay_tokens`
  /// the D mod B tokens the consumer's window shifts its blocks by (dfgc's peek windows).
  std::uint32_t written_tokens = 0;
  std::uint32_t delay_tokens = 0;
  std::string initial = "0";     ///< their elements' value, a C++ literal of the element type
  std::string initial_method{};  ///< else the consumer's member function that fills them
  /// Between two fifo ports, `delay D`: the D elements of value `initial` that the ring holds
  /// before the stream (`delay` stays 0: the edge is not a static one).
  std::uint32_t initial_elements = 0;
  /// How the initial tokens are filled, as schedule.txt shows it: "0.25", "fill()".
  std::string initial_text() const {
    return initial_method.empty() ? initial : initial_method + "()";
  }
};

struct Dfg {
  std::vector<Actor> actors;
  std::vector<Node> nodes;
  std::vector<Edge> edges;  ///< in spec order

  /// Edges into / out of a node, in spec order.
  std::vector<EdgeId> in_edges(NodeId n) const;
  std::vector<EdgeId> out_edges(NodeId n) const;
  /// The graph's loops as its strongly connected parts: part[v] for each node, equal for two
  /// nodes iff each reaches the other. An edge is on a loop iff its ends share a part.
  std::vector<std::uint32_t> loop_parts() const;
  const Actor& actor_of(NodeId n) const { return actors[nodes[n].actor]; }
  /// The tokens of history node n's input `port` keeps in a window (dfg::PeekWindow): what its
  /// firings peek past their rate, and a delay in tokens of its edge beyond whole blocks.
  std::uint32_t window_history(NodeId n, std::uint32_t port) const;
  /// The type of the block node n's port moves in one cycle.
  TypeId block_type(NodeId n, std::uint32_t port) const {
    return nodes[n].block_types.empty() ? actor_of(n).ports[port].type : nodes[n].block_types[port];
  }
};

/// A node's warm-up as the dumps show it (sema/warm_up.hpp): "warm-up 12 firings (x 60 before the
/// stream)"; an input whose values before the stream are not whole firings says where its
/// windows start past the warm-up: "x 59 before the stream, windows from its token 1".
std::string warm_up_text(const Dfg& dfg, NodeId n);

/// A processing element: a host's CPU or one of its GPUs.
struct Pe {
  std::string name;        ///< "A.g0", "A.cpu"
  std::string local_name;  ///< "g0", "cpu"
  HostId host = 0;
  PeKind kind = PeKind::cpu;
  int device = -1;  ///< CUDA device ordinal on its host; -1 for a CPU
  SourceLoc loc;
  std::optional<std::int64_t> memory;  ///< a GPU's memory capacity in bytes, when declared
};

struct Host {
  std::string name;
  /// The host's first cpu: the host end of its links, the one that runs its MPI transfers.
  PeId cpu = 0;
  std::vector<PeId> cpus;  ///< every cpu, in declaration order; they share the host's memory
  std::vector<PeId> gpus;
  SourceLoc loc;
};

/// pcie and nvlink join PEs of one host, net the CPUs of two hosts, gpudirect the GPUs of two
/// hosts (MPI with device pointers: CUDA-aware MPI, GPUDirect RDMA).
enum class LinkKind { pcie, nvlink, net, gpudirect };
std::string_view to_string(LinkKind k);
/// A bandwidth in the largest decimal unit that keeps it >= 1, as a spec writes it: "2.6 GB/s".
std::string format_bandwidth(double bytes_per_s);

struct Link {
  PeId a = 0;
  PeId b = 0;
  LinkKind kind = LinkKind::pcie;
  double bandwidth = 0;  ///< bytes per second
  double latency = 0;    ///< seconds
  bool bidirectional = true;
  SourceLoc loc;

  bool connects(PeId from, PeId to) const {
    return (a == from && b == to) || (bidirectional && a == to && b == from);
  }
};

struct ArchGraph {
  std::string name;
  std::vector<Host> hosts;
  std::vector<Pe> pes;  ///< host by host in spec order; a host's cpus first, then its gpus
  std::vector<Link> links;
  SourceLoc loc;

  std::optional<PeId> find_pe(std::string_view qualified_name) const;
};

/// Where each node runs: pe_of[node]. Kept apart from the Dfg so that the mapping optimizer can
/// evaluate many mappings of one graph.
struct Mapping {
  std::vector<PeId> pe_of;
};

/// A ring of an island: from a member's output, or from a boundary input's Unpack adapter, to a
/// member's input, or to a boundary output's Pack adapter.
struct IslandFifo {
  std::string name;  ///< the edge as written: "d1.y -> m1.x"
  std::optional<std::uint32_t>
      src_member;              ///< index into Island::members; nullopt: a boundary input
  std::uint32_t src_port = 0;  ///< the member's port, or the boundary port's index
  std::optional<std::uint32_t> dst_member;  ///< nullopt: a boundary output
  std::uint32_t dst_port = 0;
  ElemType elem = ElemType::i32;
  std::int64_t capacity = 1;  ///< in elements, as stated or computed (the ring rounds it up to 2^k)
  bool stated = false;        ///< `fifo N` on the consumer's port
  SourceLoc loc;              ///< the edge's arrow
  /// A fifo edge between an island on a CPU and one on a GPU of the same host: one ring in
  /// mapped pinned memory that both islands use (zero-copy), `capacity` elements an iteration
  /// unless stated; the plan sizes it for the iterations the producer runs ahead.
  bool mapped = false;
  /// The edge's `delay D`: the elements the ring holds before the stream, each `initial_value`
  /// (a C++ literal). Set on the consumer's ring, where a computed capacity holds them on top.
  std::uint32_t initial = 0;
  std::string initial_value = "0";
};

/// A node of a dynamic actor, inside its island.
struct IslandMember {
  std::string name;
  ActorId actor = 0;
  std::vector<ParamValue> params;  ///< one per actor param, in the actor's order
  SourceLoc loc;
};

/// A connected set of dynamic nodes on one CPU (its fifo edges to islands on other CPUs are
/// boundary edges of a bounded type): one static node of the graph (`node`, of the
/// generated actor `actor`) whose ports are the edges at the island's boundary. Each firing of it
/// unpacks its input tokens into rings, runs the members to quiescence and packs its output tokens.
struct Island {
  std::string name;  ///< "island_d1": after its first member in spec order
  PeId pe = 0;
  NodeId node = 0;  ///< in Dfg::nodes
  ActorId actor = 0;
  std::vector<IslandMember> members;  ///< in spec order
  /// Its rings; those of the boundary ports first, in the generated actor's port order.
  std::vector<IslandFifo> fifos;
  /// Per port of the generated actor: its ring in `fifos`, and the elements of its token.
  std::vector<std::uint32_t> port_fifo;
  std::vector<std::int64_t> port_elements;  ///< of a bounded port, its capacity
  /// Per port: of a bounded type, whose token carries its length (an input unpacks that many
  /// elements, an output packs what the ring held, up to its capacity).
  std::vector<bool> port_bounded;
  /// Per port: a fifo edge to or from another island (on another CPU), of a bounded type made for
  /// it; what the ring holds beyond the token's capacity waits for the next firing. A bounded
  /// token to a static actor takes all the island produced in its iteration, or is an error.
  std::vector<bool> port_between;
  /// Per port: a mapped fifo edge to or from an island on a GPU or a CPU of the same host; its
  /// ring is shared, the port has no adapter and its token is order_only.
  std::vector<bool> port_mapped;
  /// Per port: a copied fifo edge to or from an island on a GPU or a CPU of the same host
  /// (SemaOptions::copied_fifos): a counted token (dfg/counted.hpp) of a fixed size, the ring's
  /// capacity after a count cell, copied by the static cycle each iteration.
  std::vector<bool> port_counted;
};

/// Everything sema produces for one app.
struct Program {
  std::string app_name;
  SourceLoc loc;          ///< the app's name in its declaration
  std::string spec_file;  ///< the root spec as given on the command line
  std::vector<Param> params;
  std::vector<StructType> structs;  ///< in declaration order (StructId)
  std::vector<TokenType> types;
  Dfg dfg;
  ArchGraph arch;
  Mapping mapping;
  std::vector<Island> islands;  ///< the dynamic nodes, grouped (sema/islands.hpp)
  /// `batch K` in the app: one cycle runs K iterations of the graph. The repetition vector is
  /// already scaled by it (Node::repetitions) and the delays counted in cycles (Edge::delay).
  std::uint32_t batch = 1;
  SourceLoc batch_loc;  ///< the `batch` keyword; invalid without one
  /// The batch as the app writes it (1 without `batch`): replicas may raise `batch` to their
  /// copies; a firing time in a costs file is that of a cycle of this many iterations.
  std::uint32_t written_batch = 1;
  /// Replicas (`@ {A.g0, A.g1}`) unfold the graph: each node becomes `copies` nodes, copy j
  /// handling the j-th block of batch / copies iterations of every cycle (sema/replicas.hpp).
  /// The repetition vector and the delays are those of one copy. 1: not unfolded.
  std::uint32_t copies = 1;
  /// The iterations one copy of a node runs a cycle: batch / copies.
  std::uint32_t copy_batch() const { return batch / copies; }
};

/// The stable text dump of `dfgc dump-ir`: one item a line, names not addresses.
std::string dump(const Program& program);
/// One island: its members and its rings with their capacities, stated or computed.
std::string dump(const Program& program, const Island& island);

}  // namespace dfgc::ir
