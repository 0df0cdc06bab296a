// What a checkpoint of a host holds (dfg/checkpoint.hpp): the state of its nodes with
// save/restore, the tokens of its inputs fed by edges with a delay, the program's digests that a
// restart checks, the nodes whose state a restart cannot give back, or why the program takes none
// (several hosts, islands, replicas, or no state at all).

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "plan/detail.hpp"

namespace dfgc::plan_detail {

namespace {

/// FNV-1a over fields, each ended by a 0 byte so that ("ab", "c") and ("a", "bc") differ.
class Digest {
 public:
  Digest& operator<<(std::string_view s) {
    for (const char c : s) mix(static_cast<unsigned char>(c));
    mix(0);
    return *this;
  }
  Digest& operator<<(std::int64_t v) { return *this << std::to_string(v); }
  std::uint64_t value() const { return h_; }

 private:
  void mix(unsigned char c) { h_ = (h_ ^ c) * 1099511628211ULL; }
  std::uint64_t h_ = 14695981039346656037ULL;
};

/// The graph: what a checkpoint's state and tokens mean.
std::uint64_t spec_digest(const ir::Program& p) {
  Digest d;
  d << p.app_name << p.batch;
  for (const ir::Param& param : p.params)
    d << "param" << param.name << (param.runtime ? "runtime" : std::to_string(param.value));
  // A struct's fields and layout: what the bytes of its tokens mean (none for other specs).
  for (const ir::StructType& s : p.structs) {
    d << "struct" << s.name << s.cxx_name << s.size;
    for (const ir::StructField& f : s.fields) d << f.name << ir::spec_name(f.elem) << f.count;
  }
  for (const ir::TokenType& t : p.types)
    d << "type" << t.name << t.elem_spec() << t.count.text << (t.bounded ? 1 : 0);
  for (const ir::Actor& a : p.dfg.actors) {
    d << "actor" << a.name;
    for (const ir::Port& port : a.ports)
      d << port.name << (port.dir == ir::PortDir::in ? "in" : "out") << p.types[port.type].name;
  }
  for (const ir::Node& n : p.dfg.nodes) {
    d << "node" << n.name << p.dfg.actors[n.actor].name << n.repetitions;
    for (const ir::ParamValue& v : n.params) d << v.name << v.literal;
  }
  for (const ir::Edge& e : p.dfg.edges)
    d << "edge" << p.dfg.nodes[e.src].name << e.src_port << p.dfg.nodes[e.dst].name << e.dst_port
      << e.delay << e.initial_text();
  return d.value();
}

/// The placement: which instance runs what, and the alternatives whose instances there are.
std::uint64_t mapping_digest(const ir::Program& p) {
  Digest d;
  d << p.arch.name;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n) {
    d << p.dfg.nodes[n].name << p.arch.pes[p.mapping.pe_of[n]].name;
    for (const ir::Alternative& a : p.dfg.nodes[n].alternatives) d << p.arch.pes[a.pe].name;
  }
  return d.value();
}

/// Why the program takes no checkpoints; empty when it can.
std::string refusal(const ir::Program& p, const HostPlan& h) {
  if (h.multi_host())
    return fmt::format("it runs on {} hosts, and checkpoints are taken on one host only",
                       p.arch.hosts.size());
  if (!h.islands.empty())
    return fmt::format(
        "island '{}' keeps elements in its rings from one cycle to the next, "
        "which a checkpoint does not hold",
        h.islands.front().name);
  if (p.copies > 1)
    return fmt::format(
        "its graph is unfolded into {} copies for its replicas, and checkpoints "
        "are taken of graphs that are not",
        p.copies);
  return {};
}

}  // namespace

void plan_checkpoints(const ir::Program& program, HostPlan& h) {
  PlanCheckpoint& c = h.checkpoint;
  c.spec = spec_digest(program);
  c.mapping = mapping_digest(program);
  c.refused = refusal(program, h);
  if (!c.refused.empty()) return;  // nothing to keep: the nodes fire without the hooks
  std::set<std::string> unsaved;
  const StrategyPlan& sp = h.strategies[ir::Strategy::overlap];
  for (PlanNode& n : h.nodes) {
    const std::string& name = n.spec_name();
    if (n.signature && n.signature->has_state) {
      auto it = std::find(c.nodes.begin(), c.nodes.end(), name);
      if (it == c.nodes.end()) it = c.nodes.insert(it, name);
      n.checkpoint = static_cast<int>(it - c.nodes.begin());
    } else if (n.signature && !n.signature->state_member.empty()) {
      const std::string line = fmt::format("node '{}' (class {}) keeps data member '{}'", name,
                                           n.class_name, n.signature->state_member);
      if (unsaved.insert(line).second) c.unsaved.push_back(line);
    }
    // A window's history is state of the node's input: a part of its own.
    for (PlanWindow& w : n.windows) {
      const std::string part = name + "." + w.port_name + " window";
      auto it = std::find(c.nodes.begin(), c.nodes.end(), part);
      if (it == c.nodes.end()) it = c.nodes.insert(it, part);
      w.checkpoint = static_cast<int>(it - c.nodes.begin());
    }
    n.checkpoint_inputs.assign(n.port_types.size(), -1);
    for (const Entry& e : sp.entries) {
      if (e.kind() != Entry::Kind::firing || e.id != n.id || e.runner != n.pe) continue;
      for (std::uint32_t port = 0; port < e.ports().size(); ++port) {
        const std::uint32_t delay = e.ports()[port].initial;
        if (delay == 0) continue;
        const std::string input = n.name + "." + n.port_names[port];
        auto it = std::find_if(c.inputs.begin(), c.inputs.end(),
                               [&](const PlanCheckpoint::Input& in) { return in.name == input; });
        if (it == c.inputs.end())
          it = c.inputs.insert(it, PlanCheckpoint::Input{input, delay, n.port_types[port]});
        n.checkpoint_inputs[port] = static_cast<int>(it - c.inputs.begin());
      }
    }
  }
  // Without a part to wait for, nothing would tell the checkpoint writer how far the run has come.
  if (c.nodes.empty() && c.inputs.empty()) {
    c.refused =
        "it keeps no state a restart needs: no node has save/restore and no edge has a delay";
    c.unsaved.clear();  // no restart to warn of
  }
}

}  // namespace dfgc::plan_detail
