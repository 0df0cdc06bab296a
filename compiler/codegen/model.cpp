#include "codegen/model.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "support/assert.hpp"

namespace dfgc::codegen {

std::string identifier(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
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
    std::sort(order.begin(), order.end(), [&](ir::TransferId a, ir::TransferId b) { return key(a) < key(b); });
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

bool Model::has_gpu() const { return !program->arch.hosts[host].gpus.empty(); }

bool Model::has_gpudirect() const {
  for (ir::Strategy s : ir::kStrategies)
    for (const Entry& e : strategies[s].entries)
      if (e.gpudirect) return true;
  return false;
}

std::vector<ir::PeId> Model::pes() const {
  std::vector<ir::PeId> out = {program->arch.hosts[host].cpu};
  const auto& gpus = program->arch.hosts[host].gpus;
  out.insert(out.end(), gpus.begin(), gpus.end());
  return out;
}

std::vector<ir::BufferId> StrategyModel::touched(const ir::IgStrategy& s, ir::PeId pe) const {
  std::set<ir::BufferId> buffers;
  for (std::size_t e : by_pe[pe]) {
    const Entry& x = entries[e];
    switch (x.kind) {
      case Entry::Kind::firing:
        for (const ir::PortBinding& b : s.firings[x.id].ports) buffers.insert(b.buffer);
        break;
      case Entry::Kind::transfer:  // a host-to-host transfer: this host's end only
        if (x.net != Entry::Net::recv) buffers.insert(s.transfers[x.id].from);
        if (x.net != Entry::Net::send) buffers.insert(s.transfers[x.id].to);
        break;
      case Entry::Kind::copy:
        buffers.insert(s.copies[x.id].from);
        buffers.insert(s.copies[x.id].to);
        break;
    }
  }
  std::vector<ir::BufferId> out(buffers.begin(), buffers.end());
  std::sort(out.begin(), out.end(),
            [&](ir::BufferId a, ir::BufferId b) { return s.buffers[a].name < s.buffers[b].name; });
  return out;
}

namespace {

class StrategyBuilder {
 public:
  StrategyBuilder(const ir::Program& p, const ir::IgStrategy& s, ir::HostId host) : p_(p), s_(s), host_(host) {}

  StrategyModel run() {
    out_.strategy = s_.strategy;
    out_.by_pe.resize(p_.arch.pes.size());
    out_.neighbours.resize(p_.arch.pes.size());
    for (ir::PeId pe = 0; pe < p_.arch.pes.size(); ++pe) {
      if (p_.arch.pes[pe].host != host_) continue;
      add_transfers(pe);
      for (ir::NodeId n : s_.order[pe]) {
        add_firing(n);
        for (ir::CopyId c : s_.copies_after(n)) add_copy(c);
      }
    }
    // Every host runs the whole program's cycles, so that the ranks' cycles correspond.
    for (const ir::IgFiring& f : s_.firings) out_.latency = std::max(out_.latency, f.latency);
    for (const ir::IgTransfer& t : s_.transfers) out_.latency = std::max(out_.latency, t.first_cycle);
    for (const ir::IgCopy& c : s_.copies) out_.latency = std::max(out_.latency, c.first_cycle);
    std::set<std::string> taken;
    for (const ir::IgBuffer& b : s_.buffers) out_.buffer_idents.push_back(unique(taken, identifier(b.name)));
    add_neighbours();
    return std::move(out_);
  }

 private:
  const std::string& buffer_name(ir::BufferId b) const { return s_.buffers[b].name; }

  /// `base`, or `base_2`, `base_3` ... when taken.
  std::string unique(std::set<std::string>& taken, const std::string& base) {
    std::string name = base;
    for (int i = 2; !taken.insert(name).second; ++i) name = fmt::format("{}_{}", base, i);
    return name;
  }

  void push(Entry e) {
    e.ident = unique(entry_idents_, e.ident);
    out_.by_pe[e.runner].push_back(out_.entries.size());
    out_.entries.push_back(std::move(e));
  }

  /// The transfers `pe` runs: host-to-host receives, then sends (every MPI operation of a cycle
  /// is posted before the PE fires or waits), then the ones it launches within its host.
  void add_transfers(ir::PeId pe) {
    std::vector<ir::TransferId> recvs, sends, local;
    for (ir::TransferId t = 0; t < s_.transfers.size(); ++t) {
      const ir::IgTransfer& x = s_.transfers[t];
      if (is_net(p_, x)) {
        if (net_runner(p_, x.to_pe) == pe) recvs.push_back(t);
        if (net_runner(p_, x.from_pe) == pe) sends.push_back(t);
      } else if (launcher(p_, x) == pe) {
        local.push_back(t);
      }
    }
    std::vector<ir::TransferId> mine;
    for (auto* group : {&recvs, &sends, &local}) {
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
      e.where = fmt::format("{}>{}", p_.arch.pes[x.from_pe].name, p_.arch.pes[x.to_pe].name);
      e.runner = pe;
      if (is_net(p_, x)) {
        e.net = net_runner(p_, x.to_pe) == pe ? Entry::Net::recv : Entry::Net::send;
        if (is_gpudirect(p_, x)) e.gpudirect = e.net == Entry::Net::recv ? x.to_pe : x.from_pe;
      } else {
        e.stream = stream_of(p_, x);
      }
      e.first_cycle = x.first_cycle;
      e.step = x.step;
      push(std::move(e));
    }
  }

  void add_firing(ir::NodeId n) {
    const ir::Node& node = p_.dfg.nodes[n];
    const ir::IgFiring& f = s_.firings[n];
    Entry e;
    e.kind = Entry::Kind::firing;
    e.id = n;
    e.ident = "fire_" + identifier(node.name);
    e.short_name = fmt::format("{} ({})", node.name, p_.dfg.actor_of(n).name);
    e.label = fmt::format("node {} @ {}", e.short_name, p_.arch.pes[f.pe].name);
    e.where = p_.arch.pes[f.pe].name;
    e.runner = f.pe;
    if (p_.arch.pes[f.pe].kind == ir::PeKind::gpu) e.stream = StreamKind::compute;
    e.first_cycle = f.latency;
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
    e.where = p_.arch.pes[pe].name;
    e.runner = pe;
    if (p_.arch.pes[pe].kind == ir::PeKind::gpu) e.stream = StreamKind::compute;
    e.first_cycle = x.first_cycle;
    push(std::move(e));
  }

  /// The owner of each colour and every launcher of a transfer touching it share memory. Each
  /// end of a host-to-host transfer touches only a colour of its own host, run by its CPU (the
  /// colour's owner over a net link; over a gpudirect link, the GPU owns it).
  void add_neighbours() {
    std::vector<std::set<ir::PeId>> users(s_.colours.size());
    for (ir::ColourId c = 0; c < s_.colours.size(); ++c) users[c].insert(s_.colours[c].pe);
    for (const ir::IgTransfer& t : s_.transfers) {
      const bool net = is_net(p_, t);
      users[s_.buffers[t.from].colour].insert(net ? net_runner(p_, t.from_pe) : launcher(p_, t));
      users[s_.buffers[t.to].colour].insert(net ? net_runner(p_, t.to_pe) : launcher(p_, t));
    }
    for (const auto& group : users)
      for (ir::PeId a : group)
        for (ir::PeId b : group)
          if (a != b) out_.neighbours[a].insert(b);
  }

  const ir::Program& p_;
  const ir::IgStrategy& s_;
  ir::HostId host_;
  StrategyModel out_;
  std::set<std::string> entry_idents_;
};

}  // namespace

Model build_model(const ir::Program& program, const ir::Ig& ig, const ActorSignatures& signatures,
                  ir::HostId host) {
  DFGC_INTERNAL_ASSERT(host < program.arch.hosts.size(), "no host ", host);
  Model m;
  m.program = &program;
  m.ig = &ig;
  m.signatures = &signatures;
  m.host = host;
  m.streams.resize(program.arch.pes.size());
  m.colour_count.resize(program.arch.pes.size(), 0);
  const ir::PerStrategy<std::vector<int>> tags = net_tags(program, ig);
  for (ir::Strategy s : ir::kStrategies) {
    m.strategies[s] = StrategyBuilder(program, ig[s], host).run();
    m.strategies[s].net_tags = tags[s];
    for (const Entry& e : m.strategies[s].entries)
      if (e.stream) m.streams[e.runner].insert(*e.stream);
    std::vector<std::uint32_t> count(program.arch.pes.size(), 0);
    for (const ir::IgColour& c : ig[s].colours) count[c.pe]++;
    for (std::size_t pe = 0; pe < count.size(); ++pe)
      m.colour_count[pe] = std::max(m.colour_count[pe], count[pe]);
  }
  for (ir::PeId gpu : program.arch.hosts[host].gpus) m.streams[gpu].insert(StreamKind::compute);
  return m;
}

}  // namespace dfgc::codegen
