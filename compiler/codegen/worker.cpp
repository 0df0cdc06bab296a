#include "codegen/worker.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "codegen/actor_headers.hpp"
#include "codegen/printer.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::string worker_class(const Model& m, ir::PeId pe) { return "Worker_" + identifier(m.pe(pe).name); }

std::string actor_includes(const Model& m, ir::PeId pe) {
  const ir::Program& p = *m.program;
  const ActorHeaders headers(*m.actor_files);
  std::set<std::string> lines;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
    if (p.mapping.pe_of[n] == pe) lines.insert(headers.include(*p.dfg.actor_of(n).impl_for(m.pe(pe).kind)));
  for (const ir::Edge& e : p.dfg.edges)
    if (e.delay && p.mapping.pe_of[e.dst] == pe)
      lines.insert(m.pe(pe).kind == ir::PeKind::gpu ? "\"dfg/cuda/initial_tokens.hpp\"" : "\"dfg/initial_tokens.hpp\"");
  std::string out;
  for (const std::string& h : lines) out += fmt::format("#include {}\n", h);
  return out;
}

namespace {

std::string_view strategy_ns(ir::Strategy s) {
  return s == ir::Strategy::overlap ? "overlap" : "no_overlap";
}

/// Prints one PE's worker.
class WorkerPrinter {
 public:
  WorkerPrinter(const Model& m, ir::PeId pe)
      : m_(m), pe_(pe), gpu_(m.pe(pe).kind == ir::PeKind::gpu),
        mpi_(m.multi_host() && !gpu_), cls_(worker_class(m, pe)), pe_ident_(identifier(m.pe(pe).name)) {
    for (ir::Strategy s : ir::kStrategies) {
      const StrategyPlan& sm = m_.strategies[s];
      std::size_t count = 0;
      for (std::size_t e : sm.by_pe[pe_]) {
        if (sm.entries[e].net == Entry::Net::none) continue;
        endpoints_.insert({sm.entries[e].net, endpoint_member(sm, sm.entries[e])});
        if (sm.entries[e].gpudirect) gpudirect_.insert(*sm.entries[e].gpudirect);
        ++count;
      }
      net_capacity_ = std::max(net_capacity_, count);
    }
  }

  std::string render() {
    declaration();
    constructor();
    run();
    for (ir::Strategy s : ir::kStrategies) loop(s);
    return out_.take();
  }

 private:
  std::vector<const PlanNode*> nodes() const { return m_.nodes_on(pe_); }
  /// Node n's inputs fed by an edge with initial tokens (the same under both strategies), with
  /// their port indices.
  std::vector<std::pair<std::uint32_t, const PortRef*>> initial_inputs(const PlanNode& n) const {
    std::vector<std::pair<std::uint32_t, const PortRef*>> result;
    for (const Entry& e : m_.strategies[ir::Strategy::overlap].entries)
      if (e.kind == Entry::Kind::firing && e.id == n.id)
        for (std::uint32_t port = 0; port < e.ports.size(); ++port)
          if (e.ports[port].initial) result.emplace_back(port, &e.ports[port]);
    return result;
  }
  /// The member that holds the initial tokens of input `port`: "f_initial1_" (the suffix
  /// _initial<port>_ is of its own, see node_ident()).
  static std::string initial_member(const PlanNode& n, std::uint32_t port) {
    return fmt::format("{}_initial{}_", node_ident(n), port);
  }
  const ActorSignature& signature(const PlanNode& n) const { return m_.signatures->at({n.actor_id, m_.pe(pe_).kind}); }
  /// The stem of node n's members: n_actor_, n_elements_, n_ctx_. Every member derived from a
  /// spec name ends with a suffix of its own (_actor_, _elements_, _ctx_, _initial<port>_,
  /// _send_, _recv_, _gpudirect_), none the end of another nor of a fixed member, and spec names neither end with
  /// '_' nor contain '__' (sema), so no two members can meet and no member can hide a name of
  /// namespace scope (those never end with '_').
  static std::string node_ident(const PlanNode& n) { return identifier(n.name); }
  /// The local that views buffer b's colour in a cycle loop: "buf_p_m_A_g0". The prefix keeps it
  /// apart from the names of namespace scope the loop uses (bytes_<type>, kPe_<pe>).
  std::string buffer_local(const StrategyPlan& sm, ir::BufferId b) const { return "buf_" + sm.buffer_idents[b]; }
  std::string device() const { return std::to_string(m_.pe(pe_).device); }
  std::string stream_member(StreamKind s) const { return std::string(to_string(s)) + "_"; }
  /// The member that holds a host-to-host transfer's endpoint: "i1_b_B_cpu_recv_".
  std::string endpoint_member(const StrategyPlan& sm, const Entry& e) const {
    return fmt::format("{}_{}_", sm.buffer_idents[e.to], e.net == Entry::Net::send ? "send" : "recv");
  }
  /// The host at the other end of a host-to-host transfer.
  ir::HostId peer_host(const Entry& e) const { return m_.pe(*e.peer).host; }
  bool has_net() const { return !endpoints_.empty(); }
  /// The member that gives a GPU's end of the gpudirect transfers its path: "A_g0_gpudirect_".
  std::string gpudirect_member(ir::PeId gpu) const { return identifier(m_.pe(gpu).name) + "_gpudirect_"; }
  std::string storage_type() const {
    if (gpu_) return "dfg::DeviceBuffer";
    return m_.has_gpu() ? "dfg::PinnedBuffer" : "dfg::HostBuffer";
  }

