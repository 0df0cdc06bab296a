#include "passes/plan_hosts.hpp"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "passes/migrations.hpp"
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

std::string_view to_string(StreamKind s) {
  switch (s) {
    case StreamKind::compute: return "compute";
    case StreamKind::h2d: return "h2d";
    case StreamKind::d2h: return "d2h";
    case StreamKind::peer: return "peer";
  }
  DFGC_UNREACHABLE("bad stream kind");
}

std::string_view to_string(Step::Kind k) {
  switch (k) {
    case Step::Kind::fire: return "fire";
    case Step::Kind::copy: return "copy";
    case Step::Kind::mapped_copy: return "mapped copy";
    case Step::Kind::net_post: return "net post";
    case Step::Kind::net_complete: return "net complete";
    case Step::Kind::delay_copy: return "delay copy";
    case Step::Kind::wait: return "wait";
    case Step::Kind::end_phase: return "end phase";
    case Step::Kind::end_cycle: return "end cycle";
  }
  DFGC_UNREACHABLE("bad step kind");
}

ir::PeId launcher(const ir::Program& program, const ir::IgTransfer& t) {
  return program.arch.pes[t.to_pe].kind == ir::PeKind::gpu ? t.to_pe : t.from_pe;
}

bool is_net(const ir::Program& program, const ir::IgTransfer& t) {
  return program.arch.pes[t.from_pe].host != program.arch.pes[t.to_pe].host;
}

bool is_gpudirect(const ir::Program& program, const ir::IgTransfer& t) {
  return program.arch.links[t.link].kind == ir::LinkKind::gpudirect;
}

ir::PeId net_runner(const ir::Program& program, ir::PeId end) {
  return program.arch.hosts[program.arch.pes[end].host].cpu;
}

bool between_cpu_and_gpu(const ir::ArchGraph& arch, ir::PeId from, ir::PeId to) {
  const ir::Pe &a = arch.pes[from], &b = arch.pes[to];
  return a.host == b.host && (a.kind == ir::PeKind::gpu) != (b.kind == ir::PeKind::gpu);
}

bool mapped_colour(std::int64_t bytes, std::uint32_t with_cpu, std::uint32_t other,
                   const PlanOptions& options) {
  return options.mapped_bytes > 0 && with_cpu > 0 && other == 0 && bytes <= options.mapped_bytes;
}

/// Whether every firing that touches buffer `b` does so through a port declared `mappable`: its
/// kernels touch each byte once, so mapped host memory costs them no more than device memory
/// (bench/mapped/touch.cu on an H200: atomics or re-reads in mapped memory cost 3.9 to 121 times
/// a copy).
bool touched_once(const ir::Program& program, const ir::IgBuffer& b) {
  auto mappable = [&](const ir::Access& a) {
    return a.kind != ir::Access::Kind::firing || program.dfg.actor_of(a.id).ports[a.port].mappable;
  };
  return mappable(b.writer) && std::all_of(b.readers.begin(), b.readers.end(), mappable);
}

/// A GPU's colour some member of which a transfer with a CPU of its host touches, and no member
/// any other transfer (between GPUs, or between hosts), of slots of at most mapped_bytes, whose
/// members only ports declared `mappable` touch.
std::vector<bool> mapped_colours(const ir::Program& program, const ir::IgStrategy& s,
                                 const PlanOptions& options) {
  const ir::ArchGraph& arch = program.arch;
  std::vector<std::uint32_t> with_cpu(s.colours.size(), 0), other(s.colours.size(), 0);
  std::vector<bool> once(s.colours.size(), true);
  for (const ir::IgBuffer& b : s.buffers)
    if (arch.pes[b.pe].kind == ir::PeKind::gpu && !touched_once(program, b)) once[b.colour] = false;
  for (const ir::IgTransfer& t : s.transfers) {
    const bool cpu_gpu = between_cpu_and_gpu(arch, t.from_pe, t.to_pe);
    for (ir::BufferId b : {t.from, t.to}) {
      const ir::ColourId c = s.buffers[b].colour;
      if (arch.pes[s.colours[c].pe].kind != ir::PeKind::gpu) continue;
      ++(cpu_gpu ? with_cpu : other)[c];
    }
  }
  std::vector<bool> mapped(s.colours.size(), false);
  for (ir::ColourId c = 0; c < s.colours.size(); ++c)
    mapped[c] = once[c] && mapped_colour(s.colours[c].bytes, with_cpu[c], other[c], options);
  return mapped;
}

bool is_mapped(const ir::Program& program, const ir::IgStrategy& s, const std::vector<bool>& mapped,
               const ir::IgTransfer& t) {
  if (!between_cpu_and_gpu(program.arch, t.from_pe, t.to_pe)) return false;
  const bool to_gpu = program.arch.pes[t.to_pe].kind == ir::PeKind::gpu;
  return mapped[s.buffers[to_gpu ? t.to : t.from].colour];
}

