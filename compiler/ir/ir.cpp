#include "ir/ir.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/assert.hpp"

namespace dfgc::ir {

namespace {
struct ElemInfo {
  ElemType type;
  std::string_view spec, cxx, canonical;
  std::size_t size;
};
constexpr ElemInfo kElems[] = {
    {ElemType::f32, "float", "float", "float", 4},
    {ElemType::f64, "double", "double", "double", 8},
    {ElemType::i8, "int8", "std::int8_t", "signed char", 1},
    {ElemType::i16, "int16", "std::int16_t", "short", 2},
    {ElemType::i32, "int32", "std::int32_t", "int", 4},
    {ElemType::i64, "int64", "std::int64_t", "long", 8},
    {ElemType::u8, "uint8", "std::uint8_t", "unsigned char", 1},
    {ElemType::u16, "uint16", "std::uint16_t", "unsigned short", 2},
    {ElemType::u32, "uint32", "std::uint32_t", "unsigned int", 4},
    {ElemType::u64, "uint64", "std::uint64_t", "unsigned long", 8},
    {ElemType::c32, "cfloat", "std::complex<float>", "std::complex<float>", 8},
    {ElemType::c64, "cdouble", "std::complex<double>", "std::complex<double>", 16},
};
const ElemInfo& info(ElemType t) {
  for (const ElemInfo& e : kElems)
    if (e.type == t) return e;
  DFGC_UNREACHABLE("element type ", static_cast<int>(t));
}
}  // namespace

std::string_view spec_name(ElemType t) { return info(t).spec; }
std::string_view cxx_name(ElemType t) { return info(t).cxx; }
std::string_view canonical_cxx_name(ElemType t) { return info(t).canonical; }
std::size_t elem_size(ElemType t) { return info(t).size; }
std::size_t elem_align(ElemType t) { return is_complex(t) ? info(t).size / 2 : info(t).size; }

void lay_out(StructType& s) {
  std::size_t at = 0, align = 1;
  for (StructField& f : s.fields) {
    const std::size_t a = elem_align(f.elem);
    at = (at + a - 1) / a * a;
    f.offset = at;
    at += elem_size(f.elem) * f.count;
    align = std::max(align, a);
  }
  s.align = align;
  s.size = (at + align - 1) / align * align;
}

std::optional<ElemType> parse_elem_type(std::string_view spelling) {
  for (const ElemInfo& e : kElems)
    if (e.spec == spelling) return e.type;
  return std::nullopt;
}

double to_double(const ParamScalar& v) {
  if (const auto* f = std::get_if<float>(&v)) {
    // The float's shortest decimal text, read as a double: what a JSON reader makes of it.
    char text[64];
    auto written = std::to_chars(text, text + sizeof text, *f);
    double d = 0;
    std::from_chars(text, written.ptr, d);
    return d;
  }
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
  return std::get<double>(v);
}

std::string_view to_string(PeKind k) { return k == PeKind::cpu ? "cpu" : "gpu"; }

std::string_view to_string(LinkKind k) {
  switch (k) {
    case LinkKind::pcie: return "pcie";
    case LinkKind::nvlink: return "nvlink";
    case LinkKind::net: return "net";
    case LinkKind::gpudirect: return "gpudirect";
  }
  DFGC_UNREACHABLE("link kind");
}

const Impl* Actor::impl_for(PeKind kind) const {
  for (const Impl& i : impls)
    if (i.kind == kind) return &i;
  return nullptr;
}

std::optional<std::uint32_t> Actor::port_index(std::string_view port) const {
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (ports[i].name == port) return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

std::vector<std::uint32_t> Actor::group_ports(std::string_view group) const {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (!ports[i].group.empty() && ports[i].group == group)
      out.push_back(static_cast<std::uint32_t>(i));
  return out;
}

std::vector<EdgeId> Dfg::in_edges(NodeId n) const {
  std::vector<EdgeId> result;
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (edges[e].dst == n) result.push_back(static_cast<EdgeId>(e));
  return result;
}

/// Tarjan's algorithm, iterative (no recursion as deep as a long pipeline).
std::vector<std::uint32_t> Dfg::loop_parts() const {
  const std::size_t n = nodes.size();
  std::vector<std::vector<NodeId>> out(n);
  for (const Edge& e : edges) out[e.src].push_back(e.dst);
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> index(n, kNone), low(n, 0), part(n, kNone);
  std::vector<bool> on_stack(n, false);
  std::vector<NodeId> stack;
  std::uint32_t next = 0, count = 0;
  for (NodeId root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    std::vector<std::pair<NodeId, std::size_t>> calls{{root, 0}};
    index[root] = low[root] = next++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!calls.empty()) {
      auto& [v, i] = calls.back();
      if (i < out[v].size()) {
        const NodeId w = out[v][i++];
        if (index[w] == kNone) {
          index[w] = low[w] = next++;
          stack.push_back(w);
          on_stack[w] = true;
          calls.emplace_back(w, 0);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        NodeId w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          part[w] = count;
        } while (w != v);
        ++count;
      }
      const NodeId done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
    }
  }
  return part;
}

std::string warm_up_text(const Dfg& dfg, NodeId n) {
  const Node& node = dfg.nodes[n];
  std::vector<std::string> inputs;
  const std::vector<Node::WarmUpInput>& all = node.warm_up_inputs;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Node::WarmUpInput& in = all[i];
    const Port& port = dfg.actor_of(n).ports[in.port];
    // A port group's ports alike: "x0 .. x9 76 before the stream".
    std::size_t last = i;
    while (!port.group.empty() && last + 1 < all.size() && all[last + 1].before == in.before &&
           dfg.actor_of(n).ports[all[last + 1].port].group == port.group)
      ++last;
    std::string name = port.name;
    if (last > i) name += " .. " + dfg.actor_of(n).ports[all[last].port].name;
    i = last;
    std::string text = fmt::format("{} {} before the stream", name, in.before);
    // Past the warm-up, firing i's window starts at the stream's token i R - before.
    if (const std::uint64_t offset = (port.rate - in.before % port.rate) % port.rate; offset > 0)
      text += fmt::format(", windows from its token {}", offset);
    inputs.push_back(std::move(text));
  }
  return fmt::format("warm-up {} firing{} ({})", node.warm_up, node.warm_up == 1 ? "" : "s",
                     fmt::join(inputs, "; "));
}