  void declaration() {
    std::string node_list;
    for (const PlanNode* n : nodes()) node_list += fmt::format("{}{} ({})", node_list.empty() ? "" : ", ", n->name, n->actor);
    out_.emit({{"cls", cls_},
               {"ctor", mpi_ ? cls_ + "(Run& run, dfg::mpi::Session& mpi)" : "explicit " + cls_ + "(Run& run)"},
               {"pe", m_.pe(pe_).name},
               {"what", node_list.empty() ? "no node; its storage and transfers" : "nodes " + node_list},
               {"select", gpu_ ? "  void select_device() override;\n" : ""}},
              "/// $pe$: $what$.\n"
              "class $cls$ final : public Worker {\n"
              " public:\n"
              "  $ctor$;\n"
              "\n"
              " private:\n"
              "$select$"
              "  void cycles_overlap(dfg::Where& where) override;\n"
              "  void cycles_no_overlap(dfg::Where& where) override;\n"
              "\n"
              "  Run& run_;\n");
    {
      auto scope = out_.indent();
      members();
    }
    out_.emit("};\n\n");
  }

  void members() {
    if (gpu_) {
      for (StreamKind s : m_.streams[pe_])
        out_.emit({{"m", stream_member(s)}}, "dfg::Stream $m$;\n");
      out_.emit("dfg::GpuProbes probes_;\n");
    }
    out_.emit({{"storage", storage_type()}},
              "std::vector<$storage$> storage_;  // one allocation per colour\n");
    if (mpi_) {
      for (ir::PeId gpu : gpudirect_)
        out_.emit({{"m", gpudirect_member(gpu)}, {"pe", m_.pe(gpu).name}},
                  "dfg::mpi::GpuDirect $m$;  // $pe$'s end of the gpudirect transfers: device memory or staged\n");
      if (has_net()) out_.emit("// host-to-host transfers (MPI) of the chosen strategy, built by the constructor\n");
      for (const auto& [net, member] : endpoints_)
        out_.emit({{"type", net == Entry::Net::send ? "SendEndpoint" : "RecvEndpoint"}, {"m", member}},
                  "std::optional<dfg::mpi::$type$> $m$;\n");
      if (has_net()) out_.emit("dfg::mpi::CycleTransfers net_;  // the ones in flight in a cycle\n");
      out_.emit("dfg::mpi::RankBarrier ranks_;  // --sync=barrier: all ranks end each cycle together\n");
    }
    for (const PlanNode* n : nodes()) {
      out_.emit({{"n", node_ident(*n)},
                 {"label", n->name},
                 {"actor", n->actor},
                 {"cls", n->class_name},
                 {"ports", std::to_string(n->port_types.size())}},
                "// node $label$ ($actor$)\n"
                "::$cls$ $n$_actor_;\n"
                "std::array<std::size_t, $ports$> $n$_elements_{};\n"
                "dfg::Context $n$_ctx_;\n");
      for (const auto& [port, in] : initial_inputs(*n))
        out_.emit({{"m", initial_member(*n, port)}, {"type", gpu_ ? "DeviceBuffer" : "HostBuffer"}, {"port", in->port},
                   {"d", std::to_string(in->initial)}},
                  "dfg::$type$ $m$;  // the initial tokens of input $port$ ($d$)\n");
    }
  }