ir::PerStrategy<std::vector<int>> net_tags(const ir::Program& program, const ir::Ig& ig) {
  ir::PerStrategy<std::vector<int>> tags;
  int next = 0;
  for (ir::Strategy strategy : ir::kStrategies) {
    const ir::IgStrategy& s = ig[strategy];
    tags[strategy].assign(s.transfers.size(), -1);
    // schedule.txt lists a transfer under its source PE, by (source, destination) name.
    std::vector<ir::TransferId> order;
    for (ir::TransferId t = 0; t < s.transfers.size(); ++t)
      if (is_net(program, s.transfers[t])) order.push_back(t);
    auto key = [&](ir::TransferId t) {
      const ir::IgTransfer& x = s.transfers[t];
      return std::tie(x.from_pe, s.buffers[x.from].name, s.buffers[x.to].name);
    };
    std::sort(order.begin(), order.end(),
              [&](ir::TransferId a, ir::TransferId b) { return key(a) < key(b); });
    for (ir::TransferId t : order) tags[strategy][t] = next++;
  }
  return tags;
}

StreamKind stream_of(const ir::Program& program, const ir::IgTransfer& t) {
  bool from_gpu = program.arch.pes[t.from_pe].kind == ir::PeKind::gpu;
  bool to_gpu = program.arch.pes[t.to_pe].kind == ir::PeKind::gpu;
  if (from_gpu && to_gpu) return StreamKind::peer;
  return to_gpu ? StreamKind::h2d : StreamKind::d2h;
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
      out_.buffer_idents.push_back(x.ident);
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

/// The neighbours of every PE from the entries of a (union) plan, as add_neighbours() computes
/// them from an Ig: the owner of a colour and every runner of a transfer touching it share
/// memory, and so does every runner of a firing or delay copy reading it in place with each.
void union_neighbours(StrategyPlan& sp) {
  std::map<std::pair<ir::PeId, std::uint32_t>, std::set<ir::PeId>> users, readers;
  for (const PlanBuffer& b : sp.buffers) users[{b.pe, b.colour}].insert(b.pe);
  for (const Entry& e : sp.entries) {
    auto touch = [&](const SlotRef& r, bool read) {
      auto& set = e.kind == Entry::Kind::transfer || !read ? users : readers;
      set[{r.pe, r.colour}].insert(e.runner);
    };
    if (e.read) touch(*e.read, true);
    if (e.write)
      touch(*e.write,
            e.kind != Entry::Kind::transfer && sp.buffers[e.write->buffer].pe == e.runner);
    for (const PortRef& port : e.ports) touch(port.slot, true);
  }
  for (auto& n : sp.neighbours) n.clear();
  for (const auto& [colour, us] : users) {
    for (ir::PeId a : us)
      for (ir::PeId b : us)
        if (a != b) sp.neighbours[a].insert(b);
    auto r = readers.find(colour);
    if (r == readers.end()) continue;
    for (ir::PeId x : r->second)
      for (ir::PeId u : us)
        if (x != u) {
          sp.neighbours[x].insert(u);
          sp.neighbours[u].insert(x);
        }
  }
}

/// Adds alternative `a` (G1 as planned for this host, `alt`) to the union `u`; `base_count` is the
/// number of G0's entries; `next_colour` per PE the next free colour index.
void merge_alternative(const ir::Program& p, StrategyPlan& u, std::size_t base_count,
                       const StrategyPlan& alt, const ir::IgStrategy& g1, const MigrationSide& side,
                       int a, ir::HostId host, std::vector<std::uint32_t>& next_colour,
                       std::vector<std::uint32_t>& own_steps, PlanSwitch& sw) {
  sw.delta = side.delta;
  sw.reversible =
      std::all_of(side.idle.begin(), side.idle.end(), [](std::uint32_t i) { return i == 0; });
  // The buffers: kept ones are G0's; the others get colours of their own.
  std::vector<ir::BufferId> map(alt.buffers.size());
  std::set<std::string> idents(u.buffer_idents.begin(), u.buffer_idents.end());
  std::map<std::pair<ir::PeId, std::uint32_t>, std::uint32_t> colours;  // (pe, G1 colour) -> union
  for (ir::BufferId b = 0; b < alt.buffers.size(); ++b) {
    if (side.base_buffer[b] >= 0) {
      map[b] = static_cast<ir::BufferId>(side.base_buffer[b]);
      continue;
    }
    PlanBuffer x = alt.buffers[b];
    auto [it, fresh] = colours.emplace(std::pair{x.pe, x.colour}, 0);
    if (fresh) it->second = next_colour[x.pe]++;
    x.colour = it->second;
    std::string ident = identifier(x.name) + fmt::format("_m{}", a);
    for (int i = 2; !idents.insert(ident).second; ++i)
      ident = identifier(x.name) + fmt::format("_m{}_{}", a, i);
    x.ident = ident;
    map[b] = static_cast<ir::BufferId>(u.buffers.size());
    u.buffer_idents.push_back(x.ident);
    u.buffers.push_back(std::move(x));
  }
  // Their storage on this host's PEs.
  for (const auto& [key, index] : colours) {
    const auto [pe, g1_colour] = key;
    if (p.arch.pes[pe].host != host) continue;
    PlanColour c;
    c.index = index;
    std::set<std::string> types, texts;
    for (ir::BufferId b = 0; b < alt.buffers.size(); ++b) {
      if (side.base_buffer[b] >= 0 || alt.buffers[b].pe != pe || alt.buffers[b].colour != g1_colour)
        continue;
      c.members.push_back(alt.buffers[b].name);
      types.insert(alt.buffers[b].type);
      texts.insert(g1.buffers[b].bytes_text);
      c.bytes = std::max(c.bytes, g1.buffers[b].bytes);
      c.slots = alt.buffers[b].slots;
      // A bounded member's length cells, as add_storage() keeps them for G0's colours: without
      // them the views of this colour have no length cell.
      c.lengths |= alt.buffers[b].bounded;
    }
    for (const PlanColour& x : alt.storage[pe])
      if (x.index == g1_colour) c.mapped = x.mapped;
    std::sort(c.members.begin(), c.members.end());
    c.types.assign(types.begin(), types.end());
    c.bytes_text =
        texts.size() == 1 ? *texts.begin() : fmt::format("max({})", fmt::join(texts, ", "));
    u.storage[pe].push_back(std::move(c));
  }
  auto remap = [&](SlotRef r) {
    const PlanBuffer& x = u.buffers[map[r.buffer]];
    return SlotRef{map[r.buffer], x.pe, x.colour, r.lag, x.slots};
  };
  // The entries: with delta 0, the new-only ones stop G0's old-only ones; with a delta, every
  // entry's iteration moves, so all of G1's replace all of G0's.
  auto key = [](Entry::Kind k, std::uint32_t id) { return std::pair{static_cast<int>(k), id}; };
  std::set<std::pair<int, std::uint32_t>> new_only, old_only;
  for (const MigrationEntry& e : side.new_only)
    new_only.insert(key(static_cast<Entry::Kind>(e.kind), e.id));
  for (const MigrationEntry& e : side.old_only)
    old_only.insert(key(static_cast<Entry::Kind>(e.kind), e.id));
  const bool all = side.delta != 0;
  for (std::size_t i = 0; i < base_count; ++i)
    if (all || old_only.count(key(u.entries[i].kind, u.entries[i].id))) sw.stop.push_back(i);
  std::set<std::string> taken;
  for (const Entry& e : u.entries) taken.insert(e.ident);
  std::map<std::size_t, std::size_t> added;  // alt entry -> union entry
  for (std::size_t i = 0; i < alt.entries.size(); ++i) {
    const Entry& src = alt.entries[i];
    if (!all && !new_only.count(key(src.kind, src.id))) continue;
    Entry e = src;
    e.alternative = a;
    e.ident = fmt::format("m{}_{}", a, src.ident);
    for (int n = 2; !taken.insert(e.ident).second; ++n)
      e.ident = fmt::format("m{}_{}_{}", a, src.ident, n);
    e.first_cycle += side.delta;
    if (e.read) e.read = remap(*e.read);
    if (e.write) e.write = remap(*e.write);
    for (PortRef& port : e.ports) port.slot = remap(port.slot);
    if (e.kind == Entry::Kind::transfer) e.to = map[e.to];
    added[i] = u.entries.size();
    sw.start.push_back(u.entries.size());
    own_steps.push_back(alt.transfer_steps);
    u.entries.push_back(std::move(e));
  }
  u.transfer_steps = std::max(u.transfer_steps, alt.transfer_steps);
  u.has_transfers = u.has_transfers || alt.has_transfers;
  u.latency = std::max(u.latency, alt.latency + side.delta);
  // Each PE's order: G1's for its entries, G0's old-only ones before the common entry that
  // follows them in G0.
  for (ir::PeId pe = 0; pe < p.arch.pes.size(); ++pe) {
    if (p.arch.pes[pe].host != host) continue;
    const std::vector<std::size_t> before = u.by_pe[pe];
    std::set<std::size_t> stopped(sw.stop.begin(), sw.stop.end());
    std::map<std::pair<int, std::uint32_t>, std::size_t> common;  // G0 entry of a common G1 entry
    for (std::size_t i : before)
      if (i < base_count && !stopped.count(i)) common[key(u.entries[i].kind, u.entries[i].id)] = i;
    std::vector<std::size_t> order;
    std::set<std::size_t> placed;
    auto place_until = [&](std::size_t anchor) {
      for (std::size_t i : before) {
        if (placed.count(i)) continue;
        if (i == anchor) break;
        order.push_back(i);
        placed.insert(i);
      }
    };
    for (std::size_t i : alt.by_pe[pe]) {
      if (auto it = added.find(i); it != added.end()) {
        order.push_back(it->second);
        continue;
      }
      auto c = common.find(key(alt.entries[i].kind, alt.entries[i].id));
      if (c == common.end() || placed.count(c->second)) continue;
      place_until(c->second);
      order.push_back(c->second);
      placed.insert(c->second);
    }
    for (std::size_t i : before)
      if (!placed.count(i)) order.push_back(i);
    u.by_pe[pe] = std::move(order);
  }
}

Step entry_step(const Entry& e, std::size_t index) {
  Step s;
  s.entry = index;
  switch (e.kind) {
    case Entry::Kind::firing: s.kind = Step::Kind::fire; break;
    case Entry::Kind::transfer:
      s.kind = e.net != Entry::Net::none ? Step::Kind::net_post
               : e.mapped                ? Step::Kind::mapped_copy
                                         : Step::Kind::copy;
      break;
    case Entry::Kind::copy: s.kind = Step::Kind::delay_copy; break;
  }
  return s;
}

Step wait_step(const std::set<StreamKind>& streams) {
  Step s;
  s.kind = Step::Kind::wait;
  s.streams.assign(streams.begin(), streams.end());
  return s;
}

Step plain_step(Step::Kind kind, std::uint32_t phase = 0) {
  Step s;
  s.kind = kind;
  s.phase = phase;
  return s;
}

/// One slot access of a GPU's entry, on the stream the entry runs on.
struct Access {
  StreamKind stream;
  SlotRef slot;
  bool write;
};

}  // namespace

