/// \file
/// dfg::RunState: what the workers of one host of a generated program share (the run's
/// parameters, the cycle barrier, the neighbour sync, the iteration windows, the tracer, the
/// stats, the probes and the storage views), built from the host's generated tables:
///
///     struct Run : dfg::RunState<Params, Memory, kPeCount> {
///       explicit Run(const dfg::Options& options) : RunState(options, tables()) {}
///     };
///
/// dfg::PeWorker is the base of a generated PE's worker (dfg::CpuWorker, dfg::GpuWorker hold what
/// every worker has).
///
/// dfg::EntryInfo is one row of a strategy's entry table: a firing, transfer or delay copy, what
/// --stats and --trace call it, its trace track, the first cycle it runs, and what an error in it
/// names (dfg::Items runs it).
///
/// This is what a cycle's code needs, and what every generated translation unit includes (through
/// app.hpp). The run's start and end (the command line, the threads, the reports: run_workers(),
/// report()) are the application layer, dfg/run_tables.hpp, which only the file with main
/// includes.
///
/// Guarantees: built by the main thread before the workers start (it allocates: the windows, the
/// tracks, the stats). begin_cycle(), end_cycle() and end_phase() are called by each PE's worker
/// thread for its own PE; they block (NeighbourSync, CycleBarrier: see those headers for their
/// memory ordering) and never allocate. Everything else is read-only while the workers run,
/// except the probes and the stats, which are built for concurrent use.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/checkpoint.hpp"
#include "dfg/context.hpp"
#include "dfg/cycle_barrier.hpp"
#include "dfg/migration.hpp"
#include "dfg/neighbour_sync.hpp"
#include "dfg/options.hpp"
#include "dfg/probe.hpp"
#include "dfg/rebalance.hpp"
#include "dfg/slots.hpp"
#include "dfg/stats.hpp"
#include "dfg/stream_end.hpp"
#include "dfg/trace.hpp"
#include "dfg/window.hpp"
#include "dfg/worker.hpp"

namespace dfg {

/// A firing, transfer or delay copy: what --stats and --trace call it, the trace track of its
/// slices, and the first cycle it runs (where it handles iteration 0). It runs in the cycles
/// [first_cycle, first_cycle + iterations): its window, the migration hook.
template <class Params>
struct EntryInfo {
  const char* kind;
  const char* name;
  const char* where;
  int track;
  std::int64_t first_cycle;
  std::size_t (*bytes)(const Params&);  ///< a transfer's bytes per iteration; null otherwise
  const char* profile;  ///< --profile's name: a firing's node, a transfer's link "A.cpu -> A.g0"
  const char* at;  ///< a firing's node params, as --profile's "at" gives them: "first=1 last=28"
  int step;        ///< a transfer's step without overlap; 0 otherwise
  int firings;     ///< a firing's calls of the node a run (its repetitions a cycle); 1 otherwise
};

/// What an error in entry `e` names (dfg::Items): "node p (Producer) @ A.cpu" for a firing,
/// "transfer p.m@A.cpu -> p.m@A.g0", "delay f.state.delay@A.cpu <- f.next@A.cpu" for a delay copy.
template <class Params>
std::string entry_label(const EntryInfo<Params>& e) {
  const std::string_view kind = e.kind;
  if (kind == "firing") return "node " + std::string(e.name) + " @ " + e.where;
  return std::string(kind == "transfer" ? "transfer " : "delay ") + e.name;
}

/// The generated tables of one host that a RunState is built from.
template <class Params, std::size_t PeCount>
struct RunTables {
  Params (*params_of)(const std::vector<std::int64_t>&);
  std::span<const EntryInfo<Params>> overlap_entries, no_overlap_entries;
  std::int64_t overlap_latency = 0, no_overlap_latency = 0;
  std::vector<std::vector<int>> neighbours;  ///< per PE, with overlap: NeighbourSync's lists
  std::span<const char* const> track_names;
  std::array<const char*, PeCount> pe_names, pe_kinds;
  /// What a checkpoint of the host holds (dfg/checkpoint.hpp); null: the program takes none.
  const CheckpointTable<Params>* checkpoint = nullptr;
  /// The migration alternatives (dfg/migration.hpp), and the nodes whose state moves with them.
  std::span<const Alternative> overlap_alternatives = {}, no_overlap_alternatives = {};
  std::size_t state_handoffs = 0;
  /// A host of a program on several hosts: the generated run_host starts the migrator with the
  /// ranks' link (start_migrator), not the constructor.
  bool several_hosts = false;
};

/// Registers every entry with the probes, and with `stats` when each item is timed (may be null).
template <class Entry, class Params>
void register_entries(std::span<const Entry> entries, const Params& params, Probes& probes,
                      Stats* stats) {
  for (const Entry& e : entries) {
    probes.add(e.track, e.name, e.kind);
    if (stats)
      stats->add_entry(e.kind, e.name, e.where, e.bytes ? e.bytes(params) : 0,
                       static_cast<std::uint32_t>(e.firings));
  }
}

template <class Params, class Memory, std::size_t PeCount>
struct RunState {
  using Entry = EntryInfo<Params>;
  using Tables = RunTables<Params, PeCount>;

