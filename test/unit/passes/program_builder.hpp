// Builds ir::Program values by hand, tersely, for the passes' tests and benchmark:
//   ProgramBuilder b("piic");
//   b.type("Matrix", ir::ElemType::f32, 4 << 20);
//   b.actor("Inc", "in Matrix a; out Matrix b");
//   b.host("A", 1);                       // A.cpu, A.g0, pcie links A.cpu <-> A.g<i>
//   b.host("B", 1, 25e9, 4);              // B.c0 .. B.c3 (one memory), B.g0, B.c0 <-> B.g0
//   b.link("A.cpu", "B.cpu", ir::LinkKind::net, 2.6e9);
//   b.node("i1", "Inc", "A.g0");
//   b.edge("p.m", "i1.a");
//   ir::Program p = b.build();
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.hpp"

namespace dfgc::test {

class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::string app = "test") {
    p_.app_name = std::move(app);
    p_.arch.name = "arch";
  }

  ProgramBuilder& type(std::string name, ir::ElemType elem, std::int64_t count,
                       std::string text = "", bool runtime = false) {
    ir::TokenType t;
    t.name = std::move(name);
    t.elem = elem;
    t.count.value = count;
    t.count.text = text.empty() ? std::to_string(count) : std::move(text);
    t.count.runtime = runtime;
    t.count.tree.value = count;  // a literal: set the tree of an expression where it matters
    p_.types.push_back(std::move(t));
    return *this;
  }

  /// Ports as "in Matrix a; out Matrix b mappable".
  ProgramBuilder& actor(std::string name, std::string_view ports) {
    ir::Actor a;
    a.name = std::move(name);
    std::istringstream in{std::string(ports)};
    std::string decl;
    while (std::getline(in, decl, ';')) {
      std::istringstream words(decl);
      std::string dir, type, port;
      if (!(words >> dir >> type >> port)) continue;
      ir::Port p;
      p.name = port;
      p.dir = dir == "in" ? ir::PortDir::in : ir::PortDir::out;
      p.type = type_id(type);
      std::string attribute;
      p.mappable = words >> attribute && attribute == "mappable";
      a.ports.push_back(std::move(p));
    }
    for (ir::PeKind kind : {ir::PeKind::cpu, ir::PeKind::gpu}) {
      ir::Impl impl;
      impl.kind = kind;
      impl.header = impl.header_path = a.name + (kind == ir::PeKind::cpu ? ".hpp" : ".cuh");
      impl.class_name = a.name;
      a.impls.push_back(std::move(impl));
    }
    p_.dfg.actors.push_back(std::move(a));
    return *this;
  }

  /// A host with a CPU and `gpus` GPUs g0, g1, ..., each linked to the CPU by PCIe.
  /// `cores` > 1: cpus c0 .. c<cores - 1> sharing the host's memory, instead of one named cpu.
  ProgramBuilder& host(const std::string& name, int gpus, double pcie = 25e9, int cores = 1) {
    ir::Host h;
    h.name = name;
    if (cores == 1) h.cpus.push_back(add_pe(name, "cpu", ir::PeKind::cpu, -1));
    for (int c = 0; cores > 1 && c < cores; ++c)
      h.cpus.push_back(add_pe(name, "c" + std::to_string(c), ir::PeKind::cpu, -1));
    h.cpu = h.cpus.front();
    for (int g = 0; g < gpus; ++g)
      h.gpus.push_back(add_pe(name, "g" + std::to_string(g), ir::PeKind::gpu, g));
    p_.arch.hosts.push_back(h);
    for (ir::PeId g : h.gpus) add_link(h.cpu, g, ir::LinkKind::pcie, pcie, true);
    return *this;
  }

  ProgramBuilder& link(std::string_view a, std::string_view b, ir::LinkKind kind, double bandwidth,
                       bool bidirectional = true) {
    add_link(pe(a), pe(b), kind, bandwidth, bidirectional);
    return *this;
  }

  ProgramBuilder& node(std::string name, std::string_view actor, std::string_view on) {
    ir::Node n;
    n.name = std::move(name);
    n.actor = actor_id(actor);
    p_.dfg.nodes.push_back(std::move(n));
    p_.mapping.pe_of.push_back(pe(on));
    return *this;
  }

  /// "p.m" -> "i1.a", with `delay` initial tokens.
  ProgramBuilder& edge(std::string_view from, std::string_view to, std::uint32_t delay = 0) {
    auto [src, src_port] = endpoint(from);
    auto [dst, dst_port] = endpoint(to);
    ir::Edge e;
    e.src = src;
    e.src_port = src_port;
    e.dst = dst;
    e.dst_port = dst_port;
    e.type = p_.dfg.actor_of(src).ports[src_port].type;
    e.delay = delay;
    p_.dfg.edges.push_back(std::move(e));
    return *this;
  }

  /// Moves an already declared node to another PE.
  ProgramBuilder& map(std::string_view node, std::string_view on) {
    p_.mapping.pe_of[node_id(node)] = pe(on);
    return *this;
  }

  const ir::Program& program() const { return p_; }
  ir::Program build() const { return p_; }

 private:
  ir::PeId add_pe(const std::string& host, const std::string& local, ir::PeKind kind, int device) {
    ir::Pe pe;
    pe.name = host + "." + local;
    pe.local_name = local;
    pe.host = static_cast<ir::HostId>(p_.arch.hosts.size());
    pe.kind = kind;
    pe.device = device;
    p_.arch.pes.push_back(std::move(pe));
    return static_cast<ir::PeId>(p_.arch.pes.size() - 1);
  }

  void add_link(ir::PeId a, ir::PeId b, ir::LinkKind kind, double bandwidth, bool bidirectional) {
    ir::Link l;
    l.a = a;
    l.b = b;
    l.kind = kind;
    l.bandwidth = bandwidth;
    l.bidirectional = bidirectional;
    p_.arch.links.push_back(l);
  }

  ir::PeId pe(std::string_view name) const {
    if (auto id = p_.arch.find_pe(name)) return *id;
    throw std::invalid_argument("unknown PE " + std::string(name));
  }

  template <typename T>
  static std::uint32_t find(const std::vector<T>& items, std::string_view name, const char* what) {
    for (std::size_t i = 0; i < items.size(); ++i)
      if (items[i].name == name) return static_cast<std::uint32_t>(i);
    throw std::invalid_argument(std::string("unknown ") + what + " " + std::string(name));
  }
  ir::TypeId type_id(std::string_view name) const { return find(p_.types, name, "type"); }
  ir::ActorId actor_id(std::string_view name) const { return find(p_.dfg.actors, name, "actor"); }
  ir::NodeId node_id(std::string_view name) const { return find(p_.dfg.nodes, name, "node"); }

  std::pair<ir::NodeId, std::uint32_t> endpoint(std::string_view spec) const {
    auto dot = spec.find('.');
    ir::NodeId n = node_id(spec.substr(0, dot));
    auto port = p_.dfg.actor_of(n).port_index(spec.substr(dot + 1));
    if (!port) throw std::invalid_argument("unknown port " + std::string(spec));
    return {n, *port};
  }

  ir::Program p_;
};

}  // namespace dfgc::test