GpuCycles gpu_cycles(const HostPlan& h, const StrategyPlan& sp, ir::PeId gpu) {
  GpuCycles out;
  out.streams.assign(h.streams[gpu].begin(), h.streams[gpu].end());
  std::vector<Access> accesses;
  for (std::size_t i : sp.by_pe[gpu]) {
    const Entry& e = sp.entries[i];
    DFGC_INTERNAL_ASSERT(e.stream.has_value(), "entry ", e.ident, " of GPU ", h.pe(gpu).name,
                         " has no stream");
    for (const PortRef& port : e.ports) accesses.push_back({*e.stream, port.slot, !port.input});
    if (e.read) accesses.push_back({*e.stream, *e.read, false});
    if (e.write) accesses.push_back({*e.stream, *e.write, true});
  }
  std::map<std::pair<StreamKind, StreamKind>, StreamOrder> orders;
  for (const Access& x : accesses)
    for (const Access& y : accesses) {
      if (x.stream == y.stream || !(x.write || y.write) || x.slot.pe != y.slot.pe ||
          x.slot.colour != y.slot.colour)
        continue;
      const std::int64_t slots = x.slot.slots;
      DFGC_INTERNAL_ASSERT(slots == y.slot.slots, "colour ", x.slot.colour, " of ",
                           h.pe(x.slot.pe).name, " seen with two slot counts");
      const std::int64_t apart =
          ((static_cast<std::int64_t>(x.slot.lag) - y.slot.lag) % slots + slots) % slots;
      DFGC_INTERNAL_ASSERT(apart != 0, "streams ", to_string(x.stream), " and ",
                           to_string(y.stream), " of ", h.pe(gpu).name, " use slot (c - ",
                           x.slot.lag, ") mod ", slots, " of ", h.pe(x.slot.pe).name, " colour ",
                           x.slot.colour, " in the same cycle");
      const auto distance = static_cast<std::uint32_t>(apart);
      auto [at, fresh] = orders.try_emplace({x.stream, y.stream});
      if (fresh || distance < at->second.cycles)
        at->second = {x.stream, y.stream, distance,
                      fmt::format("{} colour {}", h.pe(x.slot.pe).name, x.slot.colour)};
    }
  for (auto& [streams, order] : orders) {
    out.in_flight = std::max(out.in_flight, order.cycles);
    out.orders.push_back(std::move(order));
  }
  if (gpu < sp.storage.size())
    out.mapped = std::any_of(sp.storage[gpu].begin(), sp.storage[gpu].end(),
                             [](const PlanColour& c) { return c.mapped; });
  return out;
}

