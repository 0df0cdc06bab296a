/// \file
/// The implementation graph (IG): what every processing element (PE) does in every cycle, for each
/// of the two strategies (with and without computation-communication overlap). It is built by the
/// passes (compiler/passes/) from a checked Program and followed by code generation.
///
/// The cycle model the IG is written for (passes/latency.cpp states it in full):
///  - overlap: in cycle c every PE launches its transfers (asynchronous, all at once) and fires its
///    nodes in schedule order, then all wait for the end of the cycle.
///  - no overlap: in cycle c the transfers run in steps 0, 1, ... (the transfers of one step at
///  once,
///    each step ending with a wait), then every PE fires its nodes in schedule order.
/// A node fires from cycle `latency` on; a transfer or delay copy runs from `first_cycle` on. Each
/// access to a buffer names a lag: at cycle c it uses the buffer's slot (c - lag) mod depth.
/// Buffers of one colour share one allocation of `slots` slots of `bytes` bytes; slot_of() maps an
/// access to the colour slot it touches.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.hpp"

namespace dfgc::ir {

enum class Strategy : std::uint8_t { overlap, no_overlap };
inline constexpr std::array<Strategy, 2> kStrategies = {Strategy::overlap, Strategy::no_overlap};
/// "overlap" or "no-overlap", as schedule.txt and the generated program's flag spell it.
std::string_view to_string(Strategy s);

/// One value per strategy, indexed by the strategy.
template <typename T>
struct PerStrategy {
  std::array<T, 2> values;
  T& operator[](Strategy s) { return values[static_cast<std::size_t>(s)]; }
  const T& operator[](Strategy s) const { return values[static_cast<std::size_t>(s)]; }
};

using BufferId = std::uint32_t;
using TransferId = std::uint32_t;
using CopyId = std::uint32_t;
using ColourId = std::uint32_t;

/// Who touches a buffer: a node's firing (through one of its ports), a transfer, or a delay copy.
struct Access {
  enum class Kind : std::uint8_t { firing, transfer, copy };
  Kind kind = Kind::firing;
  std::uint32_t id = 0;    ///< NodeId, TransferId or CopyId
  std::uint32_t port = 0;  ///< the actor port, for a firing
  std::uint32_t lag = 0;   ///< at cycle c the access uses slot (c - lag) mod depth
};

/// A buffer node: storage for the tokens of one node output on one PE.
struct IgBuffer {
  std::string name;  ///< "i1.b@A.g0"; a delay line "d.x.delay@A.cpu" (consumer node and port)
  PeId pe = 0;
  TypeId type = 0;
  std::int64_t bytes = 0;  ///< per slot, at the default of every runtime param
  std::string bytes_text;  ///< the same as an expression of the params ("N * N * 4")
  bool runtime_size = false;
  NodeId node = 0;  ///< the output whose tokens it holds
  std::uint32_t port = 0;
  std::uint32_t hop = 0;             ///< transfers between the output's own buffer and this one
  std::optional<EdgeId> delay_edge;  ///< for a delay line: the edge whose consumer it feeds
  /// Slots: 1 single, 2 double, d for a delay line of d cycles; more where an aliased line
  /// (IgAlias) reads it late.
  std::uint32_t depth = 1;
  ColourId colour = 0;           ///< index into IgStrategy::colours
  std::uint32_t colour_lag = 0;  ///< added to every access's lag in the colour's storage
  Access writer;
  std::vector<Access> readers;
};

/// A copy between buffer nodes on two PEs, over one link of the architecture.
struct IgTransfer {
  BufferId from = 0;
  BufferId to = 0;
  PeId from_pe = 0;
  PeId to_pe = 0;
  LinkId link = 0;
  std::int64_t bytes = 0;
  std::uint32_t step = 0;  ///< no overlap: the step of the cycle's transfer part; 0 otherwise
  std::uint32_t first_cycle = 0;  ///< the first cycle it moves a valid token
  std::uint32_t from_lag = 0;     ///< the lag of its read of `from`
};

/// A delay line's feed: on `to`'s PE, right after `after` fires (whether or not it fired), copy the
/// token its consumer would have read from `from` into the delay line. `after` is the consumer, or
/// for a back edge within a PE (latency.hpp) the producer.
struct IgCopy {
  BufferId from = 0;
  BufferId to = 0;
  NodeId after = 0;
  std::uint32_t first_cycle = 0;
  std::uint32_t from_lag = 0;
};

/// A delay line without a copy (passes/resync_inputs.hpp): its consumer reads the producer's
/// buffer `from`, on the same PE, `cycles` cycles late; `from` has the slots for it.
struct IgAlias {
  std::string name;  ///< the line it stands for, "i.a.delay@A.g0"
  BufferId from = 0;
  EdgeId edge = 0;
  std::uint32_t cycles = 0;
};

/// The buffer a firing uses for one actor port (input: reads, output: writes). An input fed by an
/// edge with initial tokens reads, in its node's first `initial` iterations, initial token j
/// (every element `initial_value`) instead: storage of its own on the node's PE, filled when the
/// program starts.
struct PortBinding {
  BufferId buffer = 0;
  std::uint32_t lag = 0;
  std::uint32_t initial = 0;     ///< initial tokens: the edge's delay
  std::string initial_value;     ///< their elements' value, a C++ literal; "fill()" for a method
  std::string initial_method{};  ///< the node's member function that fills them, else empty
};

struct IgFiring {
  NodeId node = 0;
  PeId pe = 0;
  std::uint32_t schedule_index = 0;
  std::uint32_t latency = 0;  ///< the first cycle it fires; it then handles iteration c - latency
  std::vector<PortBinding> ports;  ///< indexed by the actor's port index
};

/// Storage shared by buffer nodes of one PE that are never live at once.
struct IgColour {
  PeId pe = 0;
  std::uint32_t index = 0;        ///< numbered per PE, in the order of the members' names
  std::vector<BufferId> members;  ///< sorted by name
  std::uint32_t slots = 1;
  std::int64_t bytes = 0;  ///< per slot: the largest member at the defaults
};

struct MemoryReport {
  PeId pe = 0;
  std::int64_t before = 0;  ///< every buffer node its own storage
  std::int64_t after = 0;   ///< one allocation per colour
  std::uint32_t colours = 0;
  std::int64_t initial = 0;  ///< the initial tokens its nodes read, apart from the colours
  /// The windows of its nodes' inputs that peek: two halves of history + block each
  /// (dfg::PeekWindow), apart from the colours.
  std::int64_t windows = 0;
};

struct IgStrategy {
  Strategy strategy = Strategy::overlap;
  std::vector<IgFiring> firings;           ///< indexed by NodeId
  std::vector<std::vector<NodeId>> order;  ///< per PE: its nodes in schedule order
  std::vector<IgBuffer> buffers;
  std::vector<IgTransfer> transfers;
  std::vector<IgCopy> copies;
  std::vector<IgAlias> aliases;  ///< the delay lines read in place, in DelayLines order
  std::vector<IgColour> colours;
  std::vector<MemoryReport> memory;  ///< per PE
  std::uint32_t transfer_steps = 1;  ///< steps in a cycle's transfer part

  /// The colour slot that `access` of buffer `b` touches in `cycle`.
  std::uint32_t slot_of(BufferId b, const Access& access, std::int64_t cycle) const;
  /// The delay copies that run right after `node` fires, in id order.
  std::vector<CopyId> copies_after(NodeId node) const;
};

struct Ig {
  std::vector<NodeId> schedule;  ///< one iteration's firing order
  PerStrategy<IgStrategy> strategies;

  const IgStrategy& operator[](Strategy s) const { return strategies[s]; }
};

/// schedule.txt: for each strategy and PE, its buffers, transfers, delay copies, colours, firings
/// and memory, one item a line, sorted, with names only.
std::string render_schedule(const Program& program, const Ig& ig);

/// graph.dot: each strategy a cluster, each PE a cluster inside it; firings as boxes, buffer nodes
/// as ellipses, transfers as bold edges labelled with their link, delay copies dashed.
std::string render_dot(const Program& program, const Ig& ig);

}  // namespace dfgc::ir
