#include "codegen/worker.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "codegen/actor_headers.hpp"
#include "codegen/printer.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::string worker_class(const Model& m, ir::PeId pe) { return "Worker_" + identifier(m.pe(pe).name); }

namespace {

/// Whether alternative `a`'s move carries node's state through this host: save/restore in both
/// implementations, an end on this host (the other one on this host, or, with the plan's state
/// tag, on another).
bool moves_state(const Model& m, const PlanMigration& a) {
  const bool from_here = m.pe(a.from).host == m.host, to_here = m.pe(a.to).host == m.host;
  if (!from_here && !to_here) return false;
  if (from_here != to_here && a.state_tag < 0) return false;
  const ir::ActorId actor = m.node(a.node, from_here ? a.from : a.to).actor_id;
  auto has = [&](ir::PeId pe) {
    auto it = m.signatures->find({actor, m.pe(pe).kind});
    return it != m.signatures->end() && it->second.has_state;
  };
  return has(a.from) && has(a.to);
}

}  // namespace

std::vector<ir::NodeId> state_nodes(const Model& m) {
  std::set<ir::NodeId> nodes;
  for (const PlanMigration& a : m.migrations)
    if (moves_state(m, a)) nodes.insert(a.node);
  return {nodes.begin(), nodes.end()};
}

int state_handoff(const Model& m, const PlanMigration& a) {
  if (!moves_state(m, a)) return -1;
  const std::vector<ir::NodeId> nodes = state_nodes(m);
  return static_cast<int>(std::find(nodes.begin(), nodes.end(), a.node) - nodes.begin());
}