namespace {

/// The steps of `pe`'s cycle (the file comment of plan_hosts.hpp).
std::vector<Step> pe_steps(const StrategyPlan& sp, ir::PeId pe, bool gpu,
                           const std::set<StreamKind>& streams) {
  std::vector<Step> out;
  const std::vector<std::size_t>& mine = sp.by_pe[pe];
  bool net = false;
  for (std::size_t i : mine) net = net || sp.entries[i].net != Entry::Net::none;
  if (sp.strategy == ir::Strategy::overlap) {
    for (std::size_t i : mine) out.push_back(entry_step(sp.entries[i], i));
    // A GPU's cycle ends on the GPU (GpuCycles): no wait for its streams.
    if (net) out.push_back(plain_step(Step::Kind::net_complete));
    out.push_back(plain_step(Step::Kind::end_cycle));
    return out;
  }
  if (sp.has_transfers) {
    std::set<StreamKind> used;
    std::set<std::uint32_t> net_steps;
    for (std::size_t i : mine) {
      const Entry& e = sp.entries[i];
      if (e.kind != Entry::Kind::transfer) continue;
      if (e.net != Entry::Net::none)
        net_steps.insert(e.step);
      else if (e.stream)  // a mapped copy is done when its step is
        used.insert(*e.stream);
    }
    for (std::uint32_t phase = 0; phase < sp.transfer_steps; ++phase) {
      for (std::size_t i : mine)
        if (sp.entries[i].kind == Entry::Kind::transfer && sp.entries[i].step == phase)
          out.push_back(entry_step(sp.entries[i], i));
      if (net_steps.count(phase)) out.push_back(plain_step(Step::Kind::net_complete));
      if (!used.empty()) out.push_back(wait_step(used));
      out.push_back(plain_step(Step::Kind::end_phase, phase));
    }
  }
  for (std::size_t i : mine)
    if (sp.entries[i].kind != Entry::Kind::transfer) out.push_back(entry_step(sp.entries[i], i));
  if (gpu) out.push_back(wait_step(streams));
  out.push_back(plain_step(Step::Kind::end_cycle));
  return out;
}

}  // namespace

