/// \file
/// The printer of one PE's worker (worker.hpp), shared by the files that print its parts:
/// worker.cpp the class, its members and its constructor; worker_loop.cpp the cycle loops, one
/// emitter per kind of the plan's steps. Private to codegen/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"

namespace dfgc::codegen::worker_detail {

/// Prints one PE's worker.
class WorkerPrinter {
 public:
  WorkerPrinter(const Model& m, ir::PeId pe);

  std::string render();

 private:
  std::vector<const PlanNode*> nodes() const { return m_.nodes_on(pe_); }
  /// Node n's inputs fed by an edge with initial tokens (the same under both strategies), with
  /// their port indices, each once: with migration alternatives the union holds several firing
  /// entries of a node (its old-only and new-only ones, one per alternative, or all of G1's when
  /// a delta shifts them; some on n's other PEs), which all read the one member of n's instance
  /// on this PE (fire() names it by node and port).
  std::vector<std::pair<std::uint32_t, const PortRef*>> initial_inputs(const PlanNode& n) const;
  static const ActorSignature& signature(const PlanNode& n) { return *n.signature; }
  /// The C++ name of buffer b's view on this PE (StrategyPlan::views).
  const std::string& buffer_local(const StrategyPlan& sm, ir::BufferId b) const {
    return sm.views[pe_].at(b);
  }
  /// Declares the views of the buffers the loops touch (members, or a loop's locals).
  void views(const StrategyPlan& sm, bool with_depth);
  /// What `emit` prints, as the text of a template's placeholder (indented by the template).
  template <class Emit>
  std::string block(Emit emit) {
    Printer saved = std::exchange(out_, Printer());
    emit();
    return std::exchange(out_, std::move(saved)).take();
  }
  /// Emits a section of templates/parts/ at the current indentation.
  void part(TemplatePart name, const Printer::Vars& vars = {}) {
    out_.emit({{"part", render_part(name, vars)}}, "$part$");
  }
  std::string device() const { return std::to_string(m_.pe(pe_).device); }
  static std::string stream_member(StreamKind s) {
    return render_part("worker_stream", {{"kind", std::string(to_string(s))}});
  }
  /// The host at the other end of a host-to-host transfer.
  ir::HostId peer_host(const Entry& e) const { return m_.pe(*e.transfer().peer).host; }
  bool has_net() const { return !endpoints_.empty(); }

  // ---- worker.cpp: the class, its members, its constructor ----

  std::string storage_type() const;
  std::string copy_batch() const;
  std::string block_index(const PlanNode& n) const;
  void declaration();
  /// The nodes of the PE whose actor has finish(), one per instance; finish_nodes() calls them.
  std::vector<const PlanNode*> finishing() const;
  void finish();
  /// dfg::GpuWorker (dfg/cuda/gpu_worker.hpp) or dfg::CpuWorker (dfg/run.hpp): the run state,
  /// the storage, and a GPU's streams and probes.
  std::string base_class() const;
  void members();
  void constructor();
  void constructor_body();
  /// A colour's slot bytes: its largest member.
  static std::string colour_bytes(const PlanColour& c);
  /// The colours of `strategy`; `both`: the same colours serve both strategies
  /// (PlanSharing::colours), each with the slots of the strategy that runs.
  void allocate(ir::Strategy strategy, bool both);
  /// The endpoints of the strategy's host-to-host transfers: the peer's rank, the tag, the bytes.
  void endpoints(ir::Strategy strategy);
  /// Peer access for the GPU -> GPU transfers this GPU launches, where the devices allow it.
  void peers();
  void actor_setup(const PlanNode& n);

  // ---- worker_loop.cpp: the cycle loops, one emitter per kind of step ----

  void loop(ir::Strategy strategy);
  /// The loop's views (unless shared) and its dfg::Items.
  void loop_items(const StrategyPlan& sm);
  /// The body of the cycle loop (dfg::Items::cycles): the steps; the last, the end of the
  /// cycle, is the loop's.
  void loop_steps(const StrategyPlan& sm);
  /// A GPU's items whose cycles run ahead of the thread (dfg::GpuCycles): its streams and the
  /// plan's stream orders, one comment a line.
  void gpu_cycles_items(const StrategyPlan& sm, const GpuCycles& g);
  /// The GPU's graphs() call, or why its cycles are enqueued call by call.
  std::string graphs_call(const StrategyPlan& sm, const GpuCycles& g) const;
  static std::string slot(const SlotRef& r);
  /// A slot's first byte; of a bounded buffer, the slot with its length cell (dfg::SlotToken).
  std::string at(const StrategyPlan& sm, const SlotRef& r) const;
  /// The entry's enumerator: "overlap::fire_p".
  std::string entry(const Entry& e) const;
  /// One item of the loop: `items.<how>(<entry>, [<stream>, ]lambda)` around what `body` emits,
  /// `comment` on the line before it, as every step's.
  /// `how`: run (a CPU's firing or copy, timed by a dfg::Probe), post (a host-to-host transfer's
  /// end), fire or copy (a GPU's, on `stream`).
  template <class Body>
  void item(const Entry& e, std::string_view how, bool takes_j, const std::string& comment,
            Body body);
  void fire(const StrategyPlan& sm, const Entry& e);
  /// A node that is not `block` fires q times per cycle: one call per firing k, on firing k's part
  /// of each block (`args`, the blocks, in the order of fire's parameters).
  void fire_parts(const Entry& e, const PlanNode& n, const ActorSignature& sig,
                  std::vector<std::string> args);
  std::vector<std::string> grouped(const Entry& e, const ActorSignature& sig,
                                   std::vector<std::string> args) const;
  /// A transfer within the host, launched by this GPU on its stream: the entry's bytes.
  void copy(const StrategyPlan& sm, const Entry& e);
  /// A transfer to or from a GPU's mapped colour, which this CPU copies on the host.
  void mapped_copy(const StrategyPlan& sm, const Entry& e);
  /// Posts this host's end of a host-to-host transfer; net_complete completes it.
  void net_post(const StrategyPlan& sm, const Entry& e);
  void net_complete();
  void delay_copy(const StrategyPlan& sm, const Entry& e);
  void wait(const std::vector<StreamKind>& streams);
  void end_phase(std::uint32_t phase);
  /// The end of the cycle, dfg::Items::cycles' own; with overlap on several hosts, what the loop
  /// does between two cycles: the ranks' barrier of --sync=barrier (the MPI thread's worker meets
  /// the other ranks, the others wait for it).
  void end_cycle();

  const Model& m_;
  ir::PeId pe_;
  bool gpu_;
  bool mpi_;  ///< the first CPU's worker of a program on several hosts: the rank's MPI thread
  std::string cls_;
  std::string pe_ident_;
  std::string ns_;
  bool overlap_ = true;        ///< the strategy of the loop being printed
  std::string between_;        ///< what the loop being printed does between two cycles
  bool shared_views_ = false;  ///< the buffer views are members shared by both loops
  std::set<std::pair<NetEnd, std::string>> endpoints_;  ///< (direction, member), both strategies
  std::set<ir::PeId>
      gpudirect_;  ///< the GPUs whose gpudirect transfers this worker runs, both strategies
  std::size_t net_capacity_ = 0;  ///< the most host-to-host transfers of one strategy
  Printer out_;
};

}  // namespace dfgc::codegen::worker_detail
