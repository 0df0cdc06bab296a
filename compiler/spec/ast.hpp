/// \file
/// The syntax tree of a .dfg file, exactly as written: names are not resolved, expressions are not
/// evaluated (that is sema's work). Every node carries the location of its first token; names
/// carry their own location so that errors can point at the name itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/source_manager.hpp"

namespace dfgc::ast {

struct Ident {
  std::string name;
  SourceLoc loc;
};

/// An integer (or, for actor parameter values, real) expression.
///   integer: 42      real: 2.5      name: N
///   unary:  -e       binary: a op b with op one of + - * / %
///   call:   min(a, b), max(a, b) (the name in `name`, the arguments in `operands`)
struct Expr {
  enum class Kind { integer, real, name, unary, binary, call };
  Kind kind = Kind::integer;
  SourceLoc loc;  ///< the operator for unary/binary, the first token otherwise
  std::int64_t int_value = 0;
  double real_value = 0;
  std::string name;  ///< for name and call
  char op = 0;       ///< for unary and binary
  std::vector<std::unique_ptr<Expr>> operands;
};
using ExprPtr = std::unique_ptr<Expr>;

/// An index after a name: `[i + 1]` in `node f[i + 1] : F;`, in `f[i].y` or in `A.c[i]`. Sema
/// evaluates it and appends the value to the name (f3, c3). Shared, as the references that hold
/// one are copied.
using Index = std::shared_ptr<const Expr>;

/// A name and its indices, `f[i][j]`.
struct IndexedName {
  Ident name;
  std::vector<Index> indices{};
};

/// `import "file.dfg";` — the path as written (after escape processing), relative to the
/// importing file's directory.
struct ImportDecl {
  std::string path;
  SourceLoc loc;       ///< the `import` keyword
  SourceLoc path_loc;  ///< the string literal
};

/// `param N = 2048;`  or  `runtime param W = 640;`  or  `param split = 20 in [1, 39];` (a
/// tunable param: `dfgc map` chooses its value in the range, both ends included)  or
/// `runtime param N = 256 in [1, 65536];` (bounds that the generated program enforces).
struct ParamDecl {
  Ident name;
  bool runtime = false;
  ExprPtr value;
  ExprPtr tune_min;  ///< null unless the param has a range (tunable) or bounds (runtime)
  ExprPtr tune_max;
  SourceLoc tune_loc;  ///< the `in`
  SourceLoc loc;
};

/// A field of a struct: `float time;` or a fixed array `float amp[4];`.
struct FieldDecl {
  Ident type;  ///< an element type name as written
  Ident name;
  ExprPtr count;  ///< the array's elements; null for a single element
};

/// `struct Hit { float time; int32 channel; }`, or with the C++ class it names
/// `struct Hit = "rx::Hit" { ... }`.
struct StructDecl {
  Ident name;
  std::optional<std::string> cxx_name;  ///< the string after '='
  SourceLoc cxx_loc;
  std::vector<FieldDecl> fields;
  SourceLoc loc;
};

/// `type Matrix = float[N * N];`, or a bounded type `type Packet = uint8[<= 1500];` whose tokens
/// hold 0 to `count` elements each, the length travelling with the token.
struct TypeDecl {
  Ident name;
  Ident elem;     ///< element type name as written: float, ..., uint64, cfloat, cdouble or a struct
  ExprPtr count;  ///< the elements per token; of a bounded type, the capacity
  bool bounded = false;
  SourceLoc loc;
};

/// `in Matrix a;` / `out Matrix b;`
struct PortDecl {
  enum class Dir { in, out };
  Dir dir = Dir::in;
  Ident type;
  Ident name;
  SourceLoc loc;
  /// `in T x[N];`: a group of N ports, x0 .. x{N-1}, that `fire` takes as one dfg::Ports
  /// parameter named x; null for a single port. N may use the actor's params.
  ExprPtr count{};
  ExprPtr rate;  ///< `in T x rate 2;`: tokens one firing consumes or produces; null for 1
  /// `in T x rate 1 peek 64 = 0.5;`: the tokens one firing sees, its rate's and those before
  /// (the history, whose first values are `peek_value`, zeros when null); null without `peek`.
  ExprPtr peek{};
  ExprPtr peek_value{};
  SourceLoc peek_loc{};  ///< the `peek` keyword
  /// `in int32 x fifo 64;` (a port of a dynamic actor): the capacity of the ring it reads, in
  /// elements; null when dfgc computes it.
  ExprPtr fifo{};
  SourceLoc fifo_loc{};  ///< the `fifo` keyword
  /// `in T x mappable;`: the GPU implementation touches each byte of the token at most once a
  /// firing, from many threads at once (no atomics, no re-reads, no one-thread loop), so a small
  /// token may stay in mapped host memory.
  bool mappable = false;
  SourceLoc mappable_loc{};  ///< the `mappable` keyword
};

/// `param int nb_loop = 100;` inside an actor. The default may be absent (then every node must
/// set it). The type is one of int, int64, float, double, bool.
struct ActorParamDecl {
  Ident type;
  Ident name;
  ExprPtr default_value;  ///< may be null; `true`/`false` parse as names
  SourceLoc loc;
};

/// `in 64` in `parallel (in 64, out 64)`: the elements one firing of a parallel action takes
/// from (or gives to) a port.
struct ParallelCount {
  Ident port;
  ExprPtr count;
};

/// `gpu "actors/inc.cuh" Inc;` — the class name may be omitted (then it is the actor's name).
/// `cpu "actors/check.hpp" Check block;`: one call of fire takes the node's whole blocks.
/// `gpu "actors/idct.cuh" Idct parallel (in 64, out 64);`: a dynamic actor whose one action fires
/// on many threads at once, with these elements per firing on every port.
struct ImplDecl {
  Ident kind;  ///< cpu or gpu
  std::string header;
  SourceLoc header_loc;
  std::optional<Ident> class_name;
  SourceLoc loc;
  std::optional<SourceLoc> block{};     ///< the `block` keyword
  std::optional<SourceLoc> parallel{};  ///< the `parallel` keyword
  std::vector<ParallelCount> counts{};  ///< after `parallel`, in source order
};

struct ActorDecl {
  Ident name;
  std::vector<PortDecl> ports;
  std::vector<ActorParamDecl> params;
  std::vector<ImplDecl> impls;
  std::vector<Ident> uses;  ///< `uses cufft, cublas;`: the libraries its GPU implementation calls
  SourceLoc loc;
  /// `actor Mul dynamic { ... }`: the `dynamic` keyword. A dynamic actor's ports are FIFO rings
  /// of elements and its class fires by `bool step(...)`.
  std::optional<SourceLoc> dynamic{};
  /// `ends stream;`: its fire may end the run's stream (ctx.end_stream()).
  std::optional<SourceLoc> ends{};
};

/// Inside a host: `cpu;` or `gpu g0 = 0;` (the number is the CUDA device ordinal), optionally
/// with the GPU's memory capacity: `gpu g0 = 0 (memory 24 GiB);`.
struct PeDecl {
  Ident kind;  ///< cpu or gpu
  Ident name;  ///< a bare `cpu;` is named "cpu" (its location is the keyword's)
  /// `cpu c 4;`: four cpus c0 .. c3; none for a single cpu.
  std::optional<std::int64_t> count;
  SourceLoc count_loc;
  ExprPtr ordinal;               ///< gpus only
  std::optional<double> memory;  ///< bytes, units applied
  SourceLoc memory_loc;
  SourceLoc loc;
};

struct HostDecl {
  Ident name;
  std::vector<PeDecl> pes;
  SourceLoc loc;
};

/// `A.g0`, `A.cpu`
struct PeRef {
  Ident host;
  Ident pe;
  SourceLoc loc;
  Index index{};  ///< `A.c[i]` (a node's placement in a loop or composite): the PE c<i>
};

/// One PE of a node's replica set, `A.g1: 2`: the PE and its weight (null without `:`).
struct ReplicaRef {
  PeRef pe;
  ExprPtr weight{};
};

/// `link A.cpu <-> A.g0 pcie (25 GB/s);`  `link A.g0 <-> A.g1 nvlink (300 GB/s, 2 us);`
/// `link A.g0 <-> B.g0 gpudirect (12 GB/s, 5 us);`  `->` declares a one-way link.
struct LinkDecl {
  PeRef a;
  PeRef b;
  bool bidirectional = true;
  Ident kind;            ///< pcie, nvlink, net, gpudirect
  double bandwidth = 0;  ///< bytes per second, units applied
  SourceLoc bandwidth_loc;
  std::optional<double> latency;  ///< seconds, units applied
  SourceLoc latency_loc;
  SourceLoc loc;
};

struct ArchDecl {
  Ident name;
  std::vector<HostDecl> hosts;
  std::vector<LinkDecl> links;
  SourceLoc loc;
};

/// `nb_loop = 120` inside a node's braces.
struct ParamAssign {
  Ident name;
  ExprPtr value;
};

/// Where a free node may run: `@ any`, `@ any cpu`, `@ any gpu` or `@ B.*` (any PE of host B).
/// `dfgc map` chooses among them; every other command requires a pinned node.
struct FreePlacement {
  enum class Kind { any, any_cpu, any_gpu, host };
  Kind kind = Kind::any;
  Ident host;  ///< for `B.*`
};

/// `@ any cpu replicas in [1, 4]`: `dfgc map` may deal the free node's iterations over 1 to 4 of
/// the PEs its placement allows (a replica set, written back as `@ {A.c1, A.c2}`).
struct ReplicaRange {
  ExprPtr min;
  ExprPtr max;
  SourceLoc loc;  ///< the word `replicas`
};

/// `node i1 : Inc @ A.g0 { nb_loop = 120; }`
/// `node i1 : Inc @ A.g0 migrates A.g1, B.cpu;` (the PEs the node may move to while it runs)
/// In a graph (an app without `on ARCH`) a node has no placement: `node i1 : Inc;`. In a mapping
/// of a graph (`app x : g on ARCH`) a placement names the graph's node and has no actor:
/// `i1 @ A.g0 { nb_loop = 100; }` (its params refine the graph's).
struct NodeDecl {
  Ident name;
  Ident actor;                                  ///< empty in a mapping's placement
  PeRef pe;                                     ///< empty names when the node is free
  std::optional<FreePlacement> free;            ///< set for `@ any ...` and `@ B.*`
  std::optional<ReplicaRange> replica_range{};  ///< after a free placement, for `dfgc map`
  SourceLoc placement_loc;                      ///< the text after '@' (`A.g0`, `any gpu`, `B.*`)
  std::uint32_t placement_length = 0;           ///< its length in bytes
  std::vector<PeRef> alternatives;              ///< after `migrates`, in source order
  /// `@ {A.g0, A.g1: 2}`: the PEs its iterations are dealt over, with their weights (null: 1), in
  /// source order; `pe` is then the first. Empty for a node on one PE.
  std::vector<ReplicaRef> replicas{};
  std::vector<ParamAssign> params;
  SourceLoc loc;
  /// `node f[i] : Fir;` (in a loop): the indices after the name; sema names the node f3.
  std::vector<Index> indices{};
  /// A mapping's placement of a node of a composite, `bank.f[i] @ A.c1;`: the names after the
  /// first (`name` is `bank`), which name the node bank_f3.
  std::vector<IndexedName> path{};
};

/// `i1.b`
struct PortRef {
  Ident node;
  Ident port;  ///< empty for a port of the enclosing composite named alone (`x -> f.i;`)
  SourceLoc loc;
  std::vector<Index> indices{};       ///< the node's, `f[i].y`
  std::vector<Index> port_indices{};  ///< the port's, `sink.y[i]` (the port y3 for i = 3)
};

/// `p.m -> i1.a;`, or with initial tokens `f.y -> f.state delay 1;` (zeros) and
/// `f.y -> f.state delay 2 = 0.5;` (every element of each initial token set to the value);
/// `s.y -> f.x delay 6 tokens;` counts the consumer port's tokens.
struct EdgeDecl {
  PortRef src;
  PortRef dst;
  SourceLoc loc;        ///< the arrow
  ExprPtr delay;        ///< the count of initial tokens, null without `delay`
  SourceLoc delay_loc;  ///< the `delay` keyword
  /// `delay 6 tokens`: the count is of the consumer port's tokens, not of iterations.
  bool delay_in_tokens = false;
  ExprPtr initial;  ///< the value after `=`, null for zeros
  /// `delay 2 = fill()`: the consumer's member function that fills the initial tokens.
  std::optional<Ident> initial_method{};
};

struct ForDecl;

/// What the body of an app, a composite or a loop declares, each kind in source order.
struct Items {
  std::vector<NodeDecl> nodes;
  std::vector<EdgeDecl> edges;
  std::vector<ForDecl> loops;
};

/// `for i in [0, N - 1] { ... }`: the items of its body once per value of `var`, from `first`
/// to `last` included (none when last < first).
struct ForDecl {
  Ident var;
  ExprPtr first;
  ExprPtr last;
  SourceLoc loc;  ///< the `for`
  Items body;
};

/// `param N = 4;` of a composite: a number (or `true`/`false`) that an instance may set.
struct CompositeParam {
  Ident name;
  ExprPtr default_value;  ///< null: every instance sets it
  SourceLoc loc;
};

/// `in x;` / `out y;` of a composite: a port of its instances, which its body connects to the
/// ports of its nodes (`x -> f.i;`, `g.o -> y;`).
struct BoundaryPort {
  PortDecl::Dir dir = PortDecl::Dir::in;
  Ident name;
  SourceLoc loc;
};

/// `composite Bank { param N = 4; in x; out y; node ...; for ...; edges }`: a sub-graph with
/// params and ports. A node whose actor names it (`node b : Bank { N = 8; }`) is expanded by
/// sema into the composite's nodes, named b_f0, b_f1, ... (sema/composites.hpp).
struct CompositeDecl : Items {
  Ident name;
  std::vector<CompositeParam> params;
  std::vector<BoundaryPort> ports;
  SourceLoc loc;
};

/// `app overlap on two_hosts { ... }`: nodes, placements and edges in one.
/// `app receiver { ... }`: a graph, nodes without placements and edges, no architecture; it runs
/// only through the apps that map it:
/// `app receiver_cores : receiver on cores { ... }`: a mapping, a placement per node of the graph
/// (in `nodes`, actors empty) and at most `batch`; sema expands it into a whole app
/// (sema/overlay.hpp).
struct AppDecl : Items {
  Ident name;
  Ident arch;                  ///< empty for a graph
  std::optional<Ident> graph;  ///< the graph a mapping places
  bool is_graph() const noexcept { return arch.name.empty(); }
  SourceLoc loc;
  /// `batch 8;`: the iterations one cycle runs (null without the statement: one).
  ExprPtr batch;
  SourceLoc batch_loc;  ///< the `batch` keyword
};

/// One parsed file, declarations in source order per kind.
struct Module {
  std::uint32_t file = 0;
  std::vector<ImportDecl> imports;
  std::vector<ParamDecl> params;
  std::vector<StructDecl> structs{};
  std::vector<TypeDecl> types;
  std::vector<ActorDecl> actors;
  std::vector<ArchDecl> archs;
  std::vector<AppDecl> apps;
  std::vector<CompositeDecl> composites{};
};

/// A copy of `e` (null for null).
ExprPtr clone(const Expr* e);
inline ExprPtr clone(const ExprPtr& e) { return clone(e.get()); }

/// A node's placement as written, without extra spaces: "A.g0", "any gpu", "B.*".
std::string placement_text(const NodeDecl& node);

/// Prints the tree in a stable indented form (`dfgc dump-ast`), with line:col of each item.
std::string dump(const Module& module, const SourceManager& sources);

}  // namespace dfgc::ast