  RunState(const Options& given, const Tables& tables)
      : checkpoints(given, checkpoint_layout(given, tables),
                    given.overlap ? tables.overlap_latency : tables.no_overlap_latency),
        options(resumed(given, checkpoints.first())),
        params(tables.params_of(options.params)),
        runtime_params{options.param_names, options.params, checkpoints.first()},
        iterations(options.iterations),
        batch(options.batch),
        overlap(options.overlap),
        barrier_sync(options.sync == SyncMode::barrier),
        graphs(options.graphs),
        graph_cycles(options.graph_cycles),
        latency(overlap ? tables.overlap_latency : tables.no_overlap_latency),
        cycles(run_cycles(options, tables)),
        stream_end(iterations, cycles),
        entries(overlap ? tables.overlap_entries : tables.no_overlap_entries),
        labels(labels_of(entries)),
        pe_names(tables.pe_names),
        pe_kinds(tables.pe_kinds),
        neighbours(tables.neighbours),
        migrator(entries, overlap ? tables.overlap_alternatives : tables.no_overlap_alternatives,
                 iterations),
        windows(migrator.initial_windows(options.migrations), static_cast<int>(PeCount)),
        handoffs(std::make_unique<StateHandoff[]>(tables.state_handoffs)),
        tracer(0, !options.trace_file.empty()),
        stats(options.measures() ? std::make_unique<Stats>(cycles, latency, batch) : nullptr),
        probes(tracer, options.measures_items() ? stats.get() : nullptr) {
    // The trace's process is the host ("host A", from "A.cpu"); on several hosts run_host makes
    // its pid the rank's.
    if constexpr (PeCount > 0) {
      const std::string_view first_pe = pe_names[0];
      tracer.set_process(0, "host " + std::string(first_pe.substr(0, first_pe.find('.'))));
    }
    for (const char* track : tables.track_names) tracer.add_track(track);
    if (stats) {
      for (const char* pe : pe_names) stats->add_pe(pe);
    }
    register_entries(entries, params, probes, options.measures_items() ? stats.get() : nullptr);
    // On one host a CPU touches no GPU's memory (a gpudirect transfer, which reads or writes a
    // GPU's slots from a CPU's worker, joins two hosts): it waits for its GPU neighbours' copies
    // only (release_cycle), not for their kernels.
    if (!tables.several_hosts) {
      for (std::size_t pe = 0; pe < PeCount; ++pe) {
        if (std::string_view(pe_kinds[pe]) == "cpu") neighbours.host_only(static_cast<int>(pe));
      }
    }
    migrator.resume_at(checkpoints.first());
    if (!tables.several_hosts) {
      migrator.rebalance(loads, options.rebalance_ms, pe_names);
      migrator.start(options.migrate_control, windows);
    }
    checkpoints.announce(std::cerr);
  }
  ~RunState() { migrator.stop(); }

  /// The checkpoint table at the run's params (a program without one takes no checkpoint).
  static CheckpointLayout checkpoint_layout(const Options& options, const Tables& tables) {
    if (tables.checkpoint == nullptr) {
      CheckpointLayout none;
      none.refused = "it was generated without a checkpoint table";
      return none;
    }
    return CheckpointLayout::of(*tables.checkpoint, tables.params_of(options.params), options);
  }
  /// The options of the run that resumes with cycle `first` (--restart): its iterations are
  /// those after it, and each --migrate counts from it. A move before `first` is refused.
  static Options resumed(const Options& given, std::int64_t first) {
    Options o = given;
    if (first == 0) return o;
    o.iterations -= first;
    for (MigrationRequest& m : o.migrations) {
      if (m.iteration < first * o.batch)
        throw std::runtime_error("--migrate " + m.node + ":" + m.pe + "@" +
                                 std::to_string(m.iteration) + ": before iteration " +
                                 std::to_string(first * o.batch) +
                                 ", where the restarted run begins; a restarted run begins on "
                                 "the program's own mapping, so name a move from there on");
      m.iteration -= first * o.batch;
    }
    return o;
  }

