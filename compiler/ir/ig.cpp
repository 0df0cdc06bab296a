#include "ir/ig.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "ir/byte_count.hpp"

namespace dfgc::ir {

std::string_view to_string(Strategy s) { return s == Strategy::overlap ? "overlap" : "no-overlap"; }

std::uint32_t IgStrategy::slot_of(BufferId b, const Access& access, std::int64_t cycle) const {
  const IgBuffer& buffer = buffers[b];
  const auto slots = static_cast<std::int64_t>(colours[buffer.colour].slots);
  std::int64_t x = (cycle - access.lag - buffer.colour_lag) % slots;
  return static_cast<std::uint32_t>(x < 0 ? x + slots : x);
}

std::vector<CopyId> IgStrategy::copies_after(NodeId node) const {
  std::vector<CopyId> result;
  for (CopyId c = 0; c < copies.size(); ++c)
    if (copies[c].after == node) result.push_back(c);
  return result;
}

namespace {

std::string bytes_of(const IgBuffer& b) {
  return b.runtime_size ? fmt::format("{} ({})", b.bytes, b.bytes_text) : std::to_string(b.bytes);
}

/// A strategy's items in schedule.txt order, grouped by the PE whose section lists them.
struct Sections {
  std::vector<std::vector<BufferId>> buffers;      // by name
  std::vector<std::vector<ColourId>> colours;      // by index
  std::vector<std::vector<TransferId>> transfers;  // by (from, to) name, under the sending PE
  std::vector<std::vector<CopyId>> copies;         // by delay line name
  std::vector<std::vector<IgAlias>> aliases;       // by delay line name

  Sections(const Program& p, const IgStrategy& s)
      : buffers(p.arch.pes.size()),
        colours(p.arch.pes.size()),
        transfers(p.arch.pes.size()),
        copies(p.arch.pes.size()),
        aliases(p.arch.pes.size()) {
    auto name = [&](BufferId b) -> const std::string& { return s.buffers[b].name; };
    for (BufferId b : sorted(s.buffers.size(), [&](BufferId i) { return std::tie(name(i)); }))
      buffers[s.buffers[b].pe].push_back(b);
    for (ColourId c = 0; c < s.colours.size(); ++c) colours[s.colours[c].pe].push_back(c);
    auto ends = [&](TransferId t) {
      return std::tie(name(s.transfers[t].from), name(s.transfers[t].to));
    };
    for (TransferId t : sorted(s.transfers.size(), ends))
      transfers[s.transfers[t].from_pe].push_back(t);
    for (CopyId c :
         sorted(s.copies.size(), [&](CopyId i) { return std::tie(name(s.copies[i].to)); }))
      copies[s.buffers[s.copies[c].to].pe].push_back(c);
    for (const IgAlias& a : s.aliases) aliases[s.buffers[a.from].pe].push_back(a);
    for (std::vector<IgAlias>& on_pe : aliases)
      std::sort(on_pe.begin(), on_pe.end(),
                [](const IgAlias& x, const IgAlias& y) { return x.name < y.name; });
  }