std::string actor_includes(const Model& m, ir::PeId pe) {
  const ActorHeaders headers(*m.actor_files);
  std::set<std::string> lines;
  for (const PlanNode* n : m.nodes_on(pe)) lines.insert(headers.include(n->header_path));
  for (const Entry& e : m.strategies[ir::Strategy::overlap].entries)
    for (const PortRef& port : e.ports)
      if (e.runner == pe && port.initial)
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
        mpi_(m.multi_host() && pe == m.cpu()), cls_(worker_class(m, pe)), pe_ident_(identifier(m.pe(pe).name)) {
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
    shared_views_ = same_views();
  }

  std::string render() {
    declaration();
    constructor();
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
  /// _initial<port>_ is of its own, see node_member()).
  static std::string initial_member(const PlanNode& n, std::uint32_t port) {
    return fmt::format("{}_initial{}_", identifier(n.name), port);
  }
  const ActorSignature& signature(const PlanNode& n) const { return m_.signatures->at({n.actor_id, m_.pe(pe_).kind}); }
  /// Node n's member (a dfg::Node): "n_node_". Every member derived from a spec name ends with a
  /// suffix of its own (_node_, _initial<port>_, _send_, _recv_, _gpudirect_), none the end of
  /// another nor of a fixed member, and spec names neither end with '_' nor contain '__' (sema),
  /// so no two members can meet and no member can hide a name of namespace scope (those never end
  /// with '_').
  static std::string node_member(const PlanNode& n) { return identifier(n.name) + "_node_"; }
  /// The local that views buffer b's colour in a cycle loop: "buf_p_m_A_g0". The prefix keeps it
  /// apart from the names of namespace scope the loop uses (bytes_<type>, kPe_<pe>).
  /// With views shared by both strategies (same_views()), they are members: "p_m_A_g0_view_"
  /// (the suffix keeps them apart from the other members, as node_member says).
  std::string buffer_local(const StrategyPlan& sm, ir::BufferId b) const {
    return shared_views_ ? sm.buffer_idents[b] + "_view_" : "buf_" + sm.buffer_idents[b];
  }
  /// Whether the buffers this PE touches are the same in both strategies, with the same names,
  /// each in the same colour of the same PE: then one view of each serves both loops.
  bool same_views() const {
    const StrategyPlan& a = m_.strategies[ir::Strategy::overlap];
    const StrategyPlan& b = m_.strategies[ir::Strategy::no_overlap];
    if (a.touched[pe_] != b.touched[pe_]) return false;
    for (ir::BufferId x : a.touched[pe_])
      if (a.buffer_idents[x] != b.buffer_idents[x] || a.buffers[x].pe != b.buffers[x].pe ||
          a.buffers[x].colour != b.buffers[x].colour)
        return false;
    return true;
  }
  /// The views of the buffers the loops touch: `prefix` declares them (members or locals).
  void views(const StrategyPlan& sm, bool with_depth) {
    for (ir::BufferId b : sm.touched[pe_]) {
      const PlanBuffer& buf = sm.buffers[b];
      out_.emit({{"id", buffer_local(sm, b)},
                 {"pe", identifier(m_.pe(buf.pe).name)},
                 {"i", std::to_string(buf.colour)},
                 {"name", buf.name},
                 {"depth", with_depth ? ", depth " + std::to_string(buf.depth) : ""}},
                "const dfg::SlotView& $id$ = run_.memory.$pe$[$i$];  // buffer $name$$depth$\n");
    }
  }
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
               {"base", base_class()}},
              "/// $pe$: $what$.\n"
              "class $cls$ final : public $base$ {\n"
              " public:\n"
              "  $ctor$;\n"
              "\n"
              " private:\n"
              "  void cycles_overlap(dfg::Where& where) override;\n"
              "  void cycles_no_overlap(dfg::Where& where) override;\n");
    {
      auto scope = out_.indent();
      members();
    }
    out_.emit("};\n\n");
  }

  /// dfg::GpuWorker (dfg/cuda/gpu_worker.hpp) or dfg::CpuWorker (dfg/run.hpp): the run state,
  /// the storage, and a GPU's streams and probes.
  std::string base_class() const {
    if (gpu_) return "dfg::GpuWorker<Run>";
    return fmt::format("dfg::CpuWorker<Run, {}>", storage_type());
  }

  void members() {
    if (!nodes().empty() || mpi_ || shared_views_) out_.emit("\n");
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
    if (shared_views_) {
      // Views of the colours the other workers' constructors fill in: read once the loops run.
      views(m_.strategies[ir::Strategy::overlap], false);
    }
    for (const PlanNode* n : nodes()) {
      out_.emit({{"m", node_member(*n)},
                 {"label", n->alternative < 0 ? n->name
                                              : fmt::format("{}, migration {}'s instance", n->name, n->alternative)},
                 {"actor", n->actor},
                 {"cls", n->class_name},
                 {"ports", std::to_string(n->port_types.size())}},
                "dfg::Node<::$cls$, $ports$> $m$;  // node $label$ ($actor$)\n");
      for (const auto& [port, in] : initial_inputs(*n))
        out_.emit({{"m", initial_member(*n, port)}, {"type", gpu_ ? "DeviceBuffer" : "HostBuffer"}, {"port", in->port},
                   {"d", std::to_string(in->initial)}},
                  "dfg::$type$ $m$;  // the initial tokens of input $port$ ($d$)\n");
    }
  }

  void constructor() {
    std::string init;
    if (gpu_) {
      std::vector<std::string> tracks;
      for (StreamKind s : {StreamKind::compute, StreamKind::h2d, StreamKind::d2h, StreamKind::peer})
        tracks.push_back(m_.streams[pe_].count(s) ? fmt::format("kTrack_{}_{}", pe_ident_, to_string(s)) : "0");
      // Continued lines under the first argument: the printer indents them to `init`'s column, 6.
      std::string args = arguments({"run", "kPe_" + pe_ident_, device(), fmt::format("{{{}}}", fmt::join(tracks, ", "))},
                                   16);
      for (std::size_t at = args.find('\n'); at != std::string::npos; at = args.find('\n', at + 1))
        args.insert(at + 1, "          ");
      init = "GpuWorker(" + args + ")";
    } else {
      init = "CpuWorker(run)";
    }
    if (mpi_) {
      for (ir::PeId gpu : gpudirect_)
        init += fmt::format(",\n{}(mpi, {}, \"{}\")", gpudirect_member(gpu), m_.pe(gpu).device, m_.pe(gpu).name);
      if (has_net()) init += fmt::format(",\nnet_(run.probes, {})", net_capacity_);
      init += ",\nranks_(mpi)";
    }
    // One line when it fits in 100 columns, else one initializer a line.
    std::string flat = init;
    for (std::size_t at = flat.find(",\n"); at != std::string::npos; at = flat.find(",\n", at)) {
      const std::size_t end = flat.find_first_not_of(' ', at + 2);
      flat.replace(at, end - at, ", ");
    }
    if (6 + flat.size() + 2 <= 100) init = flat;
    const std::string mpi = mpi_ ? ", dfg::mpi::Session& mpi" : "";
    const bool one_line =
        init.find('\n') == std::string::npos && 2 * cls_.size() + 2 + 10 + mpi.size() + 4 + init.size() + 2 <= 100;
    out_.emit({{"cls", cls_}, {"init", init}, {"mpi", mpi}},
              one_line ? "$cls$::$cls$(Run& run$mpi$) : $init$ {\n" : "$cls$::$cls$(Run& run$mpi$)\n    : $init$ {\n");
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
    if (same_colours() && endpoints_.empty()) {
      allocate(ir::Strategy::overlap, true);
    } else {
      out_.emit("if (run.overlap) {\n");
      {
        auto inner = out_.indent();
        allocate(ir::Strategy::overlap, false);
      }
      out_.emit("} else {\n");
      {
        auto inner = out_.indent();
        allocate(ir::Strategy::no_overlap, false);
      }
      out_.emit("}\n");
    }
    out_.emit({{"pe", pe_ident_}}, "run.publish(kPe_$pe$, storage_, run.memory.$pe$);\n");
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

  /// Whether both strategies give this PE the same colours (members and types), index by index:
  /// then one allocation serves either, only the slots depending on the strategy.
  bool same_colours() const {
    const std::vector<PlanColour>& a = m_.strategies[ir::Strategy::overlap].storage[pe_];
    const std::vector<PlanColour>& b = m_.strategies[ir::Strategy::no_overlap].storage[pe_];
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].members != b[i].members || a[i].types != b[i].types) return false;
    return true;
  }

  /// The colours of `strategy`; `both`: the same colours serve both strategies (same_colours()),
  /// each with the slots of the strategy that runs.
  void allocate(ir::Strategy strategy, bool both) {
    const std::vector<PlanColour>& colours = m_.strategies[strategy].storage[pe_];
    for (std::size_t i = 0; i < colours.size(); ++i) {
      const PlanColour& c = colours[i];
      std::string slots = std::to_string(c.slots);
      if (both) {
        const PlanColour& other = m_.strategies[ir::Strategy::no_overlap].storage[pe_][i];
        if (other.slots != c.slots) slots = fmt::format("run.overlap ? {} : {}", c.slots, other.slots);
      }
      out_.emit({{"dev", gpu_ ? device() + ", " : ""},
                 {"name", fmt::format("{}", fmt::join(c.members, ", "))},
                 {"bytes", colour_bytes(c)},
                 {"slots", slots},
                 {"lengths", c.lengths ? ", dfg::kWithLengths" : ""},
                 {"index", std::to_string(c.index)}},
                "storage_.emplace_back($dev$\"$name$\", $bytes$, $slots$$lengths$);  // colour $index$\n");
    }
    if (!gpu_ && !both) endpoints(strategy);
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
    std::string m = node_member(n);
    for (const ir::ParamValue& v : n.params)
      out_.emit({{"m", m}, {"param", v.name}, {"value", v.literal}}, "$m$.actor.$param$ = $value$;\n");
    std::vector<std::string> elements;
    for (const std::string& type : n.port_types) elements.push_back(fmt::format("elements_{}(params)", type));
    out_.emit({{"m", m},
               {"elements", fmt::format("{}", fmt::join(elements, ", "))},
               {"q", n.repetitions != 1 ? fmt::format(", {}, {}", n.repetitions, n.block ? "true" : "false") : ""},
               {"how", n.repetitions == 1 ? "" : n.block ? "  // in one call" : "  // a call each"}},
              "$m$.set_up(run.runtime_params, {$elements$}$q$);$how$\n");
    if (gpu_) out_.emit({{"m", m}, {"d", device()}}, "$m$.set_gpu(compute_, $d$);\n");
    for (const auto& [port, in] : initial_inputs(n)) {
      out_.emit({{"m", initial_member(n, port)},
                 {"type", gpu_ ? "DeviceBuffer" : "HostBuffer"},
                 {"dev", gpu_ ? device() + ", " : ""},
                 {"name", fmt::format("{}.{} initial tokens", n.name, in->port)},
                 {"t", in->type},
                 {"d", std::to_string(in->initial)}},
                "$m$ = dfg::$type$($dev$\"$name$\", bytes_$t$(params), $d$);\n");
      if (in->initial_method.empty())
        out_.emit({{"m", initial_member(n, port)}, {"t", in->type}, {"elem", in->elem}, {"value", in->initial_value}},
                  "dfg::fill_initial_tokens<$elem$>($m$, elements_$t$(params), static_cast<$elem$>($value$));\n");
    }
    if (sig.has_init)
      out_.emit({{"m", m}, {"ctx", sig.init_takes_context ? m + ".ctx" : ""}}, "$m$.actor.init($ctx$);\n");
    // Initial tokens filled by the node's own member function, after its init.
    for (const auto& [port, in] : initial_inputs(n))
      if (!in->initial_method.empty())
        out_.emit({{"m", initial_member(n, port)},
                   {"node", m},
                   {"t", in->type},
                   {"elem", in->elem},
                   {"fn", in->initial_method}},
                  "dfg::fill_initial_tokens_with<$elem$>($m$, elements_$t$(params),\n"
                  "                                      [&](std::size_t j, $elem$* token, std::size_t elements) {\n"
                  "                                        $node$.actor.$fn$(j, token, elements);\n"
                  "                                      });\n");
  }

  // ---- the cycle loops: the plan's steps ----

  void loop(ir::Strategy strategy) {
    const StrategyPlan& sm = m_.strategies[strategy];
    const bool overlap = strategy == ir::Strategy::overlap;
    ns_ = std::string(strategy_ns(strategy));
    overlap_ = overlap;
    out_.emit({{"cls", cls_}, {"fn", overlap ? "cycles_overlap" : "cycles_no_overlap"}},
              "void $cls$::$fn$(dfg::Where& where) {\n");
    {
      auto body = out_.indent();
      loop_body(sm);
    }
    out_.emit("}\n\n");
  }

  void loop_body(const StrategyPlan& sm) {
    if (!shared_views_) views(sm, true);
    if (gpu_ && pe_ < sm.gpu_cycles.size() && sm.gpu_cycles[pe_]) {
      gpu_cycles_items(*sm.gpu_cycles[pe_]);
    } else {
      out_.emit({{"pe", pe_ident_},
                 {"type", gpu_ ? "GpuItems" : "Items"},
                 {"probes", gpu_ ? ", probes_" : ""}},
                "dfg::$type$ items(run_, where, kPe_$pe$$probes$);\n");
    }
    out_.emit("for (std::int64_t c = 0; c < run_.cycles; ++c) {\n"
              "  items.begin(c);\n");
    {
      auto cycle = out_.indent();
      for (const Step& step : sm.steps[pe_]) {
        switch (step.kind) {
          case Step::Kind::fire: fire(sm, sm.entries[step.entry]); break;
          case Step::Kind::copy: copy(sm, sm.entries[step.entry]); break;
          case Step::Kind::net_post: net_post(sm, sm.entries[step.entry]); break;
          case Step::Kind::net_complete: net_complete(); break;
          case Step::Kind::delay_copy: delay_copy(sm, sm.entries[step.entry]); break;
          case Step::Kind::wait: wait(step.streams); break;
          case Step::Kind::end_phase: end_phase(step.phase); break;
          case Step::Kind::end_cycle: end_cycle(); break;
        }
      }
    }
    out_.emit("}\n");
  }

  /// A GPU's items whose cycles run ahead of the thread (dfg::GpuCycles): its streams and the
  /// plan's stream orders, one comment a line.
  void gpu_cycles_items(const GpuCycles& g) {
    std::vector<std::string> streams;
    for (StreamKind k : g.streams) streams.push_back(stream_member(k));
    out_.emit("// The cycles run ahead of this thread, each stream waiting on the GPU for the\n"
              "// other streams' cycles whose slots it reuses:\n");
    for (const StreamOrder& o : g.orders)
      out_.emit({{"s", std::string(to_string(o.stream))},
                 {"t", std::string(to_string(o.after))},
                 {"d", std::to_string(o.cycles)},
                 {"colour", o.colour}},
                "//   $s$ in cycle c after $t$ in cycle c - $d$ ($colour$)\n");
    std::vector<std::string> orders;
    for (const StreamOrder& o : g.orders)
      orders.push_back(fmt::format("{{{}, {}, {}}}", stream_member(o.stream), stream_member(o.after), o.cycles));
    const std::vector<std::string> args = {"run_", "where", "kPe_" + pe_ident_, "probes_",
                                           fmt::format("{{{}}}", fmt::join(streams, ", "))};
    // The loop body is indented by 2, "dfg::GpuItems items(" is 20 wide: the orders start a line
    // at column 22, as many a line as fit, the next lines inside their brace.
    std::string list = "{";
    std::size_t at = 2 + 20 + 1;
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const std::size_t width = orders[i].size() + (i + 1 < orders.size() ? 1 : 3);  // "," or "});"
      if (i > 0 && at + 1 + width > 100) {
        list += ",\n ";
        at = 2 + 20 + 1;
      } else if (i > 0) {
        list += ", ";
        at += 1;
      }
      list += orders[i];
      at += width;
    }
    list += "}";
    out_.emit({{"args", arguments(args, 2 + 20)}, {"orders", list}},
              "dfg::GpuItems items($args$,\n"
              "                    $orders$);\n");
  }

  // ---- one emitter per kind of step ----

  static std::string slot(const SlotRef& r) { return fmt::format("dfg::slot(c, {}, {})", r.lag, r.slots); }
  /// A slot's first byte; of a bounded buffer, the slot with its length cell (dfg::SlotToken).
  std::string at(const StrategyPlan& sm, const SlotRef& r) const {
    return fmt::format("{}.{}({})", buffer_local(sm, r.buffer), sm.buffers[r.buffer].bounded ? "token" : "at", slot(r));
  }
  static std::string bytes_of(const Entry& e) { return fmt::format("bytes_{}(run_.params)", e.type); }

  /// A call's arguments, as many a line as fit in 100 columns when the first starts at `column`
  /// (the printer aligns the next lines with it).
  static std::string arguments(const std::vector<std::string>& args, std::size_t column) {
    std::string out;
    std::size_t at = column;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::size_t width = args[i].size() + (i + 1 < args.size() ? 1 : 2);  // ", " or ");"
      if (i > 0 && at + 1 + width > 100) {
        out += ",\n";
        at = column;
      } else if (i > 0) {
        out += ", ";
        at += 1;
      }
      out += args[i];
      at += width;
    }
    return out;
  }

  /// One item of the loop: `items.<how>(<entry>, [<stream>, ]lambda)` around what `body` emits,
  /// `comment` at the end of the first line where it fits in 100 columns, else on the line before.
  /// `how`: run (a CPU's firing or copy, timed by a dfg::Probe), post (a host-to-host transfer's
  /// end), fire or copy (a GPU's, on `stream`).
  template <class Body>
  void item(const Entry& e, std::string_view how, bool takes_j, const std::string& comment, Body body) {
    Printer head;
    head.emit({{"how", std::string(how)},
               {"ns", ns_},
               {"entry", e.ident},
               {"stream", gpu_ ? stream_member(*e.stream) + ", " : ""},
               {"j", takes_j ? "(std::int64_t j)" : ""}},
              "items.$how$($ns$::$entry$, $stream$[&]$j$ {");
    const std::string opening = head.take();
    // The loop body is indented by 4.
    out_.emit({{"opening", opening}, {"comment", comment}},
              4 + opening.size() + 5 + comment.size() <= 100 ? "$opening$  // $comment$\n"
                                                               : "// $comment$\n$opening$\n");
    {
      auto inside = out_.indent();
      body();
    }
    out_.emit("});\n");
  }

  void fire(const StrategyPlan& sm, const Entry& e) {
    const PlanNode& n = m_.node(e.id, e.runner);
    const ActorSignature& sig = signature(n);
    const std::string m = node_member(n);
    const int handoff = state_handoff(n);
    std::vector<std::string> args;
    for (std::uint32_t port : sig.fire_ports) {
      const PortRef& ref = e.ports[port];
      std::string arg = fmt::format("{}.as<{}{}>({})", buffer_local(sm, ref.slot.buffer), ref.input ? "const " : "",
                                    ref.elem, slot(ref.slot));
      // A bounded token: its elements, its length cell, its capacity and the port's name.
      if (sm.buffers[ref.slot.buffer].bounded)
        arg = fmt::format("{}.bounded<{}{}>({}, elements_{}(run_.params), \"{}\")", buffer_local(sm, ref.slot.buffer),
                          ref.input ? "const " : "", ref.elem, slot(ref.slot), ref.type, ref.port);
      // In its first iterations the node reads the initial tokens.
      if (ref.initial)
        arg = fmt::format("j < {} ? {}.slot_as<const {}>(static_cast<std::size_t>(j)) : {}", ref.initial,
                          initial_member(n, port), ref.elem, arg);
      args.push_back(std::move(arg));
    }
    item(e, gpu_ ? "fire" : "run", true, e.label, [&] {
      // The body is indented by 6.
      if (handoff >= 0)
        out_.emit({{"ns", ns_}, {"entry", e.ident}, {"h", std::to_string(handoff)}, {"m", m}},
                  "if (items.resumes($ns$::$entry$, j)) run_.handoffs[$h$].restore($m$.actor, j);  // its state\n");
      if (n.repetitions != 1 && !n.block) {
        fire_parts(n, sig, std::move(args));
      } else if (sig.fire_takes_context) {
        args.insert(args.begin(), "j");
        out_.emit({{"m", m}, {"args", arguments(args, 6 + m.size() + 6)}}, "$m$.fire($args$);\n");
      } else {
        out_.emit({{"m", m}, {"args", arguments(args, 6 + m.size() + 12)}}, "$m$.at(j);\n$m$.actor.fire($args$);\n");
      }
      if (handoff >= 0)
        out_.emit({{"ns", ns_}, {"entry", e.ident}, {"h", std::to_string(handoff)}, {"m", m}},
                  "if (items.suspends($ns$::$entry$, j)) run_.handoffs[$h$].save($m$.actor, j + 1);\n");
      if (has_net() && overlap_) out_.emit("net_.poll();  // progress the host-to-host transfers\n");
    });
  }

  /// A node that is not `block` fires q times per cycle: one call per firing k, on firing k's part
  /// of each block (`args`, the blocks, in the order of fire's parameters).
  void fire_parts(const PlanNode& n, const ActorSignature& sig, std::vector<std::string> args) {
    const std::string m = node_member(n);
    for (std::size_t i = 0; i < args.size(); ++i)
      args[i] = fmt::format("{}.part({}, k, {})", m, sig.fire_ports[i], args[i]);
    out_.emit({{"q", std::to_string(n.repetitions)}},
              "for (std::uint32_t k = 0; k < $q$; ++k) {  // $q$ firings, a call each\n");
    {
      auto each = out_.indent();
      // The body is indented by 8.
      if (sig.fire_takes_context) {
        args.insert(args.begin(), {"j", "k"});
        out_.emit({{"m", m}, {"args", arguments(args, 8 + m.size() + 11)}}, "$m$.fire_part($args$);\n");
      } else {
        out_.emit({{"m", m}, {"args", arguments(args, 8 + m.size() + 12)}},
                  "$m$.at(j, k);\n$m$.actor.fire($args$);\n");
      }
    }
    out_.emit("}\n");
  }

  /// The index of n's state handoff (state_nodes()) when this instance takes part in a move of
  /// its state, else -1.
  int state_handoff(const PlanNode& n) const {
    const std::vector<ir::NodeId> nodes = state_nodes(m_);
    auto it = std::find(nodes.begin(), nodes.end(), n.id);
    if (it == nodes.end()) return -1;
    for (const PlanMigration& a : m_.migrations)
      if (a.node == n.id && moves_state(m_, a) && (a.from == n.pe || a.to == n.pe))
        return static_cast<int>(it - nodes.begin());
    return -1;
  }

  /// A transfer within the host, launched by this GPU on its stream: the entry's bytes.
  void copy(const StrategyPlan& sm, const Entry& e) {
    const bool peer = e.stream == StreamKind::peer;
    std::vector<std::string> args = {ns_ + "::" + e.ident, stream_member(*e.stream), at(sm, *e.write)};
    if (peer) args.push_back(std::to_string(m_.pe(e.write->pe).device));
    args.push_back(at(sm, *e.read));
    if (peer) args.push_back(std::to_string(m_.pe(e.read->pe).device));
    const std::string fn = peer ? "copy_peer" : "copy";
    // The loop body is indented by 4.
    out_.emit({{"comment", fmt::format("{} ({})", e.label, e.link)},
               {"fn", fn},
               {"args", arguments(args, 4 + 7 + fn.size())}},
              "// $comment$\n"
              "items.$fn$($args$);\n");
  }

  /// Posts this host's end of a host-to-host transfer; net_complete completes it.
  void net_post(const StrategyPlan& sm, const Entry& e) {
    const std::string comment =
        fmt::format("{} ({}: {} host {}, tag {})", e.label, e.link,
                    e.net == Entry::Net::send ? "send to" : "receive from", m_.host_names[peer_host(e)], e.tag);
    item(e, "post", true, comment, [&] {
      // The body is indented by 6.
      const std::vector<std::string> args = {"*" + endpoint_member(sm, e), ns_ + "::" + e.ident, "j",
                                             at(sm, e.net == Entry::Net::send ? *e.read : *e.write)};
      out_.emit({{"args", arguments(args, 6 + 11)}}, "net_.start($args$);\n");
    });
  }

  void net_complete() {
    out_.emit({{"note", overlap_ ? "  // this cycle's host-to-host transfers" : ""}}, "where.clear();\nnet_.wait();$note$\n");
  }

  void delay_copy(const StrategyPlan& sm, const Entry& e) {
    item(e, gpu_ ? "copy" : "run", false, e.label, [&] {
      // The body is indented by 6.
      std::vector<std::string> args = {at(sm, *e.write), at(sm, *e.read), bytes_of(e)};
      if (gpu_) {
        args.insert(args.end(), {"compute_", "\"cudaMemcpyAsync\""});
        out_.emit({{"args", arguments(args, 6 + 16)}}, "dfg::copy_async($args$);\n");
      } else {
        out_.emit({{"args", arguments(args, 6 + 12)}}, "std::memcpy($args$);\n");
      }
    });
  }

  void wait(const std::vector<StreamKind>& streams) {
    std::vector<std::string> members;
    for (StreamKind k : streams) members.push_back(stream_member(k));
    out_.emit({{"streams", fmt::format("{}", fmt::join(members, ", "))}}, "dfg::synchronize($streams$);\n");
  }

  void end_phase(std::uint32_t phase) {
    out_.emit({{"phase", std::to_string(phase)}}, "run_.end_phase();  // the end of transfer step $phase$\n");
  }

  void end_cycle() {
    out_.emit("items.end_cycle(c);\n");
    if (overlap_ && mpi_)
      out_.emit(
          "if (run_.barrier_sync) {  // the ranks' barrier, between two of this rank's\n"
          "  ranks_.arrive_and_wait();\n"
          "  run_.end_phase();\n"
          "}\n");
    else if (overlap_ && m_.multi_host())
      out_.emit("if (run_.barrier_sync) run_.end_phase();  // while the CPU worker meets the other ranks\n");
  }

  const Model& m_;
  ir::PeId pe_;
  bool gpu_;
  bool mpi_;  ///< the first CPU's worker of a program on several hosts: the rank's MPI thread
  std::string cls_;
  std::string pe_ident_;
  std::string ns_;
  bool overlap_ = true;  ///< the strategy of the loop being printed
  bool shared_views_ = false;  ///< the buffer views are members shared by both loops
  std::set<std::pair<Entry::Net, std::string>> endpoints_;  ///< (direction, member), both strategies
  std::set<ir::PeId> gpudirect_;  ///< the GPUs whose gpudirect transfers this worker runs, both strategies
  std::size_t net_capacity_ = 0;  ///< the most host-to-host transfers of one strategy
  Printer out_;
};

}  // namespace

std::string render_worker(const Model& m, ir::PeId pe) { return WorkerPrinter(m, pe).render(); }

}  // namespace dfgc::codegen