  void constructor() {
    std::string init = "run_(run)";
    if (mpi_) {
      for (ir::PeId gpu : gpudirect_)
        init += fmt::format(",\n{}(mpi, {}, \"{}\")", gpudirect_member(gpu), m_.pe(gpu).device, m_.pe(gpu).name);
      if (has_net()) init += fmt::format(",\nnet_(run.probes, {})", net_capacity_);
      init += ",\nranks_(mpi)";
    }
    if (gpu_) {
      for (StreamKind s : m_.streams[pe_])
        init += fmt::format(",\n{}({}, \"{} {}\")", stream_member(s), device(), m_.pe(pe_).name,
                            to_string(s));
      init += ",\nprobes_(run.probes)";
    }
    out_.emit({{"cls", cls_}, {"init", init}, {"mpi", mpi_ ? ", dfg::mpi::Session& mpi" : ""}},
              "$cls$::$cls$(Run& run$mpi$)\n    : $init$ {\n");
    {
      auto scope = out_.indent();
      constructor_body();
    }
    out_.emit("}\n\n");
  }

  void constructor_body() {
    if (gpu_) out_.emit({{"d", device()}}, "dfg::DeviceGuard device($d$);\n");
    if (!gpudirect_.empty())
      out_.emit("dfg::mpi::report_gpudirect_path(mpi, std::cerr);  // which path the gpudirect transfers take\n");
    out_.emit("const Params& params = run.params;\n");
    out_.emit("if (run.overlap) {\n");
    {
      auto inner = out_.indent();
      allocate(ir::Strategy::overlap);
    }
    out_.emit("} else {\n");
    {
      auto inner = out_.indent();
      allocate(ir::Strategy::no_overlap);
    }
    out_.emit({{"pe", pe_ident_}},
              "}\n"
              "for (std::size_t i = 0; i < storage_.size(); ++i) {\n"
              "  run.memory.$pe$[i] = dfg::SlotView::of(storage_[i]);\n"
              "  if (run.stats) run.stats->note_alloc(kPe_$pe$, storage_[i].bytes());\n"
              "}\n");
    if (gpu_) peers();
    for (const PlanNode* n : nodes()) actor_setup(*n);
  }

  /// A colour's slot bytes: its largest member.
  static std::string colour_bytes(const PlanColour& c) {
    std::vector<std::string> calls;
    for (const std::string& t : c.types) calls.push_back(fmt::format("bytes_{}(params)", t));
    if (calls.size() == 1) return calls[0];
    return fmt::format("std::max({{{}}})", fmt::join(calls, ", "));
  }

  void allocate(ir::Strategy strategy) {
    const std::vector<PlanColour>& colours = m_.strategies[strategy].storage[pe_];
    out_.emit({{"n", std::to_string(colours.size())}}, "storage_.reserve($n$);\n");
    for (const PlanColour& c : colours) {
      out_.emit({{"dev", gpu_ ? device() + ", " : ""},
                 {"name", fmt::format("{}", fmt::join(c.members, ", "))},
                 {"bytes", colour_bytes(c)},
                 {"slots", std::to_string(c.slots)},
                 {"index", std::to_string(c.index)}},
                "storage_.emplace_back($dev$\"$name$\", $bytes$, $slots$);  // colour $index$\n");
    }
    if (!gpu_) {
      endpoints(strategy);
      return;
    }
    const StrategyPlan& sm = m_.strategies[strategy];
    for (std::size_t e : sm.by_pe[pe_])
      out_.emit({{"ns", std::string(strategy_ns(strategy))},
                 {"entry", sm.entries[e].ident},
                 {"d", device()},
                 {"stream", stream_member(*sm.entries[e].stream)}},
                "probes_.add($ns$::$entry$, $d$, $stream$);\n");
  }