namespace {

/// The C++ name of the mapped ring of the edge "d1.y -> m1.x": "ring_d1_y".
std::string mapped_ring_ident(std::string_view edge) {
  return "ring_" + identifier(edge.substr(0, edge.find(" -> ")));
}

/// The first cycle of node n's firing in a strategy's plan.
std::uint32_t first_cycle_of(const StrategyPlan& sp, ir::NodeId n) {
  for (const Entry& e : sp.entries)
    if (e.kind == Entry::Kind::firing && e.id == n && e.alternative < 0) return e.first_cycle;
  DFGC_INTERNAL_ASSERT(false, "no firing of node ", n, " in the plan");
  return 0;
}

/// The host's mapped rings (PlanMappedRing), sized from both strategies' first cycles and the
/// GPU's cycles in flight; each island's view of one takes its capacity.
void plan_mapped_rings(const ir::Program& program, HostPlan& h) {
  std::map<std::string, std::size_t> by_edge;
  for (const ir::Island& island : program.islands) {
    if (program.arch.pes[island.pe].host != h.host) continue;
    for (const ir::IslandFifo& f : island.fifos) {
      if (!f.mapped) continue;
      auto [it, fresh] = by_edge.try_emplace(f.name, h.mapped_rings.size());
      if (fresh) {
        PlanMappedRing r;
        r.name = f.name;
        r.ident = mapped_ring_ident(f.name);
        r.elem = std::string(ir::cxx_name(f.elem));
        h.mapped_rings.push_back(std::move(r));
      }
      PlanMappedRing& r = h.mapped_rings[it->second];
      (f.dst_member ? r.to : r.from) = island.name;
      r.stated = r.stated || f.stated;
      r.per_iteration = std::max(r.per_iteration, f.capacity);
    }
  }
  auto island_named = [&](const std::string& name) -> const ir::Island& {
    auto it = std::find_if(program.islands.begin(), program.islands.end(),
                           [&](const ir::Island& i) { return i.name == name; });
    DFGC_INTERNAL_ASSERT(it != program.islands.end(), "no island ", name);
    return *it;
  };
  for (PlanMappedRing& r : h.mapped_rings) {
    const ir::Island& from = island_named(r.from);
    const ir::Island& to = island_named(r.to);
    const ir::PeId gpu = program.arch.pes[from.pe].kind == ir::PeKind::gpu ? from.pe : to.pe;
    for (ir::Strategy s : ir::kStrategies) {
      const StrategyPlan& sp = h.strategies[s];
      const std::uint32_t distance = first_cycle_of(sp, to.node) - first_cycle_of(sp, from.node);
      const std::uint32_t in_flight =
          gpu < sp.gpu_cycles.size() && sp.gpu_cycles[gpu] ? sp.gpu_cycles[gpu]->in_flight : 1;
      r.iterations = std::max(r.iterations, distance + 1 + in_flight);
    }
    r.capacity = r.stated ? r.per_iteration : r.per_iteration * r.iterations;
    for (PlanIsland& island : h.islands)
      for (PlanIslandFifo& f : island.fifos)
        if (f.mapped == r.ident) f.capacity = r.capacity;
  }
}

/// An island as its generated class needs it.
PlanIsland plan_island(const ir::Program& program, const ir::Island& island) {
  const ir::Actor& actor = program.dfg.actors[island.actor];
  const ir::Impl& impl = actor.impls.front();
  PlanIsland x{island.name, impl.class_name, impl.header_path, island.pe, impl.kind, {}, {}, {}};
  for (std::size_t f = 0; f < island.fifos.size(); ++f) {
    const ir::IslandFifo& fifo = island.fifos[f];
    x.fifos.push_back({fifo.name, fmt::format("fifo{}", f), std::string(ir::cxx_name(fifo.elem)),
                       fifo.capacity, fifo.stated,
                       fifo.mapped ? mapped_ring_ident(fifo.name) : std::string()});
  }
  for (std::size_t p = 0; p < actor.ports.size(); ++p)
    x.ports.push_back({actor.ports[p].name, actor.ports[p].dir == ir::PortDir::in,
                       island.port_fifo[p], island.port_elements[p], island.port_bounded[p],
                       island.port_between[p], island.port_mapped[p], island.port_counted[p]});
  for (std::uint32_t m = 0; m < island.members.size(); ++m) {
    const ir::IslandMember& member = island.members[m];
    const ir::Actor& a = program.dfg.actors[member.actor];
    const ir::Impl& i = *a.impl_for(impl.kind);
    PlanIslandMember y{
        member.name, a.name,        member.actor,  i.class_name,
        i.header,    i.header_path, member.params, std::vector<std::uint32_t>(a.ports.size()),
        {}};
    for (const ir::Port& port : a.ports) y.port_input.push_back(port.dir == ir::PortDir::in);
    for (std::uint32_t f = 0; f < island.fifos.size(); ++f) {
      const ir::IslandFifo& fifo = island.fifos[f];
      if (fifo.src_member == m) y.port_fifo[fifo.src_port] = f;
      if (fifo.dst_member == m) y.port_fifo[fifo.dst_port] = f;
    }
    if (!i.parallel.empty()) {
      y.parallel = i.parallel;
      for (const ir::Port& port : a.ports) y.port_names.push_back(port.name);
      std::uint64_t batch = std::numeric_limits<std::uint32_t>::max();
      for (std::size_t p = 0; p < a.ports.size(); ++p) {
        const auto ring =
            std::bit_ceil(static_cast<std::uint64_t>(x.fifos[y.port_fifo[p]].capacity));
        batch = std::min<std::uint64_t>(batch, ring / i.parallel[p]);
      }
      DFGC_INTERNAL_ASSERT(batch >= 1, "parallel member ", member.name, " never fits its rings");
      y.batch = static_cast<std::uint32_t>(batch);
      const std::uint32_t warps = (std::min(y.batch, kIslandThreads) + 31) / 32;
      x.threads = std::max(x.threads, warps * 32);
    }
    x.members.push_back(std::move(y));
  }
  return x;
}

}  // namespace

