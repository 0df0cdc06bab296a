// The host plan's text dump (dump(): `dfgc schedule --emit=plan`, --dump-after=<a plan stage>).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plan/plan.hpp"

namespace dfgc {

namespace {

/// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string_view>& words) {
  if (words.size() < 2) return words.empty() ? "" : std::string(words.front());
  const std::vector<std::string_view> head(words.begin(), words.end() - 1);
  return fmt::format("{} and {}", fmt::join(head, ", "), words.back());
}

std::string streams_text(const std::vector<StreamKind>& streams) {
  std::vector<std::string_view> names;
  for (StreamKind s : streams) names.push_back(to_string(s));
  return fmt::format("{}", fmt::join(names, " "));
}

/// "p.m@A.cpu[A.cpu colour 0, slot (c - 1) mod 2]".
std::string slot_text(const HostPlan& h, const StrategyPlan& sp, const SlotRef& r) {
  return fmt::format("{}[{} colour {}, slot (c - {}) mod {}]", sp.buffers[r.buffer].name,
                     h.pe(r.pe).name, r.colour, r.lag, r.slots);
}

/// One step, "      fire node p (Producer) @ A.cpu (fire_p) from cycle 0", then its slots.
std::string step_text(const HostPlan& h, const StrategyPlan& sp, const Step& s) {
  std::string out = fmt::format("      {}", to_string(s.kind));
  switch (s.kind) {
    case Step::Kind::wait: return out + fmt::format(" {}\n", streams_text(s.streams));
    case Step::Kind::end_phase: return out + fmt::format(" {}\n", s.phase);
    case Step::Kind::net_complete:
    case Step::Kind::end_cycle: return out + "\n";
    case Step::Kind::fire:
    case Step::Kind::copy:
    case Step::Kind::mapped_copy:
    case Step::Kind::net_post:
    case Step::Kind::delay_copy: break;
  }
  const Entry& e = sp.entries[s.entry];
  const Entry::Transfer* t = e.transfer_if();
  if (e.net()) out += t->net == NetEnd::send ? " send" : " receive";
  out += fmt::format(" {} ({}) from cycle {}", e.label, e.ident, e.first_cycle);
  if (t && sp.strategy == ir::Strategy::no_overlap) out += fmt::format(" in step {}", t->step);
  if (e.stream) out += fmt::format(" on {}", to_string(*e.stream));
  if (t) {
    out += fmt::format(" over {}", t->link);
    if (t->order_only) out += ", order only: no copy";
    if (t->mapped && !t->order_only) out += ", a host copy: no copy call of the GPU";
  }
  if (e.net()) {
    out += fmt::format(" {} host {} tag {}", t->net == NetEnd::send ? "to" : "from",
                       h.program->host_names[h.pe(*t->peer).host], t->tag);
    if (!t->endpoint.empty()) out += fmt::format(", member {}", t->endpoint);
    if (t->gpudirect) out += fmt::format(" in the memory of {}", h.pe(*t->gpudirect).name);
  }
  out += "\n";
  for (const PortRef& port : e.ports()) {
    out += fmt::format("        {} {}: {}", port.input ? "reads" : "writes", port.port,
                       slot_text(h, sp, port.slot));
    if (port.initial)
      out += fmt::format(", in iterations 0 .. {} its initial tokens (= {})", port.initial - 1,
                         port.initial_value);
    out += "\n";
  }
  if (std::optional<SlotRef> read = e.read())
    out += fmt::format("        reads {}\n", slot_text(h, sp, *read));
  if (std::optional<SlotRef> write = e.write())
    out += fmt::format("        writes {}\n", slot_text(h, sp, *write));
  if (e.kind() != Entry::Kind::firing) out += fmt::format("        token {}\n", e.type());
  return out;
}

/// The host's MPI traffic a cycle and the communication thread's lanes it gets at the defaults.
std::string lanes_text(const StrategyPlan& sp) {
  std::int64_t received = 0;
  std::size_t receives = 0, sends = 0;
  for (const Entry& e : sp.entries) {
    if (!e.net()) continue;
    if (e.transfer().net == NetEnd::recv) {
      received += e.transfer().bytes;
      ++receives;
    } else {
      ++sends;
    }
  }
  const int lanes = sends > 0 && received >= kTwoLaneBytes ? 2 : 1;
  return fmt::format(
      "    mpi lanes: {} (receives {} bytes a cycle at the defaults, in {} transfers; sends {}; two "
      "where a host receives at least {} bytes a cycle and sends)\n",
      lanes == 2 ? "two" : "one", received, receives, sends, kTwoLaneBytes);
}

/// How an implementation is called: "fire(x, y, ctx), init(ctx), save/restore"; a port group's
/// ports in braces ("fire({x0, x1}, y)").
std::string calls_text(const ActorSignature& sig, const std::vector<std::string>& port_names) {
  std::vector<std::string> args;
  for (const FireParam& param : fire_params(sig)) {
    std::vector<std::string> ports;
    for (std::size_t i = param.first; i < param.first + param.size; ++i)
      ports.push_back(port_names[sig.fire_ports[i]]);
    // A group: its ports in braces, one dfg::Ports.
    args.push_back(param.group ? fmt::format("{{{}}}", fmt::join(ports, ", ")) : ports.front());
  }
  if (sig.fire_takes_context) args.emplace_back("ctx");
  std::string out = fmt::format("fire({})", fmt::join(args, ", "));
  if (sig.has_init) out += sig.init_takes_context ? ", init(ctx)" : ", init()";
  if (sig.has_finish) out += sig.finish_takes_context ? ", finish(ctx)" : ", finish()";
  if (sig.has_state) out += ", save/restore";
  return out;
}

/// What a checkpoint of the host holds (dfg/checkpoint.hpp), or why the program takes none.
std::string checkpoint_text(const PlanCheckpoint& c) {
  std::string out =
      fmt::format("  checkpoints (spec {:016x}, mapping {:016x}): ", c.spec, c.mapping);
  if (!c.refused.empty()) return out + "none: " + c.refused + "\n";
  std::vector<std::string> parts;
  if (!c.nodes.empty()) parts.push_back(fmt::format("state of {}", fmt::join(c.nodes, " ")));
  for (const PlanCheckpoint::Input& in : c.inputs)
    parts.push_back(fmt::format("tokens of {} (delay {})", in.name, in.delay));
  out += fmt::format("{}\n", fmt::join(parts, "; "));  // a plan with no part refuses
  for (const std::string& u : c.unsaved)
    out += fmt::format("    {} without save/restore: a restart begins it as init() leaves it\n", u);
  return out;
}

}  // namespace