  /// The cycles the run needs: iterations plus the latency of what can run. A program with
  /// alternatives plans the union's latency (its longest alternative's); a run on one host that
  /// cannot move live (no --migrate-control) needs only the cycles of the base and of the
  /// alternatives --migrate chose: it ends like the base program when nothing moves (without
  /// --rebalance either). On several
  /// hosts every rank runs the union's cycles (the ranks' cycles correspond).
  static std::int64_t run_cycles(const Options& options, const Tables& tables) {
    const std::int64_t planned =
        options.iterations + (options.overlap ? tables.overlap_latency : tables.no_overlap_latency);
    const std::span<const Alternative> alts =
        options.overlap ? tables.overlap_alternatives : tables.no_overlap_alternatives;
    if (alts.empty() || tables.several_hosts || !options.migrate_control.empty() ||
        options.rebalance_ms > 0)
      return planned;
    const std::span<const Entry> all =
        options.overlap ? tables.overlap_entries : tables.no_overlap_entries;
    return std::min(
        planned, Migrator<Entry>::cycles_needed(all, alts, options.migrations, options.iterations));
  }

  /// A host of a program on several hosts: starts the migrator on host `host` with the ranks'
  /// link (dfg::mpi::MigrationLink), which also carries the state of the nodes that move
  /// between hosts. Before the workers start.
  template <class Link>
  void start_migrator(const std::string& file, Link& link, int host, std::size_t handoff_count) {
    for (std::size_t i = 0; i < handoff_count; ++i) handoffs[i].connect(i, &link);
    migrator.start(file, windows, {handoffs.get(), handoff_count}, host,
                   file.empty() ? nullptr : &link);
    if (!file.empty()) leash = &link;
  }
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;

  /// With --sync=neighbours (and overlap): waits until the neighbours of `pe` have finished
  /// cycle c - 1.
  void begin_cycle(int pe, std::int64_t c) {
    if (!overlap || barrier_sync) return;
    if (loads.on() && !neighbours.ready_to_begin(pe, c)) {
      const auto waiting = std::chrono::steady_clock::now();
      neighbours.wait_to_begin(pe, c);
      loads.waited(pe, std::chrono::steady_clock::now() - waiting);
      return;
    }
    neighbours.wait_to_begin(pe, c);
  }
  /// Whether begin_cycle(pe, c) would return at once. Never blocks; throws dfg::Aborted.
  bool may_begin(int pe, std::int64_t c) const {
    return !(overlap && !barrier_sync) || neighbours.ready_to_begin(pe, c);
  }
  /// Ends cycle c of `pe`: publishes it to the neighbours, or (--sync=barrier, or without
  /// overlap) waits at the barrier of all PEs.
  void end_cycle(int pe, std::int64_t c) {
    if (stats) stats->end_cycle(pe, c);
    if (leash != nullptr && pe == 0) leash->end_cycle(c);
    if (loads.on()) loads.ended(pe, c);
    if (overlap && !barrier_sync) {
      neighbours.finish(pe, c);
    } else if (loads.on()) {
      const auto waiting = std::chrono::steady_clock::now();
      barrier.arrive_and_wait();
      loads.waited(pe, std::chrono::steady_clock::now() - waiting);
    } else {
      barrier.arrive_and_wait();
    }
  }
  /// With --sync=neighbours (and overlap), a GPU `pe` whose copies of cycle c have finished (its
  /// kernels may still run): its CPU neighbours may begin c + 1 (NeighbourSync::release).
  void release_cycle(int pe, std::int64_t c) {
    if (overlap && !barrier_sync) neighbours.release(pe, c);
  }
  /// The last cycle of iterations the run fires: iterations - 1, or where a node ended the
  /// stream (after the workers joined: a node's finish() by the instance that fired it).
  std::int64_t last_cycle() const noexcept { return stream_end.last(); }
  /// `pe` has left its cycle loop: with --sync=neighbours nobody waits for its cycles any more
  /// (a PE that began a cycle past a stream's end before it saw the end runs out its loop).
  void leave(int pe) noexcept {
    if (overlap && !barrier_sync) neighbours.leave(pe);
  }
  /// Ends a transfer step without overlap: the barrier of all PEs.
  void end_phase() { barrier.arrive_and_wait(); }

