// The host plan's builder: each strategy's entries, storage, views and neighbours on one host
// (StrategyBuilder), and plan_host(), which puts the host's plan together from them, the
// migration union, the steps, the GPUs' cycles and the islands.
#include "passes/plan_hosts.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "passes/migrations.hpp"
#include "passes/plan_detail.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::string identifier(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool word =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out += word ? c : '_';
  }
  return out;
}

std::vector<std::string> HostPlan::handoff_names() const {
  std::vector<std::string> names;
  for (ir::NodeId n : handoffs)
    for (const PlanMigration& a : migrations)
      if (a.node == n) {
        names.push_back(a.node_name);
        break;
      }
  return names;
}

bool HostPlan::has_gpudirect() const {
  for (ir::Strategy s : ir::kStrategies)
    for (const Entry& e : strategies[s].entries)
      if (e.gpudirect) return true;
  return false;
}

std::vector<const PlanNode*> HostPlan::nodes_on(ir::PeId pe) const {
  std::vector<const PlanNode*> out;
  for (const PlanNode& n : nodes)
    if (n.pe == pe) out.push_back(&n);
  return out;
}

const PlanNode& HostPlan::node(ir::NodeId n, ir::PeId pe) const {
  for (const PlanNode& x : nodes)
    if (x.id == n && x.pe == pe) return x;
  DFGC_UNREACHABLE("node of another host");
}

std::vector<ir::PeId> HostPlan::pes() const {
  std::vector<ir::PeId> out = cpus;
  out.insert(out.end(), gpus.begin(), gpus.end());
  return out;
}

namespace {

class StrategyBuilder {
 public:
  StrategyBuilder(const ir::Program& p, const ir::IgStrategy& s, ir::HostId host,
                  const std::vector<int>& tags, const PlanOptions& options)
      : p_(p), s_(s), host_(host), tags_(tags), options_(options) {}

  StrategyPlan run() {
    out_.strategy = s_.strategy;
    out_.net_tags = tags_;
    out_.transfer_steps = s_.transfer_steps;
    out_.has_transfers = !s_.transfers.empty();
    out_.by_pe.resize(p_.arch.pes.size());
    out_.neighbours.resize(p_.arch.pes.size());
    out_.storage.resize(p_.arch.pes.size());
    out_.touched.resize(p_.arch.pes.size());
    out_.steps.resize(p_.arch.pes.size());
    add_buffers();
    mapped_ = mapped_colours(p_, s_, options_);
    for (ir::PeId pe = 0; pe < p_.arch.pes.size(); ++pe) {
      if (p_.arch.pes[pe].host != host_) continue;
      add_transfers(pe);
      for (ir::NodeId n : s_.order[pe]) {
        add_firing(n);
        for (ir::CopyId c : s_.copies_after(n)) add_copy(c);
      }
      add_storage(pe);
      add_touched(pe);
    }
    // Every host runs the whole program's cycles, so that the ranks' cycles correspond.
    for (const ir::IgFiring& f : s_.firings) out_.latency = std::max(out_.latency, f.latency);
    for (const ir::IgTransfer& t : s_.transfers)
      out_.latency = std::max(out_.latency, t.first_cycle);
    for (const ir::IgCopy& c : s_.copies) out_.latency = std::max(out_.latency, c.first_cycle);
    add_neighbours();
    return std::move(out_);
  }

 private:
  const std::string& buffer_name(ir::BufferId b) const { return s_.buffers[b].name; }
  const std::string& pe_name(ir::PeId pe) const { return p_.arch.pes[pe].name; }

  /// `base`, or `base_2`, `base_3` ... when taken.
  static std::string unique(std::set<std::string>& taken, const std::string& base) {
    std::string name = base;
    for (int i = 2; !taken.insert(name).second; ++i) name = fmt::format("{}_{}", base, i);
    return name;
  }

  void add_buffers() {
    std::set<std::string> taken;
    for (const ir::IgBuffer& b : s_.buffers) {
      const ir::IgColour& c = s_.colours[b.colour];
      PlanBuffer x;
      x.name = b.name;
      x.ident = unique(taken, identifier(b.name));
      x.type = p_.types[b.type].name;
      x.bounded = p_.types[b.type].bounded;
      x.pe = c.pe;
      x.colour = c.index;
      x.colour_lag = b.colour_lag;
      x.slots = c.slots;
      x.depth = b.depth;
      out_.buffers.push_back(std::move(x));
    }
  }