  /// The endpoints of the strategy's host-to-host transfers: the peer's rank, the tag, the bytes.
  void endpoints(ir::Strategy strategy) {
    const StrategyPlan& sm = m_.strategies[strategy];
    for (std::size_t i : sm.by_pe[pe_]) {
      const Entry& e = sm.entries[i];
      if (e.net == Entry::Net::none) continue;
      std::string memory;
      if (e.gpudirect)
        memory = fmt::format(", {} the memory of {} (gpudirect)", e.net == Entry::Net::send ? "from" : "into",
                             m_.pe(*e.gpudirect).name);
      out_.emit({{"m", endpoint_member(sm, e)},
                 {"host", std::to_string(peer_host(e))},
                 {"tag", std::to_string(e.tag)},
                 {"bytes", fmt::format("bytes_{}(params)", e.type)},
                 {"name", e.short_name},
                 {"dir", e.net == Entry::Net::send ? "to" : "from"},
                 {"peer", m_.host_names[peer_host(e)]},
                 {"memory", memory}},
                "// $dir$ host $peer$, tag $tag$$memory$\n"
                "$m$.emplace(mpi, mpi.rank_of_host($host$), $tag$, $bytes$, \"$name$\");\n");
      if (e.gpudirect)
        out_.emit({{"g", gpudirect_member(*e.gpudirect)}, {"m", endpoint_member(sm, e)}}, "$g$.attach(*$m$);\n");
    }
  }

  /// Peer access for the GPU -> GPU transfers this GPU launches, where the devices allow it.
  void peers() {
    std::set<int> sources;
    for (ir::Strategy s : ir::kStrategies)
      for (std::size_t i : m_.strategies[s].by_pe[pe_]) {
        const Entry& e = m_.strategies[s].entries[i];
        if (e.stream == StreamKind::peer) sources.insert(m_.pe(e.read->pe).device);
      }
    for (int src : sources)
      out_.emit({{"d", device()}, {"s", std::to_string(src)}},
                "if (dfg::can_access_peer($d$, $s$)) dfg::enable_peer_access($d$, $s$);  // else "
                "staged by the driver\n");
  }

  void actor_setup(const PlanNode& n) {
    const ActorSignature& sig = signature(n);
    std::string id = node_ident(n);
    out_.emit({{"label", n.name}, {"actor", n.actor}}, "// node $label$ ($actor$)\n");
    for (const ir::ParamValue& v : n.params)
      out_.emit({{"n", id}, {"param", v.name}, {"value", v.literal}}, "$n$_actor_.$param$ = $value$;\n");
    std::vector<std::string> elements;
    for (const std::string& type : n.port_types) elements.push_back(fmt::format("elements_{}(params)", type));
    out_.emit({{"n", id}, {"elements", fmt::format("{}", fmt::join(elements, ", "))}},
              "$n$_elements_ = {$elements$};\n"
              "$n$_ctx_.set_port_elements($n$_elements_.data(), $n$_elements_.size());\n");
    if (n.repetitions != 1)
      out_.emit({{"n", id}, {"q", std::to_string(n.repetitions)}}, "$n$_ctx_.set_firings($q$);  // per call\n");
    if (gpu_)
      out_.emit({{"n", id}, {"d", device()}},
                "$n$_ctx_.set_stream(compute_);\n"
                "$n$_ctx_.set_device($d$);\n");
    for (const auto& [port, in] : initial_inputs(n))
      out_.emit({{"m", initial_member(n, port)},
                 {"type", gpu_ ? "DeviceBuffer" : "HostBuffer"},
                 {"dev", gpu_ ? device() + ", " : ""},
                 {"name", fmt::format("{}.{} initial tokens", n.name, in->port)},
                 {"t", in->type},
                 {"d", std::to_string(in->initial)},
                 {"elem", in->elem},
                 {"value", in->initial_value}},
                "$m$ = dfg::$type$($dev$\"$name$\", bytes_$t$(params), $d$);\n"
                "dfg::fill_initial_tokens<$elem$>($m$, elements_$t$(params), static_cast<$elem$>($value$));\n");
    if (sig.has_init)
      out_.emit({{"n", id}, {"ctx", sig.init_takes_context ? id + "_ctx_" : ""}},
                "$n$_actor_.init($ctx$);\n");
  }

