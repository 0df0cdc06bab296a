// The cycle loops of a PE's worker (worker_printer.hpp): the plan's steps of each strategy, one
// emitter per kind of step.

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "codegen/worker_printer.hpp"
#include "support/assert.hpp"

namespace dfgc::codegen::worker_detail {

namespace {

std::string_view strategy_ns(ir::Strategy s) {
  return s == ir::Strategy::overlap ? "overlap" : "no_overlap";
}

}  // namespace

namespace {

/// Whether generated statements name the cycle `c` (an identifier of its own).
bool uses_cycle(const std::string& code) {
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (std::size_t i = code.find('c'); i != std::string::npos; i = code.find('c', i + 1))
    if ((i == 0 || !ident(code[i - 1])) && (i + 1 == code.size() || !ident(code[i + 1])))
      return true;
  return false;
}

}  // namespace

void WorkerPrinter::loop(ir::Strategy strategy) {
  const StrategyPlan& sm = m_.strategies[strategy];
  const bool overlap = strategy == ir::Strategy::overlap;
  ns_ = std::string(strategy_ns(strategy));
  overlap_ = overlap;
  between_.clear();
  const std::string items = block([&] { loop_items(sm); });
  const std::string steps = block([&] { loop_steps(sm); });
  Printer::Vars vars = {{"cls", cls_},
                        {"fn", m_.sharing[pe_].loop ? "cycles"
                               : overlap            ? "cycles_overlap"
                                                    : "cycles_no_overlap"},
                        {"items", items},
                        {"steps", steps},
                        // A loop of barriers only (a CPU idle but for the transfer steps) names
                        // no cycle: its parameter is unnamed (-Wunused-parameter).
                        {"c", uses_cycle(steps + between_) ? " c" : ""}};
  if (!between_.empty()) vars.emplace_back("between", between_);
  if (steps.find_first_not_of(" \n") == std::string::npos && between_.empty()) {
    // No step of this strategy runs here: the PE still meets the others every cycle.
    part("worker_loop_idle", {{"cls", cls_}, {"fn", vars[1].second}, {"items", items}});
    return;
  }
  part(between_.empty() ? TemplatePart("worker_loop") : TemplatePart("worker_loop_between"), vars);
}

void WorkerPrinter::loop_items(const StrategyPlan& sm) {
  if (!shared_views_) views(sm, true);
  if (gpu_ && pe_ < sm.gpu_cycles.size() && sm.gpu_cycles[pe_])
    gpu_cycles_items(sm, *sm.gpu_cycles[pe_]);
  else
    part(gpu_ ? TemplatePart("worker_items_gpu") : TemplatePart("worker_items_cpu"),
         {{"pe", pe_ident_}});
}

void WorkerPrinter::loop_steps(const StrategyPlan& sm) {
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

void WorkerPrinter::gpu_cycles_items(const StrategyPlan& sm, const GpuCycles& g) {
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
        {"release", g.mapped ? render_part("worker_gpu_release_cycle") : ""},
        {"graphs", graphs_call(sm, g)}});
}

std::string WorkerPrinter::graphs_call(const StrategyPlan& sm, const GpuCycles& g) const {
  if (g.graph_phases == 0) return render_part("worker_gpu_no_graphs", {{"why", g.graph_why}});
  std::string comment;
  std::vector<std::string> reads;
  for (const GpuCycles::InitialReads& r : g.graph_initial) {
    comment += render_part(
        "worker_gpu_graph_initial_comment",
        {{"why", r.why},
         {"cycles", r.cycles == 1 ? std::string("cycle") : std::to_string(r.cycles) + " cycles"}});
    reads.push_back(
        render_part("worker_gpu_graph_initial",
                    {{"entry", entry(sm.entries[r.entry])}, {"cycles", std::to_string(r.cycles)}}));
  }
  const std::string phases = std::to_string(g.graph_phases);
  const std::string cycles = std::to_string(g.graph_cycles);
  if (!reads.empty())
    return render_part(
        "worker_gpu_graphs_initial",
        {{"phases", phases}, {"cycles", cycles}, {"initial", comment}, {"reads", join(reads)}});
  if (g.graph_cycles > 1)
    return render_part("worker_gpu_graph_cycles", {{"phases", phases}, {"cycles", cycles}});
  return render_part("worker_gpu_graphs", {{"phases", phases}});
}