  bool is_gpu(ir::PeId pe) const { return p_.arch.pes[pe].kind == ir::PeKind::gpu; }

  /// Whether transfer `t` goes between a CPU and a GPU's mapped colour.
  bool mapped(const ir::IgTransfer& t) const { return is_mapped(p_, s_, mapped_, t); }
  /// The PE whose thread runs a transfer within the host: the CPU end of a mapped one, else its
  /// launcher.
  ir::PeId local_runner(const ir::IgTransfer& t) const {
    if (mapped(t)) return is_gpu(t.to_pe) ? t.from_pe : t.to_pe;
    return launcher(p_, t);
  }

  SlotRef slot(ir::BufferId b, std::uint32_t lag) const {
    const PlanBuffer& x = out_.buffers[b];
    return SlotRef{b, x.pe, x.colour, lag + x.colour_lag, x.slots};
  }

  void push(Entry e) {
    e.ident = unique(entry_idents_, e.ident);
    out_.by_pe[e.runner].push_back(out_.entries.size());
    out_.entries.push_back(std::move(e));
  }

  /// The transfers `pe` runs: host-to-host sends, then receives (every MPI operation of a cycle
  /// is posted before the PE fires or waits; a send first, because a large receive may copy the
  /// whole token inside the MPI call that posts or polls it, and the peer copies a sent token only
  /// once the send is posted: runtime/README.md), then the ones it launches within its host.
  void add_transfers(ir::PeId pe) {
    std::vector<ir::TransferId> recvs, sends, local;
    for (ir::TransferId t = 0; t < s_.transfers.size(); ++t) {
      const ir::IgTransfer& x = s_.transfers[t];
      if (is_net(p_, x)) {
        if (net_runner(p_, x.to_pe) == pe) recvs.push_back(t);
        if (net_runner(p_, x.from_pe) == pe) sends.push_back(t);
      } else if (local_runner(x) == pe) {
        local.push_back(t);
      }
    }
    std::vector<ir::TransferId> mine;
    for (auto* group : {&sends, &recvs, &local}) {
      std::sort(group->begin(), group->end(), [&](ir::TransferId a, ir::TransferId b) {
        return buffer_name(s_.transfers[a].to) < buffer_name(s_.transfers[b].to);
      });
      mine.insert(mine.end(), group->begin(), group->end());
    }
    for (ir::TransferId t : mine) {
      const ir::IgTransfer& x = s_.transfers[t];
      Entry e;
      e.kind = Entry::Kind::transfer;
      e.id = t;
      e.ident = "transfer_" + identifier(buffer_name(x.to));
      e.short_name = fmt::format("{} -> {}", buffer_name(x.from), buffer_name(x.to));
      e.label = "transfer " + e.short_name;
      e.where = fmt::format("{}>{}", pe_name(x.from_pe), pe_name(x.to_pe));
      e.runner = pe;
      e.link = std::string(ir::to_string(p_.arch.links[x.link].kind));
      e.type = out_.buffers[x.from].type;
      e.bytes = s_.buffers[x.to].bytes;
      e.profile = fmt::format("{} -> {}", pe_name(x.from_pe), pe_name(x.to_pe));
      e.to = x.to;
      e.order_only = p_.types[s_.buffers[x.to].type].order_only;
      const SlotRef read = slot(x.from, x.from_lag);
      const SlotRef write = slot(x.to, s_.buffers[x.to].writer.lag);
      if (is_net(p_, x)) {
        e.net = net_runner(p_, x.to_pe) == pe ? Entry::Net::recv : Entry::Net::send;
        if (is_gpudirect(p_, x)) e.gpudirect = e.net == Entry::Net::recv ? x.to_pe : x.from_pe;
        e.tag = tags_[t];
        e.peer = e.net == Entry::Net::send ? x.to_pe : x.from_pe;
        if (e.net == Entry::Net::send)
          e.read = read;
        else
          e.write = write;
      } else {
        e.mapped = mapped(x);
        if (e.mapped)
          e.profile = std::string(kHostCopyProfile) + e.profile;
        else
          e.stream = stream_of(p_, x);
        e.read = read;
        e.write = write;
      }
      e.first_cycle = x.first_cycle;
      e.step = x.step;
      push(std::move(e));
    }
  }