HostPlan plan_host(const ir::Program& program, const ir::Ig& ig, ir::HostId host,
                   const Migrations* migrations, const PlanOptions& options) {
  DFGC_INTERNAL_ASSERT(host < program.arch.hosts.size(), "no host ", host);
  HostPlan h;
  h.host = host;
  h.host_name = program.arch.hosts[host].name;
  h.app_name = program.app_name;
  h.arch_name = program.arch.name;
  h.mapped_bytes = options.mapped_bytes;
  h.spec_name = std::filesystem::path(program.spec_file).filename().generic_string();
  h.cpus = program.arch.hosts[host].cpus;
  DFGC_INTERNAL_ASSERT(!h.cpus.empty() && h.cpus.front() == program.arch.hosts[host].cpu, "host ",
                       h.host_name, "'s first cpu is not its cpu");
  for (const ir::Param& x : program.params)
    h.params.push_back({x.name, x.value, x.runtime, x.bounds});
  for (const ir::TokenType& t : program.types)
    h.types.push_back({t.name, std::string(ir::spec_name(t.elem)),
                       std::string(ir::cxx_name(t.elem)), t.count.text, t.count.tree});
  for (const ir::Host& x : program.arch.hosts) h.host_names.push_back(x.name);
  for (const ir::Pe& pe : program.arch.pes)
    h.pe_table.push_back({pe.name, pe.local_name, pe.host, pe.kind, pe.device});
  for (ir::NodeId n : ig.schedule) {
    const ir::PeId pe = program.mapping.pe_of[n];
    if (program.arch.pes[pe].host != host) continue;
    const ir::Node& node = program.dfg.nodes[n];
    const ir::Actor& actor = program.dfg.actor_of(n);
    const ir::Impl& impl = *actor.impl_for(program.arch.pes[pe].kind);
    PlanNode x{
        n,         node.name,   actor.name,       node.actor,  impl.class_name,  pe,
        {},        node.params, node.repetitions, impl.header, impl.header_path, actor.libraries,
        impl.block};
    for (std::uint32_t port = 0; port < actor.ports.size(); ++port)
      x.port_types.push_back(program.types[program.dfg.block_type(n, port)].name);
    h.nodes.push_back(std::move(x));
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
    if (program.arch.pes[m.to].host != host) continue;
    const ir::Node& node = program.dfg.nodes[m.node];
    const ir::Actor& actor = program.dfg.actor_of(m.node);
    const ir::Impl* impl = actor.impl_for(program.arch.pes[m.to].kind);
    PlanNode x{m.node,       node.name,          actor.name,
               node.actor,   impl->class_name,   m.to,
               {},           node.params,        node.repetitions,
               impl->header, impl->header_path,  actor.libraries,
               impl->block,  static_cast<int>(a)};
    for (std::uint32_t port = 0; port < actor.ports.size(); ++port)
      x.port_types.push_back(program.types[program.dfg.block_type(m.node, port)].name);
    h.nodes.push_back(std::move(x));
  }
  h.streams.resize(program.arch.pes.size());
  h.colour_count.resize(program.arch.pes.size(), 0);
  const ir::PerStrategy<std::vector<int>> tags = net_tags(program, ig);
  // The alternatives' MPI tags follow the base's and each other's: a tag is unique in the program.
  std::vector<ir::PerStrategy<std::vector<int>>> alt_tags;
  int next_tag = 0;
  for (ir::Strategy s : ir::kStrategies)
    for (int t : tags[s]) next_tag = std::max(next_tag, t + 1);
  for (const Migration& m : alts) {
    alt_tags.push_back(net_tags(m.program, m.ig));
    int most = next_tag;
    for (ir::Strategy s : ir::kStrategies)
      for (int& t : alt_tags.back()[s])
        if (t >= 0) {
          t += next_tag;
          most = std::max(most, t + 1);
        }
    next_tag = most;
  }
  // On several hosts, the tags of run-time migration follow: the ranks' agreement on a live
  // move, then the state of each alternative that moves its node between hosts.
  if (!alts.empty() && program.arch.hosts.size() > 1) {
    h.control_tag = next_tag++;
    for (PlanMigration& pm : h.migrations)
      if (program.arch.pes[pm.from].host != program.arch.pes[pm.to].host) pm.state_tag = next_tag++;
  }
  for (ir::Strategy s : ir::kStrategies)
    for (ir::TransferId t = 0; t < ig[s].transfers.size(); ++t)
      if (tags[s][t] >= 0) {
        const ir::IgTransfer& x = ig[s].transfers[t];
        h.net_transfers.push_back({tags[s][t], s, ig[s].buffers[x.from].name,
                                   ig[s].buffers[x.to].name, is_gpudirect(program, x)});
      }
  // The alternatives' transfers in the union: the new-only ones, or all of G1's when its delta
  // is not 0 (merge_alternative).
  for (std::size_t a = 0; a < alts.size(); ++a)
    for (ir::Strategy s : ir::kStrategies) {
      const Migration& m = alts[a];
      std::set<ir::TransferId> used;
      if (m.sides[s].delta != 0) {
        for (ir::TransferId t = 0; t < m.ig[s].transfers.size(); ++t) used.insert(t);
      } else {
        for (const MigrationEntry& e : m.sides[s].new_only)
          if (e.kind == MigrationEntry::Kind::transfer) used.insert(e.id);
      }
      for (ir::TransferId t : used)
        if (alt_tags[a][s][t] >= 0) {
          const ir::IgTransfer& x = m.ig[s].transfers[t];
          h.net_transfers.push_back({alt_tags[a][s][t], s, m.ig[s].buffers[x.from].name,
                                     m.ig[s].buffers[x.to].name, is_gpudirect(m.program, x),
                                     static_cast<int>(a)});
        }
    }
  std::sort(h.net_transfers.begin(), h.net_transfers.end(),
            [](const NetTransfer& a, const NetTransfer& b) { return a.tag < b.tag; });
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
        merge_alternative(program, u, base_count, alt, m.ig[s], m.sides[s], static_cast<int>(a),
                          host, next_colour, own_steps, h.migrations[a].sides[s]);
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
  for (const ir::Island& island : program.islands)
    if (program.arch.pes[island.pe].host == host) h.islands.push_back(plan_island(program, island));
  for (ir::Strategy s : ir::kStrategies)
    for (ir::PeId pe : h.pes())
      h.strategies[s].steps[pe] =
          pe_steps(h.strategies[s], pe, h.pe(pe).kind == ir::PeKind::gpu, h.streams[pe]);
  StrategyPlan& overlap = h.strategies[ir::Strategy::overlap];
  overlap.gpu_cycles.resize(program.arch.pes.size());
  for (ir::PeId gpu : h.gpus) overlap.gpu_cycles[gpu] = gpu_cycles(h, overlap, gpu);
  plan_mapped_rings(program, h);
  return h;
}

