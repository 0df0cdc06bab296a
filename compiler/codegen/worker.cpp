#include "codegen/worker.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "codegen/actor_headers.hpp"
#include "codegen/worker_printer.hpp"

namespace dfgc::codegen {

std::set<std::string> actor_includes(const Model& m, ir::PeId pe) {
  const ActorHeaders headers(*m.actor_files);
  std::set<std::string> includes;
  for (const PlanNode* n : m.nodes_on(pe)) {
    includes.insert(headers.include(n->header_path));
    if (!n->windows.empty())
      includes.insert(m.pe(pe).kind == ir::PeKind::gpu ? "\"dfg/cuda/peek_window.hpp\""
                                                       : "\"dfg/peek_window.hpp\"");
  }
  for (const Entry& e : m.strategies[ir::Strategy::overlap].entries)
    for (const PortRef& port : e.ports())
      if (e.runner == pe && port.initial)
        includes.insert(m.pe(pe).kind == ir::PeKind::gpu ? "\"dfg/cuda/initial_tokens.hpp\""
                                                         : "\"dfg/initial_tokens.hpp\"");
  return includes;
}

std::set<std::uint32_t> structs_used(const Model& m, ir::PeId pe) {
  std::set<std::uint32_t> out;
  for (const PlanNode* n : m.nodes_on(pe))
    for (const std::string& type : n->port_types)
      for (const PlanType& t : m.program->types)
        if (t.name == type && t.record) out.insert(*t.record);
  return out;
}

std::string struct_checks(const Model& m, const std::set<std::uint32_t>& structs) {
  if (structs.empty()) return "";
  std::string checks;
  for (std::uint32_t id : structs) {
    const PlanStruct& s = m.program->structs[id];
    std::string offsets;
    for (const auto& [field, offset] : s.fields)
      offsets += render_part(
          "struct_offset",
          {{"name", s.name}, {"cxx", s.cxx}, {"field", field}, {"offset", std::to_string(offset)}});
    checks += render_part("struct_check", {{"name", s.name},
                                           {"cxx", s.cxx},
                                           {"size", std::to_string(s.size)},
                                           {"align", std::to_string(s.align)},
                                           {"offsets", offsets}});
  }
  return render_part("struct_checks", {{"checks", checks}});
}

std::string render_worker(const Model& m, ir::PeId pe) {
  return worker_detail::WorkerPrinter(m, pe).render();
}

namespace worker_detail {

WorkerPrinter::WorkerPrinter(const Model& m, ir::PeId pe)
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
      if (!sm.entries[e].net()) continue;
      const Entry::Transfer& t = sm.entries[e].transfer();
      endpoints_.insert({t.net, t.endpoint});
      if (t.gpudirect) gpudirect_.insert(*t.gpudirect);
      ++count;
    }
    net_capacity_ = std::max(net_capacity_, count);
  }
  shared_views_ = m_.sharing[pe_].views;
}

std::string WorkerPrinter::render() {
  declaration();
  constructor();
  if (m_.sharing[pe_].loop)
    loop(ir::Strategy::overlap);  // the same steps without overlap: PeWorker::cycles serves both
  else
    for (ir::Strategy s : ir::kStrategies) loop(s);
  finish();
  return out_.take();
}

std::vector<const PlanNode*> WorkerPrinter::finishing() const {
  std::vector<const PlanNode*> out;
  for (const PlanNode* n : nodes())
    if (!n->shares_instance && signature(*n).has_finish) out.push_back(n);
  return out;
}

void WorkerPrinter::finish() {
  const std::vector<const PlanNode*> ns = finishing();
  if (ns.empty()) return;
  const std::string last = m_.program->copies == 1
                               ? std::string("run_.last_cycle()")
                               : "run_.last_cycle() * " + std::to_string(m_.program->copies);
  std::string calls;
  for (const PlanNode* n : ns) {
    // A node that never moves and is not copied has one instance, which fired every cycle (a
    // GPU's cycles relaunched as CUDA graphs do not call its fire() on the host again).
    const bool one = m_.program->copies == 1 &&
                     std::none_of(m_.migrations.begin(), m_.migrations.end(),
                                  [&](const PlanMigration& m) { return m.node == n->id; });
    calls += render_part(
        "worker_finish_call",
        {{"m", n->member},
         {"last", one ? "" : last},
         {"label", "node " + n->spec_name() + " (" + n->actor + ") @ " + m_.pe(n->pe).name}});
  }
  part("worker_finish", {{"cls", cls_}, {"calls", calls}});
}

std::vector<std::pair<std::uint32_t, const PortRef*>> WorkerPrinter::initial_inputs(
    const PlanNode& n) const {
  std::vector<std::pair<std::uint32_t, const PortRef*>> result;
  std::set<std::uint32_t> seen;
  for (const Entry& e : m_.strategies[ir::Strategy::overlap].entries)
    if (e.kind() == Entry::Kind::firing && e.id == n.id && e.runner == n.pe)
      for (std::uint32_t port = 0; port < e.ports().size(); ++port)
        if (e.ports()[port].initial && seen.insert(port).second)
          result.emplace_back(port, &e.ports()[port]);
  return result;
}