  void add_firing(ir::NodeId n) {
    const ir::Node& node = p_.dfg.nodes[n];
    const ir::Actor& actor = p_.dfg.actor_of(n);
    const ir::IgFiring& f = s_.firings[n];
    Entry e;
    e.kind = Entry::Kind::firing;
    e.id = n;
    e.ident = "fire_" + identifier(node.name);
    e.short_name = fmt::format("{} ({})", node.name, actor.name);
    e.label = fmt::format("node {} @ {}", e.short_name, pe_name(f.pe));
    e.where = pe_name(f.pe);
    e.runner = f.pe;
    if (p_.arch.pes[f.pe].kind == ir::PeKind::gpu) e.stream = StreamKind::compute;
    e.first_cycle = f.latency;
    e.profile = node.name;
    e.params = node.params;
    for (std::size_t port = 0; port < f.ports.size(); ++port)
      e.ports.push_back(
          {actor.ports[port].name, std::string(ir::cxx_name(p_.types[actor.ports[port].type].elem)),
           actor.ports[port].dir == ir::PortDir::in, slot(f.ports[port].buffer, f.ports[port].lag),
           f.ports[port].initial, f.ports[port].initial_value,
           p_.types[p_.dfg.block_type(n, static_cast<std::uint32_t>(port))].name,
           f.ports[port].initial_method});
    push(std::move(e));
  }

  void add_copy(ir::CopyId c) {
    const ir::IgCopy& x = s_.copies[c];
    ir::PeId pe = s_.buffers[x.to].pe;
    Entry e;
    e.kind = Entry::Kind::copy;
    e.id = c;
    e.ident = "copy_" + identifier(buffer_name(x.to));
    e.short_name = fmt::format("{} <- {}", buffer_name(x.to), buffer_name(x.from));
    e.label = "delay " + e.short_name;
    e.where = pe_name(pe);
    e.runner = pe;
    if (p_.arch.pes[pe].kind == ir::PeKind::gpu) e.stream = StreamKind::compute;
    e.first_cycle = x.first_cycle;
    e.type = out_.buffers[x.from].type;
    e.read = slot(x.from, x.from_lag);
    e.write = slot(x.to, s_.buffers[x.to].writer.lag);
    push(std::move(e));
  }

  /// The colours `pe` owns, by index: one allocation each.
  void add_storage(ir::PeId pe) {
    std::vector<const ir::IgColour*> colours;
    for (const ir::IgColour& c : s_.colours)
      if (c.pe == pe) colours.push_back(&c);
    std::sort(colours.begin(), colours.end(),
              [](const ir::IgColour* a, const ir::IgColour* b) { return a->index < b->index; });
    for (const ir::IgColour* c : colours) {
      PlanColour x;
      x.index = c->index;
      x.slots = c->slots;
      x.bytes = c->bytes;
      std::set<std::string> types, texts;
      for (ir::BufferId b : c->members) {
        x.members.push_back(buffer_name(b));
        types.insert(out_.buffers[b].type);
        texts.insert(s_.buffers[b].bytes_text);
        x.lengths |= out_.buffers[b].bounded;
      }
      x.mapped = mapped_[static_cast<std::size_t>(c - s_.colours.data())];
      x.types.assign(types.begin(), types.end());
      x.bytes_text =
          texts.size() == 1 ? *texts.begin() : fmt::format("max({})", fmt::join(texts, ", "));
      out_.storage[pe].push_back(std::move(x));
    }
  }

  /// The buffers the thread of `pe` touches, sorted by name.
  void add_touched(ir::PeId pe) {
    std::set<ir::BufferId> buffers;
    for (std::size_t i : out_.by_pe[pe]) {
      const Entry& e = out_.entries[i];
      for (const PortRef& port : e.ports) buffers.insert(port.slot.buffer);
      if (e.read) buffers.insert(e.read->buffer);
      if (e.write) buffers.insert(e.write->buffer);
    }
    std::vector<ir::BufferId> out(buffers.begin(), buffers.end());
    std::sort(out.begin(), out.end(),
              [&](ir::BufferId a, ir::BufferId b) { return buffer_name(a) < buffer_name(b); });
    out_.touched[pe] = std::move(out);
  }