  /// Views `storage` (one allocation per colour, in colour order) as `pe`'s colours `views`, and
  /// counts the allocations in the stats. Set-up only: each worker's constructor, for its PE.
  template <class Storage, std::size_t N>
  void publish(int pe, const Storage& storage, std::array<SlotView, N>& views) {
    for (std::size_t i = 0; i < storage.size(); ++i) {
      views[i] = SlotView::of(storage[i]);
      if (stats) stats->note_alloc(pe, storage[i].bytes());
    }
  }

  /// Each entry's label, in the entries' order.
  static std::vector<std::string> labels_of(std::span<const Entry> entries) {
    std::vector<std::string> out;
    for (const Entry& e : entries) out.push_back(entry_label(e));
    return out;
  }

  /// --checkpoint, --restart: built first, since a restart decides the run's iterations.
  Checkpoints checkpoints;
  /// The run's options: those given, or of a restarted run those after its first iteration.
  const Options options;
  const Params params;
  /// The runtime params by name, for the actors' contexts (Context::runtime_param): each node
  /// points at this table (dfg::Node::set_up).
  const RuntimeParamValues runtime_params;
  const std::int64_t iterations;  ///< in cycles: Options::iterations
  const std::int64_t batch;       ///< the iterations a cycle runs (the app's `batch`)
  const bool overlap;
  const bool barrier_sync;
  const bool graphs;  ///< a GPU whose plan allows it relaunches its cycles as CUDA graphs
  const std::int64_t graph_cycles;  ///< --graph-cycles (0: the plan's)
  const std::int64_t latency;       ///< the strategy's last first cycle
  const std::int64_t cycles;        ///< iterations plus the pipeline's latency
  /// A node's ctx.end_stream() (`ends stream;`): the cycles the run ends at, which every item
  /// and every loop reads (dfg::Items).
  StreamEnd stream_end;
  const std::span<const Entry> entries;   ///< the entries of the strategy that runs
  const std::vector<std::string> labels;  ///< per entry, its entry_label()
  const std::array<const char*, PeCount> pe_names, pe_kinds;
  CycleBarrier barrier{static_cast<int>(PeCount)};
  NeighbourSync neighbours;
  /// --rebalance: what each PE waited for its neighbours, and the cycles it ended.
  Loads loads{PeCount, options.rebalance_ms > 0};
  Migrator<Entry> migrator;  ///< --migrate, --migrate-control: the windows of the alternatives
  /// Live moves on several hosts: keeps the ranks within a few cycles of each other (the first
  /// PE, the host CPU worker, calls it at the end of each cycle).
  CycleLeash* leash = nullptr;
  WindowTable windows;
  std::unique_ptr<StateHandoff[]> handoffs;  ///< per node whose state moves with it
  Tracer tracer;
  std::unique_ptr<Stats> stats;  ///< with --stats or --profile only
  Probes probes;
  Memory memory;
};

/// One processing element's worker: the generated class defines its two cycle loops, or one
/// loop, cycles(), where its PE runs the same steps in both strategies (a GPU's worker also
/// selects its device); run() runs the loop of the strategy that runs, on the worker's thread.
class PeWorker {
 public:
  virtual ~PeWorker() = default;
  void run(Where& where, bool overlap) {
    select_device();
    if (overlap) {
      cycles_overlap(where);
    } else {
      cycles_no_overlap(where);
    }
  }
  /// After a run that completed (every worker's cycles ended without an error): calls the
  /// `finish` of the PE's nodes that have one, on the main thread (a GPU's device selected).
  void finish(Where& where) {
    select_device();
    finish_nodes(where);
  }

 private:
  /// The generated worker's calls of its nodes' finish (dfg::Node::finish), each named in
  /// `where` first.
  virtual void finish_nodes(Where&) {}
  virtual void select_device() {}
  /// The loop of both strategies, for a worker that defines neither of theirs.
  virtual void cycles(Where&) { throw std::logic_error("dfg::PeWorker: no cycle loop defined"); }
  virtual void cycles_overlap(Where& where) { cycles(where); }
  virtual void cycles_no_overlap(Where& where) { cycles(where); }
};

/// The base of a generated CPU worker: its run state and its storage, one allocation (a
/// `Buffer`: HostBuffer, PinnedBuffer) per colour. A GPU's is dfg::GpuWorker
/// (dfg/cuda/gpu_worker.hpp).
template <class Run, class Buffer>
class CpuWorker : public PeWorker {
 protected:
  explicit CpuWorker(Run& run) : run_(run) {}

  Run& run_;
  std::vector<Buffer> storage_;  ///< one allocation per colour
};

}  // namespace dfg