std::string dump(const HostPlans& plans) {
  std::string out;
  for (const HostPlan& h : plans.hosts) {
    out += fmt::format("host {} of app {} on {} ({})\n", h.host_name, h.program->app_name,
                       h.program->arch_name, h.program->spec_name);
    if (!h.files.rank.empty()) {  // named (plan_names)
      std::vector<std::string> files = {h.files.app_header, h.files.rank};
      for (ir::PeId gpu : h.gpus) files.push_back(h.files.gpu[gpu]);
      if (!h.files.mapped_rings.empty()) files.push_back(h.files.mapped_rings);
      out += fmt::format("  files {}, namespace {}\n", fmt::join(files, " "), h.files.ns);
    }
    if (h.program->batch != 1)
      out += fmt::format(
          "  batch {}: a cycle runs {} iterations; --iterations and its cycles divide by {}\n",
          h.program->batch, h.program->batch, h.program->batch);
    if (h.program->copies != 1)
      out += fmt::format("  replicas: {} copies of each node, each running {} iterations a cycle\n",
                         h.program->copies, h.program->batch / h.program->copies);
    if (h.has_gpu())
      out += fmt::format(
          "  mapped tokens: a GPU's colours of at most {} bytes that only its host's cpus copy "
          "into or out of and only mappable ports touch (--mapped-tokens)\n",
          h.program->mapped_bytes);
    for (const PlanParam& x : h.program->params) {
      out += fmt::format("  {}param {} = {}", x.runtime ? "runtime " : "", x.name, x.value);
      if (x.bounds) out += fmt::format(" in [{}, {}]", x.bounds->min, x.bounds->max);
      out += "\n";
    }
    for (const PlanType& t : h.program->types)
      out += fmt::format("  type {} = {}[{}] ({})\n", t.name, t.elem, t.count_text, t.cxx_elem);
    for (const NetTransfer& t : h.program->net_transfers)
      out += fmt::format("  net tag {} {} {} -> {}{}{}\n", t.tag, ir::to_string(t.strategy), t.from,
                         t.to, t.gpudirect ? " gpudirect" : "",
                         t.alternative >= 0 ? fmt::format(" (migration {})", t.alternative) : "");
    if (h.program->control_tag >= 0)
      out += fmt::format("  control tag {}: the ranks' agreement on live moves\n",
                         h.program->control_tag);
    for (const PlanNode& n : h.nodes) {
      out += fmt::format("  node {} ({}) @ {}: class {} in \"{}\"", n.name, n.actor,
                         h.pe(n.pe).name, n.class_name, n.header);
      if (!n.libraries.empty()) out += fmt::format(" uses {}", fmt::join(n.libraries, " "));
      if (n.ends_stream) out += ", may end the stream";
      if (!n.member.empty()) out += fmt::format(", member {}", n.member);
      for (const std::string& initial : n.initial_members)
        if (!initial.empty()) out += " " + initial;
      for (const PlanWindow& w : n.windows)
        out += fmt::format(", window {} ({} token{} of {} before its rate's = {}) {}", w.port_name,
                           w.history, w.history == 1 ? "" : "s", w.token, w.value, w.member);
      if (n.warm_up > 0)
        out += fmt::format(", warm-up {} firing{}", n.warm_up, n.warm_up == 1 ? "" : "s");
      if (!n.origin.empty())
        out += fmt::format(", copy {} of {} (cycle j fires block j*{}+{}){}", n.copy, n.origin,
                           h.program->copies, n.copy,
                           n.shares_instance ? ", an earlier copy's instance" : "");
      out += "\n";
      if (n.signature) {
        out += fmt::format("    calls {}{}", calls_text(*n.signature, n.port_names),
                           n.block ? ", fire once a cycle on whole blocks" : "");
        if (n.handoff >= 0) out += fmt::format(", handoff {}", n.handoff);
        out += "\n";
      }
    }
    if (h.signed_nodes && !h.migrations.empty()) {
      const std::vector<std::string> names = h.handoff_names();
      out += fmt::format("  state handoffs: {}\n", names.empty()
                                                       ? std::string("none")
                                                       : fmt::format("{}", fmt::join(names, " ")));
    }
    if (h.signed_nodes) out += checkpoint_text(h.checkpoint);
    for (const PlanIsland& island : h.islands) {
      out += fmt::format("  island {} @ {} ({}): class {} in \"{}\"", island.name,
                         h.pe(island.pe).name, ir::to_string(island.kind), island.class_name,
                         island.header);
      if (island.kind == ir::PeKind::gpu) {
        out += fmt::format(", one block of {} threads (a warp per adapter and per node",
                           island.block_threads());
        if (island.threads != 1) out += fmt::format("; batches of {}", island.threads);
        out += ")";
      }
      out += "\n";
      for (const PlanIslandMember& m : island.members) {
        out += fmt::format("    member {} ({}): class {} in \"{}\"", m.name, m.actor, m.class_name,
                           m.header);
        for (const ir::ParamValue& v : m.params) out += fmt::format(" {}={}", v.name, v.literal);
        if (!m.parallel.empty()) {
          std::vector<std::string> counts;
          for (std::size_t p = 0; p < m.parallel.size(); ++p)
            counts.push_back(fmt::format("{} {}", m.port_names[p], m.parallel[p]));
          out += fmt::format(" parallel ({}), up to {} firings a batch", fmt::join(counts, ", "),
                             m.batch);
        }
        out += "\n";
        if (m.signature)
          out += fmt::format("      calls {}\n", calls_text(*m.signature, m.port_names));
      }
      for (const PlanIslandFifo& f : island.fifos) {
        out += fmt::format("    {} {}: {}, capacity {} ({})", f.ident, f.name, f.elem, f.capacity,
                           f.stated ? "stated" : "computed");
        if (!f.mapped.empty()) out += fmt::format(", the mapped ring {}", f.mapped);
        if (f.initial)
          out += fmt::format(", {} initial element{} = {}", f.initial, f.initial == 1 ? "" : "s",
                             f.initial_value);
        out += "\n";
      }
      for (const PlanIslandPort& p : island.ports) {
        if (p.mapped) {
          out += fmt::format("    {} {} {}: no adapter, its token orders the firings\n",
                             p.input ? "from" : "to", p.name, island.fifos[p.fifo].ident);
          continue;
        }
        if (p.counted) {
          out += fmt::format("    {} {} {}: up to {} elements a token, after its count (copied)\n",
                             p.input ? "unpack" : "pack", p.name, island.fifos[p.fifo].ident,
                             p.elements);
          continue;
        }
        out +=
            fmt::format("    {} {} {}: {}{} elements a token{}\n", p.input ? "unpack" : "pack",
                        p.name, island.fifos[p.fifo].ident, p.bounded ? "up to " : "", p.elements,
                        !p.input && p.bounded && !p.between ? ", more an error" : "");
      }
    }
    for (const PlanMappedRing& r : h.mapped_rings) {
      out += fmt::format("  mapped ring {} {}: {}, {} -> {}, zero-copy, capacity {}", r.ident,
                         r.name, r.elem, r.from, r.to, r.capacity);
      out += r.stated ? " (stated)"
                      : fmt::format(" (computed: {} an iteration x {} iterations ahead{})",
                                    r.per_iteration, r.iterations,
                                    r.initial ? fmt::format(" + {} initial", r.initial) : "");
      if (r.initial)
        out += fmt::format(", {} initial element{} = {}", r.initial, r.initial == 1 ? "" : "s",
                           r.initial_value);
      out += "\n";
    }
    for (ir::PeId pe : h.pes()) {
      const PlanPe& x = h.pe(pe);
      out += fmt::format("  pe {} {} worker {}", x.name, ir::to_string(x.kind), x.worker);
      if (x.kind == ir::PeKind::gpu) {
        out += fmt::format(" device {} streams {}", x.device,
                           streams_text({h.streams[pe].begin(), h.streams[pe].end()}));
      }
      out += fmt::format(" colours {}", h.colour_count[pe]);
      if (h.cpus.size() > 1 && pe == h.cpu())
        out +=
            " first cpu: the host end of its links (its GPUs' workers launch their copies), runs its MPI";
      out += "\n";
      const PlanSharing& both = h.sharing[pe];
      std::vector<std::string_view> same;
      if (both.colours) same.push_back("colours");
      if (both.views) same.push_back("views");
      if (both.loop) same.push_back("cycle loop");
      if (!same.empty()) out += fmt::format("    the same {} in both strategies\n", and_list(same));
    }
    if (h.cpus.size() > 1) {
      std::vector<std::string> names;
      for (ir::PeId c : h.cpus) names.push_back(h.pe(c).name);
      out += fmt::format("  shared memory {}\n", fmt::join(names, " "));
    }
    for (ir::Strategy strategy : ir::kStrategies) {
      const StrategyPlan& sp = h.strategies[strategy];
      out += fmt::format("  strategy {} latency {}", ir::to_string(strategy), sp.latency);
      if (strategy == ir::Strategy::no_overlap && sp.has_transfers)
        out += fmt::format(" transfer steps {}", sp.transfer_steps);
      if (strategy == ir::Strategy::no_overlap && h.same_entries) out += " entries as overlap's";
      out += "\n";
      if (h.multi_host()) out += lanes_text(sp);
      for (ir::PeId pe : h.pes()) {
        out += fmt::format("    pe {}\n", h.pe(pe).name);
        std::vector<std::string> ns;
        for (ir::PeId q : sp.neighbours[pe]) ns.push_back(h.pe(q).name);
        out += fmt::format("      neighbours{}{}\n", ns.empty() ? "" : " ", fmt::join(ns, " "));
        for (const PlanColour& c : sp.storage[pe])
          out += fmt::format("      colour {} ({}): {} x {} bytes, {} at the defaults{}{}: {}\n",
                             c.index, fmt::join(c.types, " "), c.slots, c.bytes_text, c.bytes,
                             c.lengths ? ", with lengths" : "",
                             c.mapped ? ", mapped host memory" : "", fmt::join(c.members, " "));
        for (ir::BufferId b : sp.touched[pe]) {
          const PlanBuffer& x = sp.buffers[b];
          // Its C++ name once named (plan_names).
          const std::string ident =
              pe < sp.views.size() ? fmt::format(" ({})", sp.views[pe].at(b)) : std::string();
          out += fmt::format("      view {}{}: {} colour {}, depth {}, colour lag {}\n", x.name,
                             ident, h.pe(x.pe).name, x.colour, x.depth, x.colour_lag);
        }
        for (const Step& s : sp.steps[pe]) out += step_text(h, sp, s);
        if (pe < sp.gpu_cycles.size() && sp.gpu_cycles[pe]) {
          const GpuCycles& g = *sp.gpu_cycles[pe];
          out += fmt::format(
              "      cycles ahead of the thread: at most {} in flight, ends recorded on {}\n",
              g.in_flight, streams_text(g.streams));
          for (const StreamOrder& o : g.orders)
            out += fmt::format("        {} waits for {} of cycle c - {} ({})\n",
                               to_string(o.stream), to_string(o.after), o.cycles, o.colour);
          if (g.mapped)
            out +=
                "        a cycle released to the cpus once finished, kernels included (mapped "
                "colours)\n";
          const char* repeat = g.windows ? "slots and windows" : "slots";
          if (g.graph_phases > 0 && g.graph_cycles > 1)
            out += fmt::format(
                "      cycles as CUDA graphs: the {} repeat every {} cycles; up to {} cycles "
                "a graph (no neighbours)\n",
                repeat, g.graph_phases, g.graph_cycles);
          else if (g.graph_phases > 0)
            out += fmt::format("      cycles as CUDA graphs: the {} repeat every {} cycles\n",
                               repeat, g.graph_phases);
          else if (!g.graph_why.empty())
            out += fmt::format("      cycles enqueued call by call: {}\n", g.graph_why);
          for (const GpuCycles::InitialReads& r : g.graph_initial)
            out += fmt::format(
                "        {}: its first {} enqueued call by call\n", r.why,
                r.cycles == 1 ? std::string("cycle") : fmt::format("{} cycles", r.cycles));
        }
      }
      for (std::size_t a = 0; a < h.migrations.size(); ++a) {
        const PlanMigration& m = h.migrations[a];
        const PlanSwitch& sw = m.sides[strategy];
        auto idents = [&](const std::vector<std::size_t>& list) {
          std::vector<std::string> names;
          for (std::size_t i : list) names.push_back(sp.entries[i].ident);
          return names.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(names, " "));
        };
        if (m.parts.empty())
          out += fmt::format("    migration {}: node {} {} -> {}, delta {}{}", a, m.node_name,
                             h.pe(m.from).name, h.pe(m.to).name, sw.delta,
                             sw.reversible ? ", reversible" : "");
        else
          out += fmt::format("    migration {}: joint of {} ({}), delta {}{}", a,
                             fmt::join(m.parts, " + "), m.moves, sw.delta,
                             sw.reversible ? ", reversible" : "");
        if (m.state_tag >= 0) out += fmt::format(", state tag {}", m.state_tag);
        if (m.handoff >= 0) out += fmt::format(", handoff {}", m.handoff);
        out += "\n";
        out += fmt::format("      stops at first cycle + j*: {}\n", idents(sw.stop));
        out += fmt::format("      starts at first cycle + j*: {}\n", idents(sw.start));
      }
    }
  }
  return out;
}

}  // namespace dfgc