  /// The owner of each colour and every launcher of a transfer touching it share memory, and so
  /// does every cpu whose firings or delay copies read one of its members in place (shared
  /// memory) with each of those; two such readers do not, since neither writes it. Each end of a
  /// host-to-host transfer touches only a colour of its own host, run by its first CPU (the
  /// colour's owner or another cpu of the host over a net link; over a gpudirect link, the GPU
  /// owns it).
  void add_neighbours() {
    std::vector<std::set<ir::PeId>> users(s_.colours.size()), readers(s_.colours.size());
    for (ir::ColourId c = 0; c < s_.colours.size(); ++c) users[c].insert(s_.colours[c].pe);
    for (const ir::IgTransfer& t : s_.transfers) {
      const bool net = is_net(p_, t);
      users[s_.buffers[t.from].colour].insert(net ? net_runner(p_, t.from_pe) : local_runner(t));
      users[s_.buffers[t.to].colour].insert(net ? net_runner(p_, t.to_pe) : local_runner(t));
    }
    for (const ir::IgFiring& f : s_.firings)
      for (const ir::PortBinding& port : f.ports)
        readers[s_.buffers[port.buffer].colour].insert(f.pe);
    for (const ir::IgCopy& c : s_.copies)
      readers[s_.buffers[c.from].colour].insert(s_.buffers[c.to].pe);
    for (ir::ColourId c = 0; c < s_.colours.size(); ++c) {
      for (ir::PeId a : users[c])
        for (ir::PeId b : users[c])
          if (a != b) out_.neighbours[a].insert(b);
      for (ir::PeId r : readers[c])
        for (ir::PeId u : users[c])
          if (r != u) {
            out_.neighbours[r].insert(u);
            out_.neighbours[u].insert(r);
          }
    }
  }

  const ir::Program& p_;
  const ir::IgStrategy& s_;
  ir::HostId host_;
  const std::vector<int>& tags_;
  const PlanOptions& options_;
  std::vector<bool> mapped_;  ///< per colour of the strategy: mapped (mapped_colours())
  StrategyPlan out_;
  std::set<std::string> entry_idents_;
};

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
  x.header = impl.header;
  x.header_path = impl.header_path;
  x.libraries = actor.libraries;
  x.block = impl.block;
  x.alternative = alternative;
  if (program.copies > 1) {
    x.copy = node.copy;
    x.origin = node.origin;
  }
  for (std::uint32_t port = 0; port < actor.ports.size(); ++port) {
    x.port_types.push_back(program.types[program.dfg.block_type(n, port)].name);
    x.port_names.push_back(actor.ports[port].name);
  }
  return x;
}

/// What every host's plan shares.
std::shared_ptr<const ProgramPlan> plan_program(const ir::Program& program,
                                                const PlanOptions& options,
                                                const plan_detail::ProgramTags& tags) {
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
    out->types.push_back({t.name, std::string(ir::spec_name(t.elem)),
                          std::string(ir::cxx_name(t.elem)), t.count.text, t.count.tree});
  out->net_transfers = tags.net_transfers;
  out->control_tag = tags.control;
  out->mapped_bytes = options.mapped_bytes;
  plan_detail::name_pes(*out);
  return out;
}