void WorkerPrinter::views(const StrategyPlan& sm, bool with_depth) {
  for (ir::BufferId b : sm.touched[pe_]) {
    const PlanBuffer& buf = sm.buffers[b];
    part("worker_view",
         {{"id", buffer_local(sm, b)},
          {"pe", m_.pe(buf.pe).ident},
          {"i", std::to_string(buf.colour)},
          {"name", buf.name},
          {"depth",
           with_depth ? render_part("worker_depth", {{"depth", std::to_string(buf.depth)}}) : ""}});
  }
}

std::string WorkerPrinter::storage_type() const {
  if (gpu_) return "dfg::DeviceBuffer";
  return m_.has_gpu() ? "dfg::PinnedBuffer" : "dfg::HostBuffer";
}

void WorkerPrinter::declaration() {
  std::vector<std::string> node_list;
  for (const PlanNode* n : nodes())
    node_list.push_back(render_part("worker_node_actor", {{"name", n->name}, {"actor", n->actor}}));
  const std::string members_text = block([&] {
    auto scope = out_.indent();
    members();
  });
  part("worker_class",
       {{"cls", cls_},
        {"ctor",
         render_part(mpi_ ? TemplatePart("worker_ctor_decl_mpi") : TemplatePart("worker_ctor_decl"),
                     {{"cls", cls_}})},
        {"pe", m_.pe(pe_).name},
        {"what", node_list.empty() ? render_part("worker_no_node")
                                   : render_part("worker_nodes", {{"nodes", join(node_list)}})},
        {"base", base_class()},
        {"loops", render_part(m_.sharing[pe_].loop ? TemplatePart("worker_loop_decl_shared")
                                                   : TemplatePart("worker_loop_decls")) +
                      (finishing().empty() ? "" : render_part("worker_finish_decl"))},
        {"members", members_text}});
}

std::string WorkerPrinter::base_class() const {
  if (gpu_) return render_part("worker_base_gpu");
  return render_part("worker_base_cpu", {{"storage", storage_type()}});
}