HostPlans plan_hosts(const ir::Program& program, const ir::Ig& ig, const Migrations* migrations,
                     const PlanOptions& options) {
  HostPlans out;
  for (ir::HostId h = 0; h < program.arch.hosts.size(); ++h)
    out.hosts.push_back(plan_host(program, ig, h, migrations, options));
  return out;
}

// ---- the dump ----

namespace {

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
  if (e.net != Entry::Net::none) out += e.net == Entry::Net::send ? " send" : " receive";
  out += fmt::format(" {} ({}) from cycle {}", e.label, e.ident, e.first_cycle);
  if (e.kind == Entry::Kind::transfer && sp.strategy == ir::Strategy::no_overlap)
    out += fmt::format(" in step {}", e.step);
  if (e.stream) out += fmt::format(" on {}", to_string(*e.stream));
  if (e.kind == Entry::Kind::transfer) out += fmt::format(" over {}", e.link);
  if (e.order_only) out += ", order only: no copy";
  if (e.mapped && !e.order_only) out += ", a host copy: no copy call of the GPU";
  if (e.net != Entry::Net::none) {
    out += fmt::format(" {} host {} tag {}", e.net == Entry::Net::send ? "to" : "from",
                       h.host_names[h.pe(*e.peer).host], e.tag);
    if (e.gpudirect) out += fmt::format(" in the memory of {}", h.pe(*e.gpudirect).name);
  }
  out += "\n";
  for (const PortRef& port : e.ports) {
    out += fmt::format("        {} {}: {}", port.input ? "reads" : "writes", port.port,
                       slot_text(h, sp, port.slot));
    if (port.initial)
      out += fmt::format(", in iterations 0 .. {} its initial tokens (= {})", port.initial - 1,
                         port.initial_value);
    out += "\n";
  }
  if (e.read) out += fmt::format("        reads {}\n", slot_text(h, sp, *e.read));
  if (e.write) out += fmt::format("        writes {}\n", slot_text(h, sp, *e.write));
  if (e.kind != Entry::Kind::firing) out += fmt::format("        token {}\n", e.type);
  return out;
}