std::uint32_t Dfg::window_history(NodeId n, std::uint32_t port) const {
  std::uint32_t history = actor_of(n).ports[port].history;
  for (const Edge& e : edges)
    if (e.dst == n && e.dst_port == port) history += e.delay_tokens;
  return history;
}

std::vector<EdgeId> Dfg::out_edges(NodeId n) const {
  std::vector<EdgeId> result;
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (edges[e].src == n) result.push_back(static_cast<EdgeId>(e));
  return result;
}

std::optional<PeId> ArchGraph::find_pe(std::string_view qualified_name) const {
  for (std::size_t p = 0; p < pes.size(); ++p)
    if (pes[p].name == qualified_name) return static_cast<PeId>(p);
  return std::nullopt;
}

std::string format_bandwidth(double bytes_per_s) {
  const char* units[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
  int u = 0;
  while (u < 4 && bytes_per_s >= 1000.0) {
    bytes_per_s /= 1000.0;
    ++u;
  }
  return fmt::format("{:g} {}", bytes_per_s, units[u]);
}

namespace {
std::string format_latency(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds < 1e-6) return fmt::format("{:g} ns", seconds * 1e9);
  if (seconds < 1e-3) return fmt::format("{:g} us", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:g} ms", seconds * 1e3);
  return fmt::format("{:g} s", seconds);
}
}  // namespace