std::string WorkerPrinter::slot(const SlotRef& r) {
  return render_part("worker_slot",
                     {{"lag", std::to_string(r.lag)}, {"slots", std::to_string(r.slots)}});
}

std::string WorkerPrinter::at(const StrategyPlan& sm, const SlotRef& r) const {
  return render_part(
      sm.buffers[r.buffer].bounded ? TemplatePart("worker_token") : TemplatePart("worker_at"),
      {{"view", buffer_local(sm, r.buffer)}, {"slot", slot(r)}});
}

std::string WorkerPrinter::entry(const Entry& e) const {
  return render_part("worker_entry", {{"ns", ns_}, {"entry", e.ident}});
}

template <class Body>
void WorkerPrinter::item(const Entry& e, std::string_view how, bool takes_j,
                         const std::string& comment, Body body) {
  const std::string head = render_part(
      "worker_item_head",
      {{"how", std::string(how)},
       {"entry", entry(e)},
       {"stream",
        gpu_ ? render_part("worker_item_stream", {{"stream", stream_member(*e.stream)}}) : ""},
       {"j", takes_j ? render_part("worker_item_j") : ""}});
  part("worker_item", {{"head", head}, {"comment", comment}, {"body", block(body)}});
}

void WorkerPrinter::fire(const StrategyPlan& sm, const Entry& e) {
  const PlanNode& n = m_.node(e.id, e.runner);
  const ActorSignature& sig = signature(n);
  const std::string m = n.member;
  const int handoff = n.handoff;
  std::vector<std::string> args;
  std::vector<Printer::Vars> keeps;  // the delayed inputs a checkpoint keeps
  // The inputs that peek: their windows, once a cycle, and the checkpoint parts of their history.
  struct WindowCall {
    Printer::Vars vars;
    Printer::Vars checkpoint;
    bool kept = false;
  };
  std::vector<WindowCall> windows;
  for (std::uint32_t port : sig.fire_ports) {
    const PortRef& ref = e.firing().ports[port];
    Printer::Vars vars = {
        {"view", buffer_local(sm, ref.slot.buffer)}, {"elem", ref.elem}, {"slot", slot(ref.slot)}};
    // A bounded token: its elements, its length cell, its capacity and the port's name.
    const bool bounded = sm.buffers[ref.slot.buffer].bounded;
    if (bounded) vars.insert(vars.end(), {{"type", ref.type}, {"port", ref.port}});
    TemplatePart access =
        ref.input ? TemplatePart("worker_arg_in") : TemplatePart("worker_arg_out");
    if (bounded)
      access = ref.input ? TemplatePart("worker_arg_bounded_in")
                         : TemplatePart("worker_arg_bounded_out");
    std::string arg = render_part(access, vars);
    // In its first iterations the node reads the initial tokens; a checkpoint keeps the tokens
    // it reads in the first cycles after its iteration.
    if (ref.initial) {
      arg = render_part("worker_arg_initial", {{"d", std::to_string(ref.initial)},
                                               {"m", n.initial_members[port]},
                                               {"elem", ref.elem},
                                               {"arg", arg}});
      if (port < n.checkpoint_inputs.size() && n.checkpoint_inputs[port] >= 0) {
        Printer::Vars keep = {{"t", std::to_string(n.checkpoint_inputs[port])}, {"arg", arg}};
        if (gpu_) keep.push_back({"m", m});
        keeps.push_back(std::move(keep));
      }
    }
    // An input that peeks: the block goes into its window, after the history.
    for (const PlanWindow& w : n.windows) {
      if (w.port != port) continue;
      const std::string local = "window_" + std::to_string(port);
      Printer::Vars vars = {
          {"local", local}, {"elem", w.elem}, {"w", w.member}, {"j", block_index(n)}, {"arg", arg}};
      if (gpu_) vars.push_back({"m", m});
      windows.push_back({std::move(vars),
                         {{"i", std::to_string(w.checkpoint)}, {"w", w.member}},
                         w.checkpoint >= 0});
      arg = local;
    }
    args.push_back(std::move(arg));
  }
  item(e, gpu_ ? "fire" : "run", true, e.label, [&] {
    // A handoff carries the actor's state and its windows' histories.
    std::vector<std::string> members;
    for (const PlanWindow& w : n.windows) members.push_back(w.member);
    const Printer::Vars handoff_vars = {
        {"entry", entry(e)},
        {"h", std::to_string(handoff)},
        {"state", members.empty() ? m + ".actor"
                                  : render_part("worker_with_windows",
                                                {{"m", m}, {"windows", join(members)}})}};
    const Printer::Vars checkpoint_vars = {{"i", std::to_string(n.checkpoint)}, {"m", m}};
    if (handoff >= 0) part("worker_restore", handoff_vars);
    if (n.checkpoint >= 0) part("worker_checkpoint_restore", checkpoint_vars);
    for (const Printer::Vars& keep : keeps)
      part(gpu_ ? TemplatePart("worker_checkpoint_keep_gpu")
                : TemplatePart("worker_checkpoint_keep"),
           keep);
    for (const WindowCall& w : windows) {
      if (w.kept) part("worker_window_restore", w.checkpoint);
      part(gpu_ ? TemplatePart("worker_window_gpu") : TemplatePart("worker_window"), w.vars);
      if (w.kept) part("worker_window_save", w.checkpoint);
    }
    if (n.repetitions != 1 && !n.block)
      fire_parts(e, n, sig, std::move(args));
    else
      part(sig.fire_takes_context ? TemplatePart("worker_fire_context")
                                  : TemplatePart("worker_fire"),
           {{"m", m}, {"j", block_index(n)}, {"args", join(grouped(e, sig, std::move(args)))}});
    if (n.checkpoint >= 0) part("worker_checkpoint_save", checkpoint_vars);
    if (handoff >= 0) part("worker_save", handoff_vars);
    if (has_net() && overlap_) part("worker_net_poll");
  });
}

