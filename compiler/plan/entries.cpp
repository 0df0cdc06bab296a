// The host plan's first stage (plan.hpp, plan_entries()): the program's shared tables and MPI
// tags, then on each host its nodes and, per strategy, its entries and storage (build_strategy()),
// the union with every migration alternative (merge_alternative()), its GPUs and their streams.
#include <algorithm>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "passes/migrations.hpp"
#include "plan/detail.hpp"
#include "plan/plan.hpp"
#include "support/assert.hpp"

namespace dfgc::plan_detail {

namespace {

/// What the two strategies give `pe` alike (PlanSharing).
PlanSharing sharing(const HostPlan& h, ir::PeId pe) {
  const StrategyPlan& a = h.strategies[ir::Strategy::overlap];
  const StrategyPlan& b = h.strategies[ir::Strategy::no_overlap];
  PlanSharing out;
  const std::vector<PlanColour>& ca = a.storage[pe];
  const std::vector<PlanColour>& cb = b.storage[pe];
  out.colours = ca.size() == cb.size();
  for (std::size_t i = 0; out.colours && i < ca.size(); ++i)
    out.colours = ca[i].members == cb[i].members && ca[i].types == cb[i].types &&
                  ca[i].mapped == cb[i].mapped;
  out.views = a.touched[pe] == b.touched[pe];
  for (ir::BufferId x : a.touched[pe])
    out.views = out.views && a.buffers[x].ident == b.buffers[x].ident &&
                a.buffers[x].pe == b.buffers[x].pe && a.buffers[x].colour == b.buffers[x].colour;
  return out;
}

/// Node `n`'s instance on `pe`: the base one, or migration alternative `alternative`'s.
PlanNode plan_node(const ir::Program& program, ir::NodeId n, ir::PeId pe, int alternative) {
  const ir::Node& node = program.dfg.nodes[n];
  const ir::Actor& actor = program.dfg.actor_of(n);
  const ir::Impl& impl = *actor.impl_for(program.arch.pes[pe].kind);
  PlanNode x;
  x.id = n;
  x.name = node.name;
  x.actor = actor.name;
  x.actor_id = node.actor;
  x.class_name = impl.class_name;
  x.pe = pe;
  x.params = node.params;
  x.repetitions = node.repetitions;
  x.warm_up = node.warm_up;
  x.header = impl.header;
  x.header_path = impl.header_path;
  x.libraries = actor.libraries;
  x.ends_stream = actor.ends.has_value();
  x.block = impl.block;
  x.alternative = alternative;
  if (program.copies > 1) {
    x.copy = node.copy;
    x.origin = node.origin;
  }
  for (std::uint32_t port = 0; port < actor.ports.size(); ++port) {
    x.port_types.push_back(program.types[program.dfg.block_type(n, port)].name);
    x.port_names.push_back(actor.ports[port].name);
    const ir::Port& p = actor.ports[port];
    if (const std::uint32_t history = program.dfg.window_history(n, port); history > 0) {
      // What the firings peek at, or the tokens a delay shifts the blocks by (sema refuses both).
      std::string value = p.history_value;
      for (const ir::Edge& e : program.dfg.edges)
        if (e.dst == n && e.dst_port == port && e.delay_tokens > 0) value = e.initial;
      const ir::TokenType& token = program.types[p.type];
      x.windows.push_back({port, p.name, history, token.name, token.elem_code(), std::move(value)});
    }
  }
  return x;
}

/// What every host's plan shares.
std::shared_ptr<const ProgramPlan> plan_program(const ir::Program& program,
                                                const PlanOptions& options,
                                                const ProgramTags& tags) {
  auto out = std::make_shared<ProgramPlan>();
  out->app_name = program.app_name;
  out->arch_name = program.arch.name;
  out->spec_name = std::filesystem::path(program.spec_file).filename().generic_string();
  out->batch = program.batch;
  out->copies = program.copies;
  for (const ir::Pe& pe : program.arch.pes)
    out->pe_table.push_back({pe.name, pe.local_name, pe.host, pe.kind, pe.device});
  for (const ir::Host& x : program.arch.hosts) out->host_names.push_back(x.name);
  for (const ir::Param& x : program.params)
    out->params.push_back({x.name, x.value, x.runtime, x.bounds});
  for (const ir::TokenType& t : program.types)
    out->types.push_back(
        {t.name, std::string(t.elem_spec()), t.elem_code(), t.count.text, t.count.tree,
         t.record ? std::to_string(t.record->size) : fmt::format("sizeof({})", t.elem_code()),
         t.record ? std::optional<std::uint32_t>(t.record->id) : std::nullopt});
  for (const ir::StructType& s : program.structs) {
    PlanStruct& x = out->structs.emplace_back();
    x.name = s.name;
    x.cxx = s.cxx_name.rfind("::", 0) == 0 ? s.cxx_name : "::" + s.cxx_name;
    x.size = s.size;
    x.align = s.align;
    for (const ir::StructField& f : s.fields) x.fields.emplace_back(f.name, f.offset);
  }
  out->net_transfers = tags.net_transfers;
  out->control_tag = tags.control;
  out->mapped_bytes = options.mapped_bytes;
  name_pes(*out);
  return out;
}

/// Host `host`'s entries: its nodes, its migration alternatives, each strategy's entries and
/// storage (the union with the alternatives'), its GPUs and streams, what both strategies share.
HostPlan plan_host(const ir::Program& program, const ir::Ig& ig, ir::HostId host,
                   const Migrations* migrations, const PlanOptions& options,
                   const ProgramTags& program_tags,
                   const std::shared_ptr<const ProgramPlan>& shared) {
  DFGC_INTERNAL_ASSERT(host < program.arch.hosts.size(), "no host ", host);
  HostPlan h;
  h.host = host;
  h.host_name = program.arch.hosts[host].name;
  h.program = shared;
  h.cpus = program.arch.hosts[host].cpus;
  DFGC_INTERNAL_ASSERT(!h.cpus.empty() && h.cpus.front() == program.arch.hosts[host].cpu, "host ",
                       h.host_name, "'s first cpu is not its cpu");
  for (ir::NodeId n : ig.schedule) {
    const ir::PeId pe = program.mapping.pe_of[n];
    if (program.arch.pes[pe].host != host) continue;
    h.nodes.push_back(plan_node(program, n, pe, -1));
  }
  const std::vector<Migration> none;
  const std::vector<Migration>& alts = migrations ? migrations->alternatives : none;
  for (std::size_t a = 0; a < alts.size(); ++a) {
    const Migration& m = alts[a];
    PlanMigration pm;
    pm.node = m.node;
    pm.node_name = program.dfg.nodes[m.node].name;
    pm.from = m.from;
    pm.to = m.to;
    pm.parts = m.parts;
    for (std::size_t x : m.parts)
      pm.moves +=
          fmt::format("{}{}:{}", pm.moves.empty() ? "" : " + ",
                      program.dfg.nodes[alts[x].node].name, program.arch.pes[alts[x].to].name);
    h.migrations.push_back(std::move(pm));
    // A joint fires its nodes' instances of its parts: one instance per node and PE.
    if (m.parts.empty() && program.arch.pes[m.to].host == host)
      h.nodes.push_back(plan_node(program, m.node, m.to, static_cast<int>(a)));
  }
  h.streams.resize(program.arch.pes.size());
  h.colour_count.resize(program.arch.pes.size(), 0);
  const ir::PerStrategy<std::vector<int>>& tags = program_tags.base;
  const std::vector<ir::PerStrategy<std::vector<int>>>& alt_tags = program_tags.alternatives;
  for (std::size_t a = 0; a < alts.size(); ++a) h.migrations[a].state_tag = program_tags.state[a];
  for (ir::Strategy s : ir::kStrategies) {
    h.strategies[s] = build_strategy(program, ig[s], host, tags[s], options);
    if (!alts.empty()) {
      StrategyPlan& u = h.strategies[s];
      const std::size_t base_count = u.entries.size();
      std::vector<std::uint32_t> own_steps(base_count, u.transfer_steps);
      std::vector<std::uint32_t> next_colour(program.arch.pes.size(), 0);
      for (const ir::IgColour& c : ig[s].colours)
        next_colour[c.pe] = std::max(next_colour[c.pe], c.index + 1);
      for (std::size_t a = 0; a < alts.size(); ++a) {
        const Migration& m = alts[a];
        const StrategyPlan alt = build_strategy(m.program, m.ig[s], host, alt_tags[a][s], options);
        merge_alternative(program, u, base_count, alt, m.ig[s], m.sides[s], static_cast<int>(a),
                          host, next_colour, own_steps, h.migrations[a].sides[s]);
      }
      // Without overlap a transfer's step counts back from the last: align every graph's on
      // the union's.
      for (std::size_t i = 0; i < u.entries.size(); ++i)
        if (Entry::Transfer* t = u.entries[i].transfer_if())
          t->step += u.transfer_steps - own_steps[i];
      for (ir::PeId pe = 0; pe < program.arch.pes.size(); ++pe)
        if (program.arch.pes[pe].host == host) u.touched[pe] = touched_buffers(u, pe);
      union_neighbours(u);
      for (std::vector<PlanColour>& colours : u.storage)
        std::sort(colours.begin(), colours.end(),
                  [](const PlanColour& x, const PlanColour& y) { return x.index < y.index; });
      // Every view of a bounded type, G0's or an alternative's, has its length cells.
      for (const PlanBuffer& b : u.buffers) {
        if (!b.bounded || program.arch.pes[b.pe].host != host) continue;
        for (const PlanColour& c : u.storage[b.pe])
          DFGC_INTERNAL_ASSERT(c.index != b.colour || c.lengths, "bounded buffer ", b.name,
                               ": colour ", c.index, " of ", program.arch.pes[b.pe].name,
                               " has no length cells");
      }
    }
    std::vector<std::uint32_t> colours_now(program.arch.pes.size(), 0);
    for (ir::PeId pe = 0; pe < program.arch.pes.size(); ++pe)
      colours_now[pe] = static_cast<std::uint32_t>(h.strategies[s].storage[pe].size());
    for (const Entry& e : h.strategies[s].entries)
      if (e.stream) h.streams[e.runner].insert(*e.stream);
    std::vector<std::uint32_t> count(program.arch.pes.size(), 0);
    for (const ir::IgColour& c : ig[s].colours) count[c.pe]++;
    for (std::size_t pe = 0; pe < count.size(); ++pe)
      h.colour_count[pe] = std::max({h.colour_count[pe], count[pe], colours_now[pe]});
  }
  // A GPU that runs nothing and holds no storage in either strategy is left out: the program
  // never selects its device and has no worker for it.
  for (ir::PeId gpu : program.arch.hosts[host].gpus) {
    bool used = false;
    for (ir::Strategy s : ir::kStrategies) {
      const StrategyPlan& sp = h.strategies[s];
      used = used || !sp.storage[gpu].empty() ||
             std::any_of(sp.entries.begin(), sp.entries.end(),
                         [&](const Entry& e) { return e.runner == gpu; });
    }
    if (used) h.gpus.push_back(gpu);
  }
  for (ir::PeId gpu : h.gpus) h.streams[gpu].insert(StreamKind::compute);
  h.sharing.resize(program.arch.pes.size());
  for (ir::PeId pe : h.pes()) h.sharing[pe] = sharing(h, pe);
  const std::vector<Entry>& a = h.strategies[ir::Strategy::overlap].entries;
  const std::vector<Entry>& b = h.strategies[ir::Strategy::no_overlap].entries;
  h.same_entries = std::equal(a.begin(), a.end(), b.begin(), b.end(),
                              [](const Entry& x, const Entry& y) { return x.ident == y.ident; });
  return h;
}

}  // namespace

}  // namespace dfgc::plan_detail

namespace dfgc {

HostPlans plan_entries(const ir::Program& program, const ir::Ig& ig, const Migrations* migrations,
                       const PlanOptions& options) {
  const std::vector<Migration> none;
  const plan_detail::ProgramTags tags =
      plan_detail::program_tags(program, ig, migrations ? migrations->alternatives : none);
  HostPlans out;
  out.program = plan_detail::plan_program(program, options, tags);
  for (ir::HostId h = 0; h < program.arch.hosts.size(); ++h)
    out.hosts.push_back(
        plan_detail::plan_host(program, ig, h, migrations, options, tags, out.program));
  return out;
}

}  // namespace dfgc
