#include "codegen/worker.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "codegen/actor_headers.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen {

std::set<std::string> actor_includes(const Model& m, ir::PeId pe) {
  const ActorHeaders headers(*m.actor_files);
  std::set<std::string> includes;
  for (const PlanNode* n : m.nodes_on(pe)) includes.insert(headers.include(n->header_path));
  for (const Entry& e : m.strategies[ir::Strategy::overlap].entries)
    for (const PortRef& port : e.ports)
      if (e.runner == pe && port.initial)
        includes.insert(m.pe(pe).kind == ir::PeKind::gpu ? "\"dfg/cuda/initial_tokens.hpp\""
                                                         : "\"dfg/initial_tokens.hpp\"");
  return includes;
}

namespace {

std::string_view strategy_ns(ir::Strategy s) {
  return s == ir::Strategy::overlap ? "overlap" : "no_overlap";
}

/// Prints one PE's worker.
class WorkerPrinter {
 public:
  WorkerPrinter(const Model& m, ir::PeId pe)
      : m_(m),
        pe_(pe),
        gpu_(m.pe(pe).kind == ir::PeKind::gpu),
        mpi_(m.multi_host() && pe == m.cpu()),
        cls_(m.pe(pe).worker),
        pe_ident_(m.pe(pe).ident) {
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
    shared_views_ = m_.sharing[pe_].views;
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
  /// their port indices, each once: with migration alternatives the union holds several firing
  /// entries of a node (its old-only and new-only ones, one per alternative, or all of G1's when
  /// a delta shifts them; some on n's other PEs), which all read the one member of n's instance
  /// on this PE (fire() names it by node and port).
  std::vector<std::pair<std::uint32_t, const PortRef*>> initial_inputs(const PlanNode& n) const {
    std::vector<std::pair<std::uint32_t, const PortRef*>> result;
    std::set<std::uint32_t> seen;
    for (const Entry& e : m_.strategies[ir::Strategy::overlap].entries)
      if (e.kind == Entry::Kind::firing && e.id == n.id && e.runner == n.pe)
        for (std::uint32_t port = 0; port < e.ports.size(); ++port)
          if (e.ports[port].initial && seen.insert(port).second)
            result.emplace_back(port, &e.ports[port]);
    return result;
  }
  static const ActorSignature& signature(const PlanNode& n) { return *n.signature; }
  /// The local that views buffer b's colour in a cycle loop: "buf_p_m_A_g0". The prefix keeps it
  /// apart from the names of namespace scope the loop uses (bytes_<type>, kPe_<pe>).
  /// With views shared by both strategies (PlanSharing::views), they are members: "p_m_A_g0_view_"
  /// (the suffix keeps them apart from the other members, as PlanNode::member says).
  std::string buffer_local(const StrategyPlan& sm, ir::BufferId b) const {
    return shared_views_ ? sm.buffer_idents[b] + "_view_" : "buf_" + sm.buffer_idents[b];
  }
  /// The views of the buffers the loops touch: `prefix` declares them (members or locals).
  void views(const StrategyPlan& sm, bool with_depth) {
    for (ir::BufferId b : sm.touched[pe_]) {
      const PlanBuffer& buf = sm.buffers[b];
      part("worker_view",
           {{"id", buffer_local(sm, b)},
            {"pe", m_.pe(buf.pe).ident},
            {"i", std::to_string(buf.colour)},
            {"name", buf.name},
            {"depth", with_depth
                          ? render_part("worker_depth", {{"depth", std::to_string(buf.depth)}})
                          : ""}});
    }
  }
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
  /// The member that holds a host-to-host transfer's endpoint: "i1_b_B_cpu_recv_".
  std::string endpoint_member(const StrategyPlan& sm, const Entry& e) const {
    return sm.buffer_idents[e.to] + (e.net == Entry::Net::send ? "_send_" : "_recv_");
  }
  /// The host at the other end of a host-to-host transfer.
  ir::HostId peer_host(const Entry& e) const { return m_.pe(*e.peer).host; }
  bool has_net() const { return !endpoints_.empty(); }
  std::string storage_type() const {
    if (gpu_) return "dfg::DeviceBuffer";
    return m_.has_gpu() ? "dfg::PinnedBuffer" : "dfg::HostBuffer";
  }

  void declaration() {
    std::vector<std::string> node_list;
    for (const PlanNode* n : nodes())
      node_list.push_back(
          render_part("worker_node_actor", {{"name", n->name}, {"actor", n->actor}}));
    const std::string members_text = block([&] {
      auto scope = out_.indent();
      members();
    });
    part("worker_class",
         {{"cls", cls_},
          {"ctor", render_part(mpi_ ? TemplatePart("worker_ctor_decl_mpi")
                                    : TemplatePart("worker_ctor_decl"),
                               {{"cls", cls_}})},
          {"pe", m_.pe(pe_).name},
          {"what", node_list.empty() ? render_part("worker_no_node")
                                     : render_part("worker_nodes", {{"nodes", join(node_list)}})},
          {"base", base_class()},
          {"members", members_text}});
  }

  /// dfg::GpuWorker (dfg/cuda/gpu_worker.hpp) or dfg::CpuWorker (dfg/run.hpp): the run state,
  /// the storage, and a GPU's streams and probes.
  std::string base_class() const {
    if (gpu_) return render_part("worker_base_gpu");
    return render_part("worker_base_cpu", {{"storage", storage_type()}});
  }

  void members() {
    if (!nodes().empty() || mpi_ || shared_views_) out_.emit("\n");
    if (mpi_) {
      for (ir::PeId gpu : gpudirect_)
        part("worker_gpudirect_member", {{"m", m_.pe(gpu).gpudirect}, {"pe", m_.pe(gpu).name}});
      if (has_net()) part("worker_net_comment");
      for (const auto& [net, member] : endpoints_)
        part("worker_endpoint_member",
             {{"type", net == Entry::Net::send ? "SendEndpoint" : "RecvEndpoint"}, {"m", member}});
      if (has_net()) part("worker_net_member");
      part("worker_ranks_member");
    }
    if (shared_views_) {
      // Views of the colours the other workers' constructors fill in: read once the loops run.
      views(m_.strategies[ir::Strategy::overlap], false);
    }
    for (const PlanNode* n : nodes()) {
      part("worker_node_member",
           {{"m", n->member},
            {"label", n->alternative < 0
                          ? n->name
                          : render_part("worker_node_label_alternative",
                                        {{"name", n->name},
                                         {"alternative", std::to_string(n->alternative)}})},
            {"actor", n->actor},
            {"cls", n->class_name},
            {"ports", std::to_string(n->port_types.size())}});
      for (const auto& [port, in] : initial_inputs(*n))
        part("worker_initial_member", {{"m", n->initial_members[port]},
                                       {"type", gpu_ ? "DeviceBuffer" : "HostBuffer"},
                                       {"port", in->port},
                                       {"d", std::to_string(in->initial)}});
    }
  }

  void constructor() {
    std::vector<std::string> init;
    if (gpu_) {
      std::vector<std::string> tracks;
      for (StreamKind s : {StreamKind::compute, StreamKind::h2d, StreamKind::d2h, StreamKind::peer})
        tracks.push_back(m_.streams[pe_].count(s)
                             ? render_part("worker_track", {{"pe", pe_ident_},
                                                            {"stream", std::string(to_string(s))}})
                             : "0");
      init.push_back(render_part(
          "worker_init_gpu", {{"pe", pe_ident_}, {"device", device()}, {"tracks", join(tracks)}}));
    } else {
      init.push_back(render_part("worker_init_cpu"));
    }
    if (mpi_) {
      for (ir::PeId gpu : gpudirect_)
        init.push_back(
            render_part("worker_init_gpudirect", {{"m", m_.pe(gpu).gpudirect},
                                                  {"device", std::to_string(m_.pe(gpu).device)},
                                                  {"pe", m_.pe(gpu).name}}));
      if (has_net())
        init.push_back(
            render_part("worker_init_net", {{"capacity", std::to_string(net_capacity_)}}));
      init.push_back(render_part("worker_init_ranks"));
    }
    const std::string body = block([&] { constructor_body(); });
    part("worker_ctor", {{"cls", cls_},
                         {"mpi", mpi_ ? render_part("worker_ctor_mpi") : ""},
                         {"init", join(init)},
                         {"body", body}});
  }

  void constructor_body() {
    if (gpu_) part("worker_device_guard", {{"d", device()}});
    if (!gpudirect_.empty()) part("worker_report_gpudirect");
    // A PE that holds no node and no storage in either strategy (its nodes all moved away or
    // not yet moved to it) reads no param.
    bool idle = nodes().empty();
    for (ir::Strategy s : ir::kStrategies) idle = idle && m_.strategies[s].storage[pe_].empty();
    if (!idle) part("worker_params");
    if (m_.sharing[pe_].colours && endpoints_.empty()) {
      allocate(ir::Strategy::overlap, true);
    } else {
      const std::string overlap = block([&] { allocate(ir::Strategy::overlap, false); });
      const std::string no_overlap = block([&] { allocate(ir::Strategy::no_overlap, false); });
      part("worker_by_strategy", {{"overlap", overlap}, {"no_overlap", no_overlap}});
    }
    part("worker_publish", {{"pe", pe_ident_}});
    if (gpu_) peers();
    for (const PlanNode* n : nodes()) actor_setup(*n);
  }

  /// A colour's slot bytes: its largest member.
  static std::string colour_bytes(const PlanColour& c) {
    std::vector<std::string> calls;
    for (const std::string& t : c.types)
      calls.push_back(render_part("worker_bytes", {{"type", t}}));
    if (calls.size() == 1) return calls[0];
    return render_part("worker_max", {{"calls", join(calls)}});
  }

  /// The colours of `strategy`; `both`: the same colours serve both strategies
  /// (PlanSharing::colours), each with the slots of the strategy that runs.
  void allocate(ir::Strategy strategy, bool both) {
    const std::vector<PlanColour>& colours = m_.strategies[strategy].storage[pe_];
    for (std::size_t i = 0; i < colours.size(); ++i) {
      const PlanColour& c = colours[i];
      std::string slots = std::to_string(c.slots);
      if (both) {
        const PlanColour& other = m_.strategies[ir::Strategy::no_overlap].storage[pe_][i];
        if (other.slots != c.slots)
          slots = render_part(
              "worker_slots_by_strategy",
              {{"overlap", std::to_string(c.slots)}, {"no_overlap", std::to_string(other.slots)}});
      }
      part("worker_colour", {{"dev", gpu_ ? render_part("worker_dev", {{"d", device()}}) : ""},
                             {"name", join(c.members)},
                             {"bytes", colour_bytes(c)},
                             {"slots", slots},
                             {"mapped", c.mapped ? render_part("worker_mapped") : ""},
                             {"lengths", c.lengths ? render_part("worker_with_lengths") : ""},
                             {"index", std::to_string(c.index)}});
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
        memory = render_part("worker_endpoint_gpudirect_note",
                             {{"dir", e.net == Entry::Net::send ? "from" : "into"},
                              {"pe", m_.pe(*e.gpudirect).name}});
      part("worker_endpoint", {{"m", endpoint_member(sm, e)},
                               {"host", std::to_string(peer_host(e))},
                               {"tag", std::to_string(e.tag)},
                               {"bytes", render_part("worker_bytes", {{"type", e.type}})},
                               {"name", e.short_name},
                               {"dir", e.net == Entry::Net::send ? "to" : "from"},
                               {"peer", m_.host_names[peer_host(e)]},
                               {"memory", memory}});
      if (e.gpudirect)
        part("worker_endpoint_attach",
             {{"g", m_.pe(*e.gpudirect).gpudirect}, {"m", endpoint_member(sm, e)}});
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
      part("worker_peer_access", {{"d", device()}, {"s", std::to_string(src)}});
  }

  void actor_setup(const PlanNode& n) {
    const ActorSignature& sig = signature(n);
    std::string m = n.member;
    for (const ir::ParamValue& v : n.params)
      part("worker_param", {{"m", m}, {"param", v.name}, {"value", v.literal}});
    std::vector<std::string> elements;
    for (const std::string& type : n.port_types)
      elements.push_back(render_part("worker_elements", {{"type", type}}));
    Printer::Vars set_up = {{"m", m}, {"elements", join(elements)}};
    if (n.repetitions != 1) {
      set_up.emplace_back("q", std::to_string(n.repetitions));
      set_up.emplace_back("batch", m_.batch == 1 ? "" : ", kBatch");
    }
    TemplatePart set_up_part = "worker_set_up";
    if (n.repetitions > 1)
      set_up_part =
          n.block ? TemplatePart("worker_set_up_block") : TemplatePart("worker_set_up_parts");
    part(set_up_part, set_up);
    if (gpu_) part("worker_set_gpu", {{"m", m}, {"d", device()}});
    for (const auto& [port, in] : initial_inputs(n)) {
      part("worker_initial_alloc",
           {{"m", n.initial_members[port]},
            {"type", gpu_ ? "DeviceBuffer" : "HostBuffer"},
            {"dev", gpu_ ? render_part("worker_dev", {{"d", device()}}) : ""},
            {"name", render_part("worker_initial_name", {{"node", n.name}, {"port", in->port}})},
            {"t", in->type},
            {"d", std::to_string(in->initial)}});
      if (in->initial_method.empty())
        part("worker_initial_fill", {{"m", n.initial_members[port]},
                                     {"t", in->type},
                                     {"elem", in->elem},
                                     {"value", in->initial_value}});
    }
    if (sig.has_init)
      part(
          "worker_init_call",
          {{"m", m}, {"ctx", sig.init_takes_context ? render_part("worker_ctx", {{"m", m}}) : ""}});
    // Initial tokens filled by the node's own member function, after its init.
    for (const auto& [port, in] : initial_inputs(n))
      if (!in->initial_method.empty())
        part("worker_initial_fill_with", {{"m", n.initial_members[port]},
                                          {"node", m},
                                          {"t", in->type},
                                          {"elem", in->elem},
                                          {"fn", in->initial_method}});
  }

  // ---- the cycle loops: the plan's steps ----

  void loop(ir::Strategy strategy) {
    const StrategyPlan& sm = m_.strategies[strategy];
    const bool overlap = strategy == ir::Strategy::overlap;
    ns_ = std::string(strategy_ns(strategy));
    overlap_ = overlap;
    between_.clear();
    const std::string items = block([&] { loop_items(sm); });
    const std::string steps = block([&] { loop_steps(sm); });
    Printer::Vars vars = {{"cls", cls_},
                          {"fn", overlap ? "cycles_overlap" : "cycles_no_overlap"},
                          {"items", items},
                          {"steps", steps}};
    if (!between_.empty()) vars.emplace_back("between", between_);
    if (steps.find_first_not_of(" \n") == std::string::npos && between_.empty()) {
      // No step of this strategy runs here: the PE still meets the others every cycle.
      part("worker_loop_idle", {{"cls", cls_}, {"fn", vars[1].second}, {"items", items}});
      return;
    }
    part(between_.empty() ? TemplatePart("worker_loop") : TemplatePart("worker_loop_between"),
         vars);
  }

  /// The loop's views (unless shared) and its dfg::Items.
  void loop_items(const StrategyPlan& sm) {
    if (!shared_views_) views(sm, true);
    if (gpu_ && pe_ < sm.gpu_cycles.size() && sm.gpu_cycles[pe_])
      gpu_cycles_items(*sm.gpu_cycles[pe_]);
    else
      part(gpu_ ? TemplatePart("worker_items_gpu") : TemplatePart("worker_items_cpu"),
           {{"pe", pe_ident_}});
  }

  /// The body of the cycle loop (dfg::Items::cycles): the steps; the last, the end of the
  /// cycle, is the loop's.
  void loop_steps(const StrategyPlan& sm) {
    const std::vector<Step>& steps = sm.steps[pe_];
    DFGC_INTERNAL_ASSERT(!steps.empty() && steps.back().kind == Step::Kind::end_cycle,
                         "a cycle's steps end with the end of the cycle");
    for (const Step& step : steps) {
      switch (step.kind) {
        case Step::Kind::fire: fire(sm, sm.entries[step.entry]); break;
        case Step::Kind::copy: copy(sm, sm.entries[step.entry]); break;
        case Step::Kind::mapped_copy: mapped_copy(sm, sm.entries[step.entry]); break;
        case Step::Kind::net_post: net_post(sm, sm.entries[step.entry]); break;
        case Step::Kind::net_complete: net_complete(); break;
        case Step::Kind::delay_copy: delay_copy(sm, sm.entries[step.entry]); break;
        case Step::Kind::wait: wait(step.streams); break;
        case Step::Kind::end_phase: end_phase(step.phase); break;
        case Step::Kind::end_cycle: end_cycle(); break;
      }
    }
  }

  /// A GPU's items whose cycles run ahead of the thread (dfg::GpuCycles): its streams and the
  /// plan's stream orders, one comment a line.
  void gpu_cycles_items(const GpuCycles& g) {
    std::vector<std::string> streams, orders;
    for (StreamKind k : g.streams) streams.push_back(stream_member(k));
    std::string comments;
    for (const StreamOrder& o : g.orders) {
      const Printer::Vars vars = {{"stream", std::string(to_string(o.stream))},
                                  {"after", std::string(to_string(o.after))},
                                  {"cycles", std::to_string(o.cycles)}};
      Printer::Vars with_colour = vars;
      with_colour.emplace_back("colour", o.colour);
      comments += render_part("worker_gpu_order_comment", with_colour);
      orders.push_back(render_part("worker_gpu_order", {{"stream", stream_member(o.stream)},
                                                        {"after", stream_member(o.after)},
                                                        {"cycles", std::to_string(o.cycles)}}));
    }
    part("worker_items_gpu_cycles",
         {{"pe", pe_ident_},
          {"comments", comments},
          {"mapped", g.mapped ? render_part("worker_gpu_mapped_comment") : ""},
          {"streams", join(streams)},
          {"orders", join(orders)},
          {"release", g.mapped ? render_part("worker_gpu_release_cycle") : ""}});
  }

  // ---- one emitter per kind of step ----

  static std::string slot(const SlotRef& r) {
    return render_part("worker_slot",
                       {{"lag", std::to_string(r.lag)}, {"slots", std::to_string(r.slots)}});
  }
  /// A slot's first byte; of a bounded buffer, the slot with its length cell (dfg::SlotToken).
  std::string at(const StrategyPlan& sm, const SlotRef& r) const {
    return render_part(
        sm.buffers[r.buffer].bounded ? TemplatePart("worker_token") : TemplatePart("worker_at"),
        {{"view", buffer_local(sm, r.buffer)}, {"slot", slot(r)}});
  }
  /// The entry's enumerator: "overlap::fire_p".
  std::string entry(const Entry& e) const {
    return render_part("worker_entry", {{"ns", ns_}, {"entry", e.ident}});
  }

  /// One item of the loop: `items.<how>(<entry>, [<stream>, ]lambda)` around what `body` emits,
  /// `comment` at the end of the first line where it fits in 100 columns, else on the line before.
  /// `how`: run (a CPU's firing or copy, timed by a dfg::Probe), post (a host-to-host transfer's
  /// end), fire or copy (a GPU's, on `stream`).
  template <class Body>
  void item(const Entry& e, std::string_view how, bool takes_j, const std::string& comment,
            Body body) {
    const std::string head = render_part(
        "worker_item_head",
        {{"how", std::string(how)},
         {"entry", entry(e)},
         {"stream",
          gpu_ ? render_part("worker_item_stream", {{"stream", stream_member(*e.stream)}}) : ""},
         {"j", takes_j ? render_part("worker_item_j") : ""}});
    const std::string text = block(body);
    // The loop body is indented by 4.
    const bool fits = 4 + head.size() + 5 + comment.size() <= 100;
    part(fits ? TemplatePart("worker_item") : TemplatePart("worker_item_comment_before"),
         {{"head", head}, {"comment", comment}, {"body", text}});
  }

  void fire(const StrategyPlan& sm, const Entry& e) {
    const PlanNode& n = m_.node(e.id, e.runner);
    const ActorSignature& sig = signature(n);
    const std::string m = n.member;
    const int handoff = n.handoff;
    std::vector<std::string> args;
    for (std::uint32_t port : sig.fire_ports) {
      const PortRef& ref = e.ports[port];
      Printer::Vars vars = {{"view", buffer_local(sm, ref.slot.buffer)},
                            {"elem", ref.elem},
                            {"slot", slot(ref.slot)}};
      // A bounded token: its elements, its length cell, its capacity and the port's name.
      const bool bounded = sm.buffers[ref.slot.buffer].bounded;
      if (bounded) vars.insert(vars.end(), {{"type", ref.type}, {"port", ref.port}});
      TemplatePart access =
          ref.input ? TemplatePart("worker_arg_in") : TemplatePart("worker_arg_out");
      if (bounded)
        access = ref.input ? TemplatePart("worker_arg_bounded_in")
                           : TemplatePart("worker_arg_bounded_out");
      std::string arg = render_part(access, vars);
      // In its first iterations the node reads the initial tokens.
      if (ref.initial)
        arg = render_part("worker_arg_initial", {{"d", std::to_string(ref.initial)},
                                                 {"m", n.initial_members[port]},
                                                 {"elem", ref.elem},
                                                 {"arg", arg}});
      args.push_back(std::move(arg));
    }
    item(e, gpu_ ? "fire" : "run", true, e.label, [&] {
      const Printer::Vars handoff_vars = {
          {"entry", entry(e)}, {"h", std::to_string(handoff)}, {"m", m}};
      if (handoff >= 0) part("worker_restore", handoff_vars);
      if (n.repetitions != 1 && !n.block)
        fire_parts(n, sig, std::move(args));
      else
        part(sig.fire_takes_context ? TemplatePart("worker_fire_context")
                                    : TemplatePart("worker_fire"),
             {{"m", m}, {"args", join(args)}});
      if (handoff >= 0) part("worker_save", handoff_vars);
      if (has_net() && overlap_) part("worker_net_poll");
    });
  }

  /// A node that is not `block` fires q times per cycle: one call per firing k, on firing k's part
  /// of each block (`args`, the blocks, in the order of fire's parameters).
  void fire_parts(const PlanNode& n, const ActorSignature& sig, std::vector<std::string> args) {
    const std::string m = n.member;
    for (std::size_t i = 0; i < args.size(); ++i)
      args[i] =
          render_part("worker_arg_part",
                      {{"m", m}, {"port", std::to_string(sig.fire_ports[i])}, {"arg", args[i]}});
    const std::string call =
        render_part(sig.fire_takes_context ? TemplatePart("worker_fire_part_context")
                                           : TemplatePart("worker_fire_part"),
                    {{"m", m}, {"args", join(args)}});
    part("worker_fire_parts", {{"q", std::to_string(n.repetitions)}, {"call", call}});
  }

  /// A transfer within the host, launched by this GPU on its stream: the entry's bytes.
  void copy(const StrategyPlan& sm, const Entry& e) {
    if (e.order_only) {
      part("worker_order_only",
           {{"comment", render_part("worker_label_link", {{"label", e.label}, {"link", e.link}})}});
      return;
    }
    Printer::Vars vars = {
        {"comment", render_part("worker_label_link", {{"label", e.label}, {"link", e.link}})},
        {"entry", entry(e)},
        {"stream", stream_member(*e.stream)},
        {"dst", at(sm, *e.write)},
        {"src", at(sm, *e.read)}};
    const bool peer = e.stream == StreamKind::peer;
    if (peer)
      vars.insert(vars.end(), {{"dst_device", std::to_string(m_.pe(e.write->pe).device)},
                               {"src_device", std::to_string(m_.pe(e.read->pe).device)}});
    part(peer ? TemplatePart("worker_copy_peer") : TemplatePart("worker_copy"), vars);
  }

  /// A transfer to or from a GPU's mapped colour, which this CPU copies on the host.
  void mapped_copy(const StrategyPlan& sm, const Entry& e) {
    if (e.order_only) {  // its ring is shared: nothing to copy, as on a GPU's stream
      part("worker_order_only",
           {{"comment", render_part("worker_label_link", {{"label", e.label}, {"link", e.link}})}});
      return;
    }
    item(e, "run", false,
         render_part("worker_label_mapped", {{"label", e.label}, {"link", e.link}}), [&] {
           part("worker_mapped_copy",
                {{"dst", at(sm, *e.write)}, {"src", at(sm, *e.read)}, {"type", e.type}});
         });
  }

  /// Posts this host's end of a host-to-host transfer; net_complete completes it.
  void net_post(const StrategyPlan& sm, const Entry& e) {
    const bool send = e.net == Entry::Net::send;
    const std::string comment = render_part(
        send ? TemplatePart("worker_net_label_send") : TemplatePart("worker_net_label_recv"),
        {{"label", e.label},
         {"link", e.link},
         {"peer", m_.host_names[peer_host(e)]},
         {"tag", std::to_string(e.tag)}});
    item(e, "post", true, comment, [&] {
      part("worker_net_start", {{"m", endpoint_member(sm, e)},
                                {"entry", entry(e)},
                                {"at", at(sm, send ? *e.read : *e.write)}});
    });
  }

  void net_complete() {
    part(overlap_ ? TemplatePart("worker_net_complete_overlap")
                  : TemplatePart("worker_net_complete"));
  }

  void delay_copy(const StrategyPlan& sm, const Entry& e) {
    item(e, gpu_ ? "copy" : "run", false, e.label, [&] {
      part(gpu_ ? TemplatePart("worker_delay_copy_gpu") : TemplatePart("worker_delay_copy_cpu"),
           {{"dst", at(sm, *e.write)}, {"src", at(sm, *e.read)}, {"type", e.type}});
    });
  }

  void wait(const std::vector<StreamKind>& streams) {
    std::vector<std::string> members;
    for (StreamKind k : streams) members.push_back(stream_member(k));
    part("worker_wait", {{"streams", join(members)}});
  }

  void end_phase(std::uint32_t phase) {
    part("worker_end_phase", {{"phase", std::to_string(phase)}});
  }

  /// The end of the cycle, dfg::Items::cycles' own; with overlap on several hosts, what the loop
  /// does between two cycles: the ranks' barrier of --sync=barrier (the MPI thread's worker meets
  /// the other ranks, the others wait for it).
  void end_cycle() {
    if (overlap_ && mpi_)
      between_ = render_part("worker_end_cycle_ranks");
    else if (overlap_ && m_.multi_host())
      between_ = render_part("worker_end_cycle_rank_peer");
  }

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
  std::set<std::pair<Entry::Net, std::string>>
      endpoints_;  ///< (direction, member), both strategies
  std::set<ir::PeId>
      gpudirect_;  ///< the GPUs whose gpudirect transfers this worker runs, both strategies
  std::size_t net_capacity_ = 0;  ///< the most host-to-host transfers of one strategy
  Printer out_;
};

}  // namespace

std::string render_worker(const Model& m, ir::PeId pe) { return WorkerPrinter(m, pe).render(); }

}  // namespace dfgc::codegen