/// fire's arguments, given one a port (`args`, in sig.fire_ports' order): a group's ports as one
/// dfg::Ports of their pointers (`in T x[N];`), every other port's as it is.
std::vector<std::string> WorkerPrinter::grouped(const Entry& e, const ActorSignature& sig,
                                                std::vector<std::string> args) const {
  std::vector<std::string> out;
  for (const FireParam& param : fire_params(sig)) {
    if (!param.group) {
      out.push_back(std::move(args[param.first]));
      continue;
    }
    const PortRef& ref = e.firing().ports[sig.fire_ports[param.first]];
    const auto from = args.begin() + static_cast<std::ptrdiff_t>(param.first);
    std::vector<std::string> group(std::make_move_iterator(from),
                                   std::make_move_iterator(from + param.size));
    out.push_back(render_part(
        "worker_arg_group",
        {{"const", ref.input ? "const " : ""}, {"elem", ref.elem}, {"args", join(group)}}));
  }
  return out;
}

/// The block of the node's iterations that its firing of cycle j handles: j, or in an unfolded
/// program copy c's block of the cycle, j * copies + c (PlanNode::copy).
std::string WorkerPrinter::block_index(const PlanNode& n) const {
  const std::uint32_t copies = m_.program->copies;
  if (copies == 1) return "j";
  return "j * " + std::to_string(copies) + " + " + std::to_string(n.copy);
}

void WorkerPrinter::fire_parts(const Entry& e, const PlanNode& n, const ActorSignature& sig,
                               std::vector<std::string> args) {
  const std::string m = n.member;
  for (std::size_t i = 0; i < args.size(); ++i)
    args[i] =
        render_part("worker_arg_part",
                    {{"m", m}, {"port", std::to_string(sig.fire_ports[i])}, {"arg", args[i]}});
  const std::string call =
      render_part(sig.fire_takes_context ? TemplatePart("worker_fire_part_context")
                                         : TemplatePart("worker_fire_part"),
                  {{"m", m}, {"j", block_index(n)}, {"args", join(grouped(e, sig, args))}});
  part("worker_fire_parts", {{"q", std::to_string(n.repetitions)}, {"call", call}});
}