std::string dump(const Program& p) {
  std::string out;
  out += fmt::format("app {} on {}\n", p.app_name, p.arch.name);
  if (p.batch != 1)
    out +=
        fmt::format("batch {}: a cycle runs {} iterations; repetitions and delays count cycles\n",
                    p.batch, p.batch);
  if (p.copies != 1)
    out += fmt::format(
        "replicas unfold the graph into {} copies of each node, copy j running iterations "
        "j*{}..j*{}+{} of each cycle; repetitions and delays are a copy's\n",
        p.copies, p.copy_batch(), p.copy_batch(), p.copy_batch() - 1);
  for (const Param& param : p.params) {
    out += fmt::format("param {}{} = {}", param.runtime ? "runtime " : "", param.name, param.value);
    if (param.tune) out += fmt::format(" in [{}, {}]", param.tune->min, param.tune->max);
    if (param.bounds) out += fmt::format(" in [{}, {}]", param.bounds->min, param.bounds->max);
    out += '\n';
  }
  for (const StructType& s : p.structs) {
    out += fmt::format("struct {}{}  // {} bytes, aligned to {}\n", s.name,
                       s.cxx_name == s.name ? "" : fmt::format(" = \"{}\"", s.cxx_name), s.size,
                       s.align);
    for (const StructField& f : s.fields)
      out += fmt::format("  {} {}{}  // offset {}\n", spec_name(f.elem), f.name,
                         f.array ? fmt::format("[{}]", f.count) : "", f.offset);
  }
  for (const TokenType& t : p.types)
    out += fmt::format("type {} = {}[{}{}]  // {}{} elements{}, {} bytes\n", t.name, t.elem_spec(),
                       t.bounded ? "<= " : "", t.count.text, t.bounded ? "at most " : "",
                       t.count.value, t.count.runtime ? " by default" : "", t.bytes());
  for (const Actor& a : p.dfg.actors) {
    out += fmt::format("actor {}{}\n", a.name, a.dynamic ? " dynamic" : "");
    for (const Port& port : a.ports)
      out += fmt::format(
          "  {} {} {}{}{}{}{}\n", port.dir == PortDir::in ? "in" : "out",
          port.fifo_elem ? spec_name(*port.fifo_elem) : p.types[port.type].name, port.name,
          port.rate != 1 ? fmt::format(" rate {}", port.rate) : std::string(),
          port.history ? fmt::format(" peek {} = {}", port.rate + port.history, port.history_value)
                       : std::string(),
          port.fifo_capacity ? fmt::format(" fifo {}", *port.fifo_capacity) : std::string(),
          port.mappable ? " mappable" : "");
    for (const ActorParam& ap : a.params)
      out += fmt::format("  param {} {}{}\n", ap.type, ap.name,
                         ap.default_literal ? " = " + *ap.default_literal : "");
    for (const Impl& i : a.impls) {
      out += fmt::format("  {} \"{}\" {}{}", to_string(i.kind), i.header, i.class_name,
                         i.block ? " block" : "");
      std::vector<std::string> counts;
      for (std::size_t port = 0; port < i.parallel.size(); ++port)
        counts.push_back(fmt::format("{} {}", a.ports[port].name, i.parallel[port]));
      if (!counts.empty()) out += fmt::format(" parallel ({})", fmt::join(counts, ", "));
      out += "\n";
    }
    for (const std::string& library : a.libraries) out += fmt::format("  uses {}\n", library);
  }
  out += fmt::format("arch {}\n", p.arch.name);
  for (const Host& h : p.arch.hosts) out += fmt::format("  host {}\n", h.name);
  for (const Pe& pe : p.arch.pes) {
    out += pe.kind == PeKind::cpu ? fmt::format("  pe {} cpu", pe.name)
                                  : fmt::format("  pe {} gpu device {}", pe.name, pe.device);
    if (pe.memory) out += fmt::format(" memory {} bytes", *pe.memory);
    out += '\n';
  }
  for (const Link& l : p.arch.links)
    out += fmt::format("  link {} {} {} {} ({}, {})\n", p.arch.pes[l.a].name,
                       l.bidirectional ? "<->" : "->", p.arch.pes[l.b].name, to_string(l.kind),
                       format_bandwidth(l.bandwidth), format_latency(l.latency));
  for (std::size_t n = 0; n < p.dfg.nodes.size(); ++n) {
    const Node& node = p.dfg.nodes[n];
    out += fmt::format("node {} : {} @ {}", node.name, p.dfg.actors[node.actor].name,
                       p.arch.pes[p.mapping.pe_of[n]].name);
    if (!node.candidates.empty()) {
      out += " (free: ";
      for (std::size_t i = 0; i < node.candidates.size(); ++i)
        out += (i ? " " : "") + p.arch.pes[node.candidates[i]].name;
      out += ")";
    }
    for (std::size_t i = 0; i < node.alternatives.size(); ++i)
      out += (i ? ", " : " migrates ") + p.arch.pes[node.alternatives[i].pe].name;
    for (const ParamValue& v : node.params) out += fmt::format(" {}={}", v.name, v.literal);
    if (!node.origin.empty())
      out += fmt::format(" copy {} of {}{}", node.copy, node.origin,
                         node.replicated ? " (replicated)" : "");
    if (node.repetitions != 1)
      out += fmt::format(" fires {} times per {}", node.repetitions,
                         p.batch == 1 ? "iteration" : "cycle");
    if (node.warm_up > 0) out += " " + warm_up_text(p.dfg, n);
    out += '\n';
  }
  for (const Edge& e : p.dfg.edges) {
    const Actor& src = p.dfg.actor_of(e.src);
    const Actor& dst = p.dfg.actor_of(e.dst);
    out +=
        fmt::format("edge {}.{} -> {}.{} : {}", p.dfg.nodes[e.src].name, src.ports[e.src_port].name,
                    p.dfg.nodes[e.dst].name, dst.ports[e.dst_port].name, p.types[e.type].name);
    if (e.written_tokens)
      out += fmt::format(" delay {} token{} ({} cycle{} + {} token{}) = {}", e.written_tokens,
                         e.written_tokens == 1 ? "" : "s", e.delay, e.delay == 1 ? "" : "s",
                         e.delay_tokens, e.delay_tokens == 1 ? "" : "s", e.initial_text());
    else if (e.delay)
      out += fmt::format(" delay {} = {}", e.delay, e.initial_text());
    out += '\n';
  }
  for (const Island& island : p.islands) out += dump(p, island);
  return out;
}

std::string dump(const Program& p, const Island& island) {
  std::string out =
      fmt::format("island {} @ {} (node {}, actor {})\n", island.name, p.arch.pes[island.pe].name,
                  p.dfg.nodes[island.node].name, p.dfg.actors[island.actor].name);
  for (const IslandMember& m : island.members) {
    out += fmt::format("  member {} : {}", m.name, p.dfg.actors[m.actor].name);
    for (const ParamValue& v : m.params) out += fmt::format(" {}={}", v.name, v.literal);
    out += '\n';
  }
  const Actor& actor = p.dfg.actors[island.actor];
  for (const IslandFifo& f : island.fifos) {
    out += fmt::format("  fifo {} : {}, {} elements ({})", f.name, spec_name(f.elem), f.capacity,
                       f.stated ? "stated" : "computed");
    if (f.initial)
      out += fmt::format(", {} initial element{} = {}", f.initial, f.initial == 1 ? "" : "s",
                         f.initial_value);
    if (!f.src_member) out += fmt::format(", unpacked from input {}", actor.ports[f.src_port].name);
    if (!f.dst_member) out += fmt::format(", packed into output {}", actor.ports[f.dst_port].name);
    out += '\n';
  }
  return out;
}

}  // namespace dfgc::ir
