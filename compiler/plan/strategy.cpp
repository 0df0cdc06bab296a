// One strategy's entries on one host, from its implementation graph: every firing, transfer and
// delay copy with the PE that runs it, its stream, its slots and its MPI tag; each PE's storage
// (one allocation per colour), the buffers its thread touches and its neighbours (plan.hpp).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plan/detail.hpp"

namespace dfgc::plan_detail {

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
      out_.touched[pe] = touched_buffers(out_, pe);
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
      Entry::Transfer& tr = e.what.emplace<Entry::Transfer>();
      e.id = t;
      e.ident = "transfer_" + identifier(buffer_name(x.to));
      e.short_name = fmt::format("{} -> {}", buffer_name(x.from), buffer_name(x.to));
      e.label = "transfer " + e.short_name;
      e.where = fmt::format("{}>{}", pe_name(x.from_pe), pe_name(x.to_pe));
      e.runner = pe;
      tr.link = std::string(ir::to_string(p_.arch.links[x.link].kind));
      tr.type = out_.buffers[x.from].type;
      tr.bytes = s_.buffers[x.to].bytes;
      e.profile = fmt::format("{} -> {}", pe_name(x.from_pe), pe_name(x.to_pe));
      tr.to = x.to;
      tr.order_only = p_.types[s_.buffers[x.to].type].order_only;
      const SlotRef read = slot(x.from, x.from_lag);
      const SlotRef write = slot(x.to, s_.buffers[x.to].writer.lag);
      if (is_net(p_, x)) {
        tr.net = net_runner(p_, x.to_pe) == pe ? NetEnd::recv : NetEnd::send;
        if (is_gpudirect(p_, x)) tr.gpudirect = tr.net == NetEnd::recv ? x.to_pe : x.from_pe;
        tr.tag = tags_[t];
        tr.peer = tr.net == NetEnd::send ? x.to_pe : x.from_pe;
        if (tr.net == NetEnd::send)
          tr.read = read;
        else
          tr.write = write;
      } else {
        tr.mapped = mapped(x);
        if (tr.mapped)
          e.profile = std::string(kHostCopyProfile) + e.profile;
        else
          e.stream = stream_of(p_, x);
        tr.read = read;
        tr.write = write;
      }
      e.first_cycle = x.first_cycle;
      tr.step = x.step;
      push(std::move(e));
    }
  }

  void add_firing(ir::NodeId n) {
    const ir::Node& node = p_.dfg.nodes[n];
    const ir::Actor& actor = p_.dfg.actor_of(n);
    const ir::IgFiring& f = s_.firings[n];
    Entry e;
    Entry::Firing& firing = e.what.emplace<Entry::Firing>();
    e.id = n;
    e.ident = "fire_" + identifier(node.name);
    e.short_name = fmt::format("{} ({})", node.name, actor.name);
    e.label = fmt::format("node {} @ {}", e.short_name, pe_name(f.pe));
    e.where = pe_name(f.pe);
    e.runner = f.pe;
    if (p_.arch.pes[f.pe].kind == ir::PeKind::gpu) e.stream = StreamKind::compute;
    e.first_cycle = f.latency;
    e.profile = node.name;
    firing.params = node.params;
    for (std::size_t port = 0; port < f.ports.size(); ++port)
      firing.ports.push_back({actor.ports[port].name, p_.types[actor.ports[port].type].elem_code(),
                              actor.ports[port].dir == ir::PortDir::in,
                              slot(f.ports[port].buffer, f.ports[port].lag), f.ports[port].initial,
                              f.ports[port].initial_value,
                              p_.types[p_.dfg.block_type(n, static_cast<std::uint32_t>(port))].name,
                              f.ports[port].initial_method});
    push(std::move(e));
  }

  void add_copy(ir::CopyId c) {
    const ir::IgCopy& x = s_.copies[c];
    ir::PeId pe = s_.buffers[x.to].pe;
    Entry e;
    e.id = c;
    e.ident = "copy_" + identifier(buffer_name(x.to));
    e.short_name = fmt::format("{} <- {}", buffer_name(x.to), buffer_name(x.from));
    e.label = "delay " + e.short_name;
    e.where = pe_name(pe);
    e.runner = pe;
    if (p_.arch.pes[pe].kind == ir::PeKind::gpu) e.stream = StreamKind::compute;
    e.first_cycle = x.first_cycle;
    e.what = Entry::Copy{out_.buffers[x.from].type, slot(x.from, x.from_lag),
                         slot(x.to, s_.buffers[x.to].writer.lag)};
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
}  // namespace

std::vector<ir::BufferId> touched_buffers(const StrategyPlan& sp, ir::PeId pe) {
  std::set<ir::BufferId> buffers;
  for (std::size_t i : sp.by_pe[pe]) {
    const Entry& e = sp.entries[i];
    for (const PortRef& port : e.ports()) buffers.insert(port.slot.buffer);
    if (std::optional<SlotRef> read = e.read()) buffers.insert(read->buffer);
    if (std::optional<SlotRef> write = e.write()) buffers.insert(write->buffer);
  }
  std::vector<ir::BufferId> out(buffers.begin(), buffers.end());
  std::sort(out.begin(), out.end(), [&](ir::BufferId x, ir::BufferId y) {
    return std::tie(sp.buffers[x].name, sp.buffers[x].ident) <
           std::tie(sp.buffers[y].name, sp.buffers[y].ident);
  });
  return out;
}

StrategyPlan build_strategy(const ir::Program& program, const ir::IgStrategy& s, ir::HostId host,
                            const std::vector<int>& tags, const PlanOptions& options) {
  return StrategyBuilder(program, s, host, tags, options).run();
}

}  // namespace dfgc::plan_detail