void WorkerPrinter::copy(const StrategyPlan& sm, const Entry& e) {
  const Entry::Transfer& t = e.transfer();
  if (t.order_only) {
    part("worker_order_only",
         {{"comment", render_part("worker_label_link", {{"label", e.label}, {"link", t.link}})}});
    return;
  }
  Printer::Vars vars = {
      {"comment", render_part("worker_label_link", {{"label", e.label}, {"link", t.link}})},
      {"entry", entry(e)},
      {"stream", stream_member(*e.stream)},
      {"dst", at(sm, *t.write)},
      {"src", at(sm, *t.read)}};
  const bool peer = e.stream == StreamKind::peer;
  if (peer)
    vars.insert(vars.end(), {{"dst_device", std::to_string(m_.pe(t.write->pe).device)},
                             {"src_device", std::to_string(m_.pe(t.read->pe).device)}});
  part(peer ? TemplatePart("worker_copy_peer") : TemplatePart("worker_copy"), vars);
}

void WorkerPrinter::mapped_copy(const StrategyPlan& sm, const Entry& e) {
  const Entry::Transfer& t = e.transfer();
  if (t.order_only) {  // its ring is shared: nothing to copy, as on a GPU's stream
    part("worker_order_only",
         {{"comment", render_part("worker_label_link", {{"label", e.label}, {"link", t.link}})}});
    return;
  }
  item(e, "run", false, render_part("worker_label_mapped", {{"label", e.label}, {"link", t.link}}),
       [&] {
         part("worker_mapped_copy",
              {{"dst", at(sm, *t.write)}, {"src", at(sm, *t.read)}, {"type", t.type}});
       });
}

void WorkerPrinter::net_post(const StrategyPlan& sm, const Entry& e) {
  const Entry::Transfer& t = e.transfer();
  const bool send = t.net == NetEnd::send;
  const std::string comment = render_part(
      send ? TemplatePart("worker_net_label_send") : TemplatePart("worker_net_label_recv"),
      {{"label", e.label},
       {"link", t.link},
       {"peer", m_.program->host_names[peer_host(e)]},
       {"tag", std::to_string(t.tag)}});
  item(e, "post", true, comment, [&] {
    part("worker_net_start",
         {{"m", t.endpoint}, {"entry", entry(e)}, {"at", at(sm, send ? *t.read : *t.write)}});
  });
}

void WorkerPrinter::net_complete() {
  part(overlap_ ? TemplatePart("worker_net_complete_overlap")
                : TemplatePart("worker_net_complete"));
}

void WorkerPrinter::delay_copy(const StrategyPlan& sm, const Entry& e) {
  const Entry::Copy& c = e.copy();
  // A bounded token: its length cell and its used bytes (at() gives dfg::SlotToken).
  const bool bounded = sm.buffers[c.read.buffer].bounded;
  TemplatePart copy =
      gpu_ ? TemplatePart("worker_delay_copy_gpu") : TemplatePart("worker_delay_copy_cpu");
  if (bounded)
    copy = gpu_ ? TemplatePart("worker_delay_copy_bounded_gpu")
                : TemplatePart("worker_delay_copy_bounded_cpu");
  item(e, gpu_ ? "copy" : "run", false, e.label,
       [&] { part(copy, {{"dst", at(sm, c.write)}, {"src", at(sm, c.read)}, {"type", c.type}}); });
}

void WorkerPrinter::wait(const std::vector<StreamKind>& streams) {
  std::vector<std::string> members;
  for (StreamKind k : streams) members.push_back(stream_member(k));
  part("worker_wait", {{"streams", join(members)}});
}

void WorkerPrinter::end_phase(std::uint32_t phase) {
  part("worker_end_phase", {{"phase", std::to_string(phase)}});
}

void WorkerPrinter::end_cycle() {
  if (overlap_ && mpi_)
    between_ = render_part("worker_end_cycle_ranks");
  else if (overlap_ && m_.multi_host())
    between_ = render_part("worker_end_cycle_rank_peer");
}

}  // namespace dfgc::codegen::worker_detail