/// The host's MPI traffic a cycle and the communication thread's lanes it gets at the defaults.
std::string lanes_text(const StrategyPlan& sp) {
  std::int64_t received = 0;
  std::size_t receives = 0, sends = 0;
  for (const Entry& e : sp.entries) {
    if (e.net == Entry::Net::recv) {
      received += e.bytes;
      ++receives;
    } else if (e.net == Entry::Net::send) {
      ++sends;
    }
  }
  const int lanes = sends > 0 && received >= kTwoLaneBytes ? 2 : 1;
  return fmt::format(
      "    mpi lanes: {} (receives {} bytes a cycle at the defaults, in {} transfers; sends {}; two "
      "where a host receives at least {} bytes a cycle and sends)\n",
      lanes == 2 ? "two" : "one", received, receives, sends, kTwoLaneBytes);
}

}  // namespace

std::string dump(const HostPlans& plans) {
  std::string out;
  for (const HostPlan& h : plans.hosts) {
    out += fmt::format("host {} of app {} on {} ({})\n", h.host_name, h.app_name, h.arch_name,
                       h.spec_name);
    if (h.has_gpu())
      out += fmt::format(
          "  mapped tokens: a GPU's colours of at most {} bytes that only its host's cpus copy "
          "into or out of and only mappable ports touch (--mapped-tokens)\n",
          h.mapped_bytes);
    for (const PlanParam& x : h.params) {
      out += fmt::format("  {}param {} = {}", x.runtime ? "runtime " : "", x.name, x.value);
      if (x.bounds) out += fmt::format(" in [{}, {}]", x.bounds->min, x.bounds->max);
      out += "\n";
    }
    for (const PlanType& t : h.types)
      out += fmt::format("  type {} = {}[{}] ({})\n", t.name, t.elem, t.count_text, t.cxx_elem);
    for (const NetTransfer& t : h.net_transfers)
      out += fmt::format("  net tag {} {} {} -> {}{}{}\n", t.tag, ir::to_string(t.strategy), t.from,
                         t.to, t.gpudirect ? " gpudirect" : "",
                         t.alternative >= 0 ? fmt::format(" (migration {})", t.alternative) : "");
    if (h.control_tag >= 0)
      out += fmt::format("  control tag {}: the ranks' agreement on live moves\n", h.control_tag);
    for (const PlanNode& n : h.nodes) {
      out += fmt::format("  node {} ({}) @ {}: class {} in \"{}\"", n.name, n.actor,
                         h.pe(n.pe).name, n.class_name, n.header);
      if (!n.libraries.empty()) out += fmt::format(" uses {}", fmt::join(n.libraries, " "));
      out += "\n";
    }
    for (const PlanIsland& island : h.islands) {
      out += fmt::format("  island {} @ {} ({}): class {} in \"{}\"", island.name,
                         h.pe(island.pe).name, ir::to_string(island.kind), island.class_name,
                         island.header);
      if (island.threads != 1) out += fmt::format(", {} threads a block", island.threads);
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
      }
      for (const PlanIslandFifo& f : island.fifos) {
        out += fmt::format("    {} {}: {}, capacity {} ({})", f.ident, f.name, f.elem, f.capacity,
                           f.stated ? "stated" : "computed");
        if (!f.mapped.empty()) out += fmt::format(", the mapped ring {}", f.mapped);
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
      out += r.stated ? " (stated)\n"
                      : fmt::format(" (computed: {} an iteration x {} iterations ahead)\n",
                                    r.per_iteration, r.iterations);
    }
    for (ir::PeId pe : h.pes()) {
      const PlanPe& x = h.pe(pe);
      out += fmt::format("  pe {} {}", x.name, ir::to_string(x.kind));
      if (x.kind == ir::PeKind::gpu) {
        out += fmt::format(" device {} streams {}", x.device,
                           streams_text({h.streams[pe].begin(), h.streams[pe].end()}));
      }
      out += fmt::format(" colours {}", h.colour_count[pe]);
      if (h.cpus.size() > 1 && pe == h.cpu())
        out +=
            " first cpu: the host end of its links (its GPUs' workers launch their copies), runs its MPI";
      out += "\n";
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
          out += fmt::format("      view {} ({}): {} colour {}, depth {}, colour lag {}\n", x.name,
                             x.ident, h.pe(x.pe).name, x.colour, x.depth, x.colour_lag);
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
        out += fmt::format("    migration {}: node {} {} -> {}, delta {}{}", a, m.node_name,
                           h.pe(m.from).name, h.pe(m.to).name, sw.delta,
                           sw.reversible ? ", reversible" : "");
        if (m.state_tag >= 0) out += fmt::format(", state tag {}", m.state_tag);
        out += "\n";
        out += fmt::format("      stops at first cycle + j*: {}\n", idents(sw.stop));
        out += fmt::format("      starts at first cycle + j*: {}\n", idents(sw.start));
      }
    }
  }
  return out;
}

}  // namespace dfgc