  /// A GPU's worker selects its device on its thread before its cycle loop (dfg::PeWorker).
  void run() {
    if (!gpu_) return;
    out_.emit({{"cls", cls_}, {"d", device()}, {"pe", m_.pe(pe_).name}},
              "void $cls$::select_device() { DFG_CUDA_CHECK(cudaSetDevice($d$), \"select device $d$ for $pe$\"); }\n\n");
  }

  // ---- the cycle loops ----

  static std::string slot(const SlotRef& r) { return fmt::format("dfg::slot(c, {}, {})", r.lag, r.slots); }
  std::string at(const StrategyPlan& sm, const SlotRef& r) const {
    return fmt::format("{}.at({})", buffer_local(sm, r.buffer), slot(r));
  }
  static std::string bytes_of(const Entry& e) { return fmt::format("bytes_{}(run_.params)", e.type); }

  void loop(ir::Strategy strategy) {
    const StrategyPlan& sm = m_.strategies[strategy];
    const bool overlap = strategy == ir::Strategy::overlap;
    ns_ = std::string(strategy_ns(strategy));
    const bool idle = sm.by_pe[pe_].empty();
    out_.emit({{"cls", cls_},
               {"fn", overlap ? "cycles_overlap" : "cycles_no_overlap"},
               {"doc", overlap ? "With overlap: launch the transfers, fire, wait for the streams, "
                                 "end the cycle."
                               : "Without overlap: the transfer steps, then the firings, each "
                                 "phase ending with a barrier."},
               {"where", idle ? "" : " where"}},
              "/// $doc$\n"
              "void $cls$::$fn$(dfg::Where&$where$) {\n");
    {
      auto body = out_.indent();
      loop_body(sm, overlap);
    }
    out_.emit("}\n\n");
  }

  void loop_body(const StrategyPlan& sm, bool overlap) {
    for (ir::BufferId b : sm.touched[pe_]) {
      const PlanBuffer& buf = sm.buffers[b];
      out_.emit({{"id", buffer_local(sm, b)},
                 {"pe", identifier(m_.pe(buf.pe).name)},
                 {"i", std::to_string(buf.colour)},
                 {"name", buf.name},
                 {"depth", std::to_string(buf.depth)}},
                "const dfg::SlotView& $id$ = run_.memory.$pe$[$i$];  // buffer $name$, depth "
                "$depth$\n");
    }
    out_.emit({{"pe", pe_ident_}},
              "dfg::WindowCursor win = run_.windows.cursor(kPe_$pe$);\n"
              "for (std::int64_t c = 0; c < run_.cycles; ++c) {\n");
    {
      auto cycle = out_.indent();
      if (overlap) {
        out_.emit({{"pe", pe_ident_}}, "run_.begin_cycle(kPe_$pe$, c);\nwin.begin(c);\n");
        for (std::size_t e : sm.by_pe[pe_]) item(sm, sm.entries[e]);
      } else {
        out_.emit("win.begin(c);\n");
        steps(sm);
        for (std::size_t e : sm.by_pe[pe_])
          if (sm.entries[e].kind != Entry::Kind::transfer) item(sm, sm.entries[e]);
      }
      if (gpu_) {
        out_.emit({{"streams", wait_streams(m_.streams[pe_])}}, "$streams$probes_.poll();\n");
      }
      if (overlap && has_net())
        out_.emit("where.clear();\nnet_.wait();  // this cycle's host-to-host transfers\n");
      out_.emit({{"pe", pe_ident_}}, "run_.end_cycle(kPe_$pe$, c);\n");
      if (overlap && mpi_)
        out_.emit(
            "if (run_.barrier_sync) {  // the ranks' barrier, between two of this rank's\n"
            "  ranks_.arrive_and_wait();\n"
            "  run_.end_phase();\n"
            "}\n");
      else if (overlap && m_.multi_host())
        out_.emit("if (run_.barrier_sync) run_.end_phase();  // while the CPU worker meets the other ranks\n");
    }
    out_.emit("}\nwin.finish();\n");
  }