void WorkerPrinter::members() {
  if (!nodes().empty() || mpi_ || shared_views_) out_.emit("\n");
  if (mpi_) {
    for (ir::PeId gpu : gpudirect_)
      part("worker_gpudirect_member", {{"m", m_.pe(gpu).gpudirect}, {"pe", m_.pe(gpu).name}});
    if (has_net()) part("worker_net_comment");
    for (const auto& [net, member] : endpoints_)
      part("worker_endpoint_member",
           {{"type", net == NetEnd::send ? "SendEndpoint" : "RecvEndpoint"}, {"m", member}});
    if (has_net()) part("worker_net_member");
    part("worker_ranks_member");
  }
  if (shared_views_) {
    // Views of the colours the other workers' constructors fill in: read once the loops run.
    views(m_.strategies[ir::Strategy::overlap], false);
  }
  for (const PlanNode* n : nodes()) {
    if (!n->shares_instance)
      part("worker_node_member",
           {{"m", n->member},
            {"label", n->alternative < 0
                          ? n->spec_name()
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
    for (const PlanWindow& w : n->windows)
      part("worker_window_member",
           {{"m", w.member},
            {"type", gpu_ ? "GpuPeekWindow" : "PeekWindow"},
            {"elem", w.elem},
            {"port", w.port_name},
            {"history", fmt::format("{} token{}", w.history, w.history == 1 ? "" : "s")}});
  }
}

void WorkerPrinter::constructor() {
  std::vector<std::string> init;
  if (gpu_) {
    std::vector<std::string> tracks;
    for (StreamKind s : {StreamKind::compute, StreamKind::h2d, StreamKind::d2h, StreamKind::peer})
      tracks.push_back(m_.streams[pe_].count(s)
                           ? render_part("worker_track",
                                         {{"pe", pe_ident_}, {"stream", std::string(to_string(s))}})
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
      init.push_back(render_part("worker_init_net", {{"capacity", std::to_string(net_capacity_)}}));
    init.push_back(render_part("worker_init_ranks"));
  }
  const std::string body = block([&] { constructor_body(); });
  part("worker_ctor", {{"cls", cls_},
                       {"mpi", mpi_ ? render_part("worker_ctor_mpi") : ""},
                       {"init", join(init)},
                       {"body", body}});
}

void WorkerPrinter::constructor_body() {
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

std::string WorkerPrinter::colour_bytes(const PlanColour& c) {
  std::vector<std::string> calls;
  for (const std::string& t : c.types) calls.push_back(render_part("worker_bytes", {{"type", t}}));
  if (calls.size() == 1) return calls[0];
  return render_part("worker_max", {{"calls", join(calls)}});
}

void WorkerPrinter::allocate(ir::Strategy strategy, bool both) {
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

void WorkerPrinter::endpoints(ir::Strategy strategy) {
  const StrategyPlan& sm = m_.strategies[strategy];
  for (std::size_t i : sm.by_pe[pe_]) {
    const Entry& e = sm.entries[i];
    if (!e.net()) continue;
    const Entry::Transfer& t = e.transfer();
    std::string memory;
    if (t.gpudirect)
      memory = render_part(
          "worker_endpoint_gpudirect_note",
          {{"dir", t.net == NetEnd::send ? "from" : "into"}, {"pe", m_.pe(*t.gpudirect).name}});
    part("worker_endpoint", {{"m", t.endpoint},
                             {"host", std::to_string(peer_host(e))},
                             {"tag", std::to_string(t.tag)},
                             {"bytes", render_part("worker_bytes", {{"type", t.type}})},
                             {"name", e.short_name},
                             {"dir", t.net == NetEnd::send ? "to" : "from"},
                             {"peer", m_.program->host_names[peer_host(e)]},
                             {"memory", memory}});
    if (t.gpudirect)
      part("worker_endpoint_attach", {{"g", m_.pe(*t.gpudirect).gpudirect}, {"m", t.endpoint}});
  }
}

void WorkerPrinter::peers() {
  std::set<int> sources;
  for (ir::Strategy s : ir::kStrategies)
    for (std::size_t i : m_.strategies[s].by_pe[pe_]) {
      const Entry& e = m_.strategies[s].entries[i];
      if (e.stream == StreamKind::peer) sources.insert(m_.pe(e.read()->pe).device);
    }
  for (int src : sources) part("worker_peer_access", {{"d", device()}, {"s", std::to_string(src)}});
}

/// The iterations each firing call's block holds, as set_up() takes it: kBatch, or a copy's part
/// of it in an unfolded program; empty for one.
std::string WorkerPrinter::copy_batch() const {
  if (m_.program->batch / m_.program->copies == 1) return "";
  return m_.program->copies == 1 ? ", kBatch" : ", kBatch / " + std::to_string(m_.program->copies);
}

void WorkerPrinter::actor_setup(const PlanNode& n) {
  const ActorSignature& sig = signature(n);
  std::string m = n.member;
  // A copy that fires an earlier copy's instance (PlanNode::shares_instance) has only its own
  // initial tokens to set up.
  if (!n.shares_instance) {
    for (const ir::ParamValue& v : n.params)
      part("worker_param", {{"m", m}, {"param", v.name}, {"value", v.literal}});
    std::vector<std::string> elements;
    for (const std::string& type : n.port_types)
      elements.push_back(render_part("worker_elements", {{"type", type}}));
    Printer::Vars set_up = {{"m", m}, {"elements", join(elements)}};
    if (n.repetitions != 1) {
      set_up.emplace_back("q", std::to_string(n.repetitions));
      set_up.emplace_back("batch", copy_batch());
    }
    TemplatePart set_up_part = "worker_set_up";
    if (n.repetitions > 1)
      set_up_part =
          n.block ? TemplatePart("worker_set_up_block") : TemplatePart("worker_set_up_parts");
    part(set_up_part, set_up);
    std::vector<std::string> names;
    for (const std::string& port : n.port_names) names.push_back("\"" + port + "\"");
    part("worker_name_ports", {{"m", m}, {"names", join(names)}});
    if (n.warm_up > 0) part("worker_warm_up", {{"m", m}, {"n", std::to_string(n.warm_up)}});
    if (gpu_) part("worker_set_gpu", {{"m", m}, {"d", device()}});
    if (n.ends_stream)
      part("worker_may_end",
           {{"m", m},
            {"label", "node " + n.spec_name() + " (" + n.actor + ") @ " + m_.pe(n.pe).name},
            {"copies", m_.program->copies == 1 ? "" : ", " + std::to_string(m_.program->copies)}});
  }
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
  for (const PlanWindow& w : n.windows)
    part("worker_window_alloc", {{"m", w.member},
                                 {"type", gpu_ ? "GpuPeekWindow" : "PeekWindow"},
                                 {"elem", w.elem},
                                 {"dev", gpu_ ? render_part("worker_dev", {{"d", device()}}) : ""},
                                 {"name", n.name + "." + w.port_name},
                                 {"block", n.port_types[w.port]},
                                 {"history", std::to_string(w.history)},
                                 {"token", w.token},
                                 {"value", w.value}});
  if (sig.has_init && !n.shares_instance)
    part("worker_init_call",
         {{"m", m}, {"ctx", sig.init_takes_context ? render_part("worker_ctx", {{"m", m}}) : ""}});
  // Initial tokens filled by the node's own member function, after its init.
  for (const auto& [port, in] : initial_inputs(n))
    if (!in->initial_method.empty())
      part("worker_initial_fill_with", {{"m", n.initial_members[port]},
                                        {"node", m},
                                        {"t", in->type},
                                        {"elem", in->elem},
                                        {"fn", in->initial_method}});
  // A restarted run: the initial tokens are those the checkpoint kept.
  for (const auto& [port, in] : initial_inputs(n))
    if (port < n.checkpoint_inputs.size() && n.checkpoint_inputs[port] >= 0)
      part("worker_initial_restart",
           {{"m", n.initial_members[port]}, {"t", std::to_string(n.checkpoint_inputs[port])}});
}

}  // namespace worker_detail

}  // namespace dfgc::codegen