  template <typename Key>
  static std::vector<std::uint32_t> sorted(std::size_t count, Key key) {
    std::vector<std::uint32_t> ids(count);
    for (std::uint32_t i = 0; i < count; ++i) ids[i] = i;
    std::sort(ids.begin(), ids.end(),
              [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    return ids;
  }
};

/// One PE's section of one strategy in schedule.txt.
class PeSection {
 public:
  PeSection(const Program& p, const IgStrategy& s, const Sections& sections, PeId pe)
      : p_(p), s_(s), sections_(sections), pe_(pe) {}

  std::string render() const {
    std::string out = fmt::format("pe {}\n", p_.arch.pes[pe_].name);
    buffers(out);
    colours(out);
    transfers(out);
    copies(out);
    firings(out);
    const MemoryReport& m = s_.memory[pe_];
    out += fmt::format("  memory {} -> {} bytes, {} colours", byte_count_text(m.before),
                       byte_count_text(m.after), m.colours);
    if (m.initial) out += fmt::format(", initial tokens {} bytes", byte_count_text(m.initial));
    if (m.windows) out += fmt::format(", windows {} bytes", byte_count_text(m.windows));
    out += '\n';
    host_memory(out);
    return out;
  }

 private:
  const std::string& name(BufferId b) const { return s_.buffers[b].name; }

  /// On the first cpu of a host with several: the host memory its cpus share, counted once.
  void host_memory(std::string& out) const {
    const Host& host = p_.arch.hosts[p_.arch.pes[pe_].host];
    if (host.cpus.size() < 2 || host.cpu != pe_) return;
    std::int64_t before = 0, after = 0;
    std::string names;
    for (PeId c : host.cpus) {
      before = add_bytes(before, s_.memory[c].before);
      after = add_bytes(after, s_.memory[c].after);
      names += " " + p_.arch.pes[c].name;
    }
    out += fmt::format("  host {} memory {} -> {} bytes, cpus{}\n", host.name,
                       byte_count_text(before), byte_count_text(after), names);
  }

  void buffers(std::string& out) const {
    for (BufferId b : sections_.buffers[pe_]) {
      const IgBuffer& x = s_.buffers[b];
      out += fmt::format("  buffer {} bytes {} depth {} colour {}\n", x.name, bytes_of(x), x.depth,
                         s_.colours[x.colour].index);
    }
  }

  void colours(std::string& out) const {
    for (ColourId id : sections_.colours[pe_]) {
      const IgColour& c = s_.colours[id];
      std::string members;
      for (BufferId b : c.members) members += " " + name(b);
      out += fmt::format("  colour {} slots {} bytes {}:{}\n", c.index, c.slots, c.bytes, members);
    }
  }

  void transfers(std::string& out) const {
    for (TransferId t : sections_.transfers[pe_]) {
      const IgTransfer& x = s_.transfers[t];
      const Link& l = p_.arch.links[x.link];
      out += fmt::format("  transfer {} -> {} {} {} bytes {} step {} from cycle {}\n", name(x.from),
                         name(x.to), to_string(l.kind), format_bandwidth(l.bandwidth), x.bytes,
                         x.step, x.first_cycle);
    }
  }

  void copies(std::string& out) const {
    for (CopyId c : sections_.copies[pe_]) {
      const IgCopy& x = s_.copies[c];
      out += fmt::format("  delay {} <- {} copied, cycles {} after {} from cycle {}\n", name(x.to),
                         name(x.from), s_.buffers[x.to].depth, p_.dfg.nodes[x.after].name,
                         x.first_cycle);
    }
    for (const IgAlias& a : sections_.aliases[pe_])
      out += fmt::format("  delay {} <- {} aliased, cycles {}\n", a.name, name(a.from), a.cycles);
  }

  void firings(std::string& out) const {
    for (NodeId n : s_.order[pe_]) {
      const IgFiring& f = s_.firings[n];
      out +=
          fmt::format("  fire {} {} latency {}", f.schedule_index, p_.dfg.nodes[n].name, f.latency);
      const Actor& actor = p_.dfg.actor_of(n);
      if (p_.dfg.nodes[n].repetitions != 1) {
        const Impl* impl = actor.impl_for(p_.arch.pes[pe_].kind);
        out += fmt::format(" repetitions {} {}", p_.dfg.nodes[n].repetitions,
                           impl && impl->block ? "in one call" : "a call each");
      }
      for (std::uint32_t port = 0; port < f.ports.size(); ++port)
        if (f.ports[port].initial)
          out += fmt::format(" initial {} {} = {}", actor.ports[port].name, f.ports[port].initial,
                             f.ports[port].initial_value);
      for (const Port& port : actor.ports)
        if (port.history)
          out += fmt::format(" window {} peeks {} history {} = {}", port.name,
                             port.history + port.rate, port.history, port.history_value);
      for (const Edge& e : p_.dfg.edges)
        if (e.dst == n && e.delay_tokens > 0)
          out += fmt::format(" window {} delay {} token{} = {}", actor.ports[e.dst_port].name,
                             e.delay_tokens, e.delay_tokens == 1 ? "" : "s", e.initial);
      if (p_.dfg.nodes[n].warm_up > 0) out += " " + warm_up_text(p_.dfg, n);
      out += '\n';
    }
  }

  const Program& p_;
  const IgStrategy& s_;
  const Sections& sections_;
  PeId pe_;
};

}  // namespace

std::string render_schedule(const Program& p, const Ig& ig) {
  std::string out = fmt::format("# schedule of app {} on {}; bytes at the params' defaults\n",
                                p.app_name, p.arch.name);
  if (p.batch != 1)
    out += fmt::format(
        "batch {} iterations a cycle: repetitions, blocks, latencies and initial "
        "tokens count cycles\n",
        p.batch);
  if (p.copies != 1)
    out += fmt::format("replicas: {} copies of each node, each running {} iteration{} a cycle\n",
                       p.copies, p.copy_batch(), p.copy_batch() == 1 ? "" : "s");
  for (std::uint32_t i = 0; i < ig.schedule.size(); ++i) {
    NodeId n = ig.schedule[i];
    out += fmt::format("schedule {} {} : {} @ {}\n", i, p.dfg.nodes[n].name, p.dfg.actor_of(n).name,
                       p.arch.pes[p.mapping.pe_of[n]].name);
  }
  for (Strategy s : kStrategies) {
    const IgStrategy& strategy = ig[s];
    out += fmt::format("\nstrategy {} transfer steps {}\n", to_string(s), strategy.transfer_steps);
    Sections sections(p, strategy);
    for (PeId pe = 0; pe < p.arch.pes.size(); ++pe)
      out += PeSection(p, strategy, sections, pe).render();
  }
  return out;
}

namespace {

std::string dot_id(Strategy s, std::string_view name) {
  return fmt::format("\"{}:{}\"", to_string(s), name);
}

void dot_strategy(std::string& out, const Program& p, const IgStrategy& s) {
  const std::string_view tag = to_string(s.strategy);
  out += fmt::format("  subgraph \"cluster_{}\" {{\n    label=\"{}\";\n", tag, tag);
  for (PeId pe = 0; pe < p.arch.pes.size(); ++pe) {
    out += fmt::format("    subgraph \"cluster_{}_{}\" {{\n      label=\"{}\";\n", tag,
                       p.arch.pes[pe].name, p.arch.pes[pe].name);
    for (NodeId n : s.order[pe])
      out += fmt::format("      {} [shape=box, label=\"{} : {}\\n({}, {})\"];\n",
                         dot_id(s.strategy, p.dfg.nodes[n].name), p.dfg.nodes[n].name,
                         p.dfg.actor_of(n).name, s.firings[n].schedule_index, s.firings[n].latency);
    for (const IgBuffer& b : s.buffers)
      if (b.pe == pe)
        out += fmt::format("      {} [shape=ellipse, label=\"{}\\n{} x {} B, colour {}\"];\n",
                           dot_id(s.strategy, b.name), b.name, b.depth, b.bytes,
                           s.colours[b.colour].index);
    out += "    }\n";
  }
  out += "  }\n";
  for (const IgFiring& f : s.firings)
    for (std::uint32_t port = 0; port < f.ports.size(); ++port) {
      const std::string node = dot_id(s.strategy, p.dfg.nodes[f.node].name);
      const std::string buffer = dot_id(s.strategy, s.buffers[f.ports[port].buffer].name);
      bool output = p.dfg.actor_of(f.node).ports[port].dir == PortDir::out;
      out += fmt::format("  {} -> {} [label=\"{}\"];\n", output ? node : buffer,
                         output ? buffer : node, p.dfg.actor_of(f.node).ports[port].name);
    }
  for (const IgTransfer& t : s.transfers)
    out += fmt::format(
        "  {} -> {} [style=bold, label=\"{}\"];\n", dot_id(s.strategy, s.buffers[t.from].name),
        dot_id(s.strategy, s.buffers[t.to].name), to_string(p.arch.links[t.link].kind));
  for (const IgCopy& c : s.copies)
    out += fmt::format("  {} -> {} [style=dashed, label=\"delay\"];\n",
                       dot_id(s.strategy, s.buffers[c.from].name),
                       dot_id(s.strategy, s.buffers[c.to].name));
}

}  // namespace

std::string render_dot(const Program& p, const Ig& ig) {
  std::string out =
      fmt::format("digraph \"{}\" {{\n  node [fontname=\"Helvetica\", fontsize=10];\n", p.app_name);
  for (Strategy s : kStrategies) dot_strategy(out, p, ig[s]);
  out += "}\n";
  return out;
}

}  // namespace dfgc::ir