  std::string wait_streams(const std::set<StreamKind>& streams) const {
    std::string out;
    for (StreamKind k : streams) out += stream_member(k) + ".synchronize();\n";
    return out;
  }

  /// Without overlap: the transfer steps, each ending with a wait and a barrier.
  void steps(const StrategyPlan& sm) {
    if (!sm.has_transfers) return;
    std::set<StreamKind> used;
    std::set<std::uint32_t> net_steps;
    for (std::size_t e : sm.by_pe[pe_]) {
      const Entry& x = sm.entries[e];
      if (x.kind != Entry::Kind::transfer) continue;
      if (x.net != Entry::Net::none) net_steps.insert(x.step);
      else used.insert(*x.stream);
    }
    if (used.empty() && net_steps.empty()) {
      out_.emit(
          "for (int step = 0; step < no_overlap::kTransferSteps; ++step) {\n"
          "  run_.end_phase();  // transfer step: the GPUs launch them\n"
          "}\n");
      return;
    }
    for (std::uint32_t step = 0; step < sm.transfer_steps; ++step) {
      out_.emit({{"step", std::to_string(step)}}, "// transfer step $step$\n");
      for (std::size_t e : sm.by_pe[pe_])
        if (sm.entries[e].kind == Entry::Kind::transfer && sm.entries[e].step == step)
          item(sm, sm.entries[e]);
      if (net_steps.count(step)) out_.emit("where.clear();\nnet_.wait();\n");
      out_.emit({{"streams", wait_streams(used)}}, "$streams$run_.end_phase();\n");
    }
  }

  void item(const StrategyPlan& sm, const Entry& e) {
    std::string j = e.first_cycle == 0 ? "c" : fmt::format("c - {}", e.first_cycle);
    std::string comment = e.label;
    if (e.net != Entry::Net::none)
      comment += fmt::format(" ({}: {} host {}, tag {})", e.link, e.net == Entry::Net::send ? "send to" : "receive from",
                             m_.host_names[peer_host(e)], e.tag);
    else if (e.kind == Entry::Kind::transfer)
      comment += fmt::format(" ({})", e.link);
    out_.emit({{"ns", ns_}, {"entry", e.ident}, {"comment", comment}, {"j", j}, {"label", e.label}},
              "// $comment$\n"
              "if (win.active($ns$::$entry$)) {\n"
              "  const std::int64_t j = where.at(\"$label$\", $j$);\n");
    {
      auto inside = out_.indent();
      item_body(sm, e);
    }
    out_.emit("}\n");
  }

  void item_body(const StrategyPlan& sm, const Entry& e) {
    if (m_.has_gpu()) out_.emit({{"name", e.short_name}}, "DFG_NVTX_RANGE(\"$name$\");\n");
    std::string stream = e.stream ? stream_member(*e.stream) : "";
    if (gpu_)
      out_.emit({{"ns", ns_}, {"entry", e.ident}, {"s", stream}}, "probes_.start($ns$::$entry$, $s$);\n");
    else if (e.net == Entry::Net::none)
      out_.emit({{"ns", ns_}, {"entry", e.ident}}, "dfg::Probe probe(run_.probes, $ns$::$entry$, j);\n");
    switch (e.kind) {
      case Entry::Kind::firing: firing(sm, e); break;
      case Entry::Kind::transfer:
        if (e.net != Entry::Net::none) net_transfer(sm, e);
        else transfer(sm, e, stream);
        break;
      case Entry::Kind::copy: copy(sm, e); break;
    }
    if (gpu_)
      out_.emit({{"ns", ns_}, {"entry", e.ident}, {"s", stream}},
                "probes_.stop($ns$::$entry$, $s$, j);\n");
  }