/// Plans host `host` of the program, with the program's MPI tags.
HostPlan plan_host(const ir::Program& program, const ir::Ig& ig, ir::HostId host,
                   const Migrations* migrations, const PlanOptions& options,
                   const ActorSignatures* signatures, const plan_detail::ProgramTags& program_tags,
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
    h.migrations.push_back(std::move(pm));
    if (program.arch.pes[m.to].host == host)
      h.nodes.push_back(plan_node(program, m.node, m.to, static_cast<int>(a)));
  }
  h.streams.resize(program.arch.pes.size());
  h.colour_count.resize(program.arch.pes.size(), 0);
  const ir::PerStrategy<std::vector<int>>& tags = program_tags.base;
  const std::vector<ir::PerStrategy<std::vector<int>>>& alt_tags = program_tags.alternatives;
  for (std::size_t a = 0; a < alts.size(); ++a) h.migrations[a].state_tag = program_tags.state[a];
  for (ir::Strategy s : ir::kStrategies) {
    h.strategies[s] = StrategyBuilder(program, ig[s], host, tags[s], options).run();
    if (!alts.empty()) {
      StrategyPlan& u = h.strategies[s];
      const std::size_t base_count = u.entries.size();
      std::vector<std::uint32_t> own_steps(base_count, u.transfer_steps);
      std::vector<std::uint32_t> next_colour(program.arch.pes.size(), 0);
      for (const ir::IgColour& c : ig[s].colours)
        next_colour[c.pe] = std::max(next_colour[c.pe], c.index + 1);
      for (std::size_t a = 0; a < alts.size(); ++a) {
        const Migration& m = alts[a];
        const StrategyPlan alt =
            StrategyBuilder(m.program, m.ig[s], host, alt_tags[a][s], options).run();
        plan_detail::merge_alternative(program, u, base_count, alt, m.ig[s], m.sides[s],
                                       static_cast<int>(a), host, next_colour, own_steps,
                                       h.migrations[a].sides[s]);
      }
      // Without overlap a transfer's step counts back from the last: align every graph's on
      // the union's.
      for (std::size_t i = 0; i < u.entries.size(); ++i)
        if (u.entries[i].kind == Entry::Kind::transfer)
          u.entries[i].step += u.transfer_steps - own_steps[i];
      for (ir::PeId pe = 0; pe < program.arch.pes.size(); ++pe) {
        if (program.arch.pes[pe].host != host) continue;
        std::set<ir::BufferId> buffers;
        for (std::size_t i : u.by_pe[pe]) {
          const Entry& e = u.entries[i];
          for (const PortRef& port : e.ports) buffers.insert(port.slot.buffer);
          if (e.read) buffers.insert(e.read->buffer);
          if (e.write) buffers.insert(e.write->buffer);
        }
        std::vector<ir::BufferId> touched(buffers.begin(), buffers.end());
        std::sort(touched.begin(), touched.end(), [&](ir::BufferId x, ir::BufferId y) {
          return std::tie(u.buffers[x].name, u.buffers[x].ident) <
                 std::tie(u.buffers[y].name, u.buffers[y].ident);
        });
        u.touched[pe] = std::move(touched);
      }
      plan_detail::union_neighbours(u);
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
  for (const ir::Island& island : program.islands)
    if (program.arch.pes[island.pe].host == host)
      h.islands.push_back(plan_detail::plan_island(program, island));
  for (ir::Strategy s : ir::kStrategies)
    for (ir::PeId pe : h.pes())
      h.strategies[s].steps[pe] = plan_detail::pe_steps(
          h.strategies[s], pe, h.pe(pe).kind == ir::PeKind::gpu, h.streams[pe]);
  StrategyPlan& overlap = h.strategies[ir::Strategy::overlap];
  overlap.gpu_cycles.resize(program.arch.pes.size());
  for (ir::PeId gpu : h.gpus) overlap.gpu_cycles[gpu] = gpu_cycles(h, overlap, gpu);
  plan_detail::plan_mapped_rings(program, h);
  h.sharing.resize(program.arch.pes.size());
  for (ir::PeId pe : h.pes()) h.sharing[pe] = sharing(h, pe);
  h.files = plan_detail::plan_files(h);
  plan_detail::name_members(h);
  if (signatures) plan_detail::sign_nodes(program, *signatures, h);
  return h;
}

}  // namespace

HostPlans plan_hosts(const ir::Program& program, const ir::Ig& ig, const Migrations* migrations,
                     const PlanOptions& options, const ActorSignatures* signatures) {
  const std::vector<Migration> none;
  const plan_detail::ProgramTags tags =
      plan_detail::program_tags(program, ig, migrations ? migrations->alternatives : none);
  HostPlans out;
  out.program = plan_program(program, options, tags);
  for (ir::HostId h = 0; h < program.arch.hosts.size(); ++h)
    out.hosts.push_back(
        plan_host(program, ig, h, migrations, options, signatures, tags, out.program));
  return out;
}

}  // namespace dfgc