  void firing(const StrategyPlan& sm, const Entry& e) {
    const PlanNode& n = m_.node(e.id);
    const ActorSignature& sig = signature(n);
    std::vector<std::string> args;
    for (std::uint32_t port : sig.fire_ports) {
      const PortRef& ref = e.ports[port];
      std::string arg = fmt::format("{}.as<{}{}>({})", buffer_local(sm, ref.slot.buffer), ref.input ? "const " : "",
                                    ref.elem, slot(ref.slot));
      // In its first iterations the node reads the initial tokens.
      if (ref.initial)
        arg = fmt::format("j < {} ? {}.slot_as<const {}>(static_cast<std::size_t>(j)) : {}", ref.initial,
                          initial_member(n, port), ref.elem, arg);
      args.push_back(std::move(arg));
    }
    std::string id = node_ident(n);
    if (sig.fire_takes_context) args.push_back(id + "_ctx_");
    std::string one_line = fmt::format("{}", fmt::join(args, ", "));
    // The loop body is indented by 6; wider calls get one argument a line.
    bool wide = 6 + id.size() + 14 + one_line.size() + 2 > 100;
    out_.emit({{"n", id}, {"args", wide ? fmt::format("{}", fmt::join(args, ",\n")) : one_line}},
              "$n$_ctx_.set_iteration(j);\n"
              "$n$_actor_.fire($args$);\n");
    if (gpu_) out_.emit("DFG_CUDA_CHECK(cudaGetLastError(), \"launch\");\n");
    if (has_net() && ns_ == "overlap") out_.emit("net_.poll();  // progress the host-to-host transfers\n");
  }

  /// Posts this host's end of a host-to-host transfer; net_.wait() completes it.
  void net_transfer(const StrategyPlan& sm, const Entry& e) {
    std::string slot = at(sm, e.net == Entry::Net::send ? *e.read : *e.write);
    out_.emit({{"m", endpoint_member(sm, e)}, {"ns", ns_}, {"entry", e.ident}, {"slot", slot}},
              "net_.start(*$m$, $ns$::$entry$, j, $slot$);\n");
  }

  void transfer(const StrategyPlan& sm, const Entry& e, const std::string& stream) {
    std::string dst = at(sm, *e.write);
    std::string src = at(sm, *e.read);
    if (e.stream == StreamKind::peer) {
      out_.emit({{"dst", dst},
                 {"dd", std::to_string(m_.pe(e.write->pe).device)},
                 {"src", src},
                 {"sd", std::to_string(m_.pe(e.read->pe).device)},
                 {"bytes", bytes_of(e)},
                 {"s", stream}},
                "dfg::copy_peer_async($dst$, $dd$, $src$, $sd$,\n"
                "                     $bytes$, $s$, \"cudaMemcpyPeerAsync\");\n");
      return;
    }
    out_.emit({{"dst", dst}, {"src", src}, {"bytes", bytes_of(e)}, {"s", stream}},
              "dfg::copy_async($dst$, $src$,\n"
              "                $bytes$, $s$, \"cudaMemcpyAsync\");\n");
  }

  void copy(const StrategyPlan& sm, const Entry& e) {
    std::string dst = at(sm, *e.write);
    std::string src = at(sm, *e.read);
    if (gpu_)
      out_.emit({{"dst", dst}, {"src", src}, {"bytes", bytes_of(e)}},
                "dfg::copy_async($dst$, $src$,\n"
                "                $bytes$, compute_, \"cudaMemcpyAsync\");\n");
    else
      out_.emit({{"dst", dst}, {"src", src}, {"bytes", bytes_of(e)}},
                "std::memcpy($dst$, $src$,\n"
                "            $bytes$);\n");
  }

  const Model& m_;
  ir::PeId pe_;
  bool gpu_;
  bool mpi_;  ///< the CPU worker of a program on several hosts: the rank's MPI thread
  std::string cls_;
  std::string pe_ident_;
  std::string ns_;
  std::set<std::pair<Entry::Net, std::string>> endpoints_;  ///< (direction, member), both strategies
  std::set<ir::PeId> gpudirect_;  ///< the GPUs whose gpudirect transfers this worker runs, both strategies
  std::size_t net_capacity_ = 0;  ///< the most host-to-host transfers of one strategy
  Printer out_;
};

}  // namespace

std::string render_worker(const Model& m, ir::PeId pe) { return WorkerPrinter(m, pe).render(); }

}  // namespace dfgc::codegen
