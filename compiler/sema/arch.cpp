/// \file
/// Checks architecture declarations and builds their ir::ArchGraph: processing elements host by
/// host (the CPU first, then the GPUs in declaration order), then the links.
#include "sema/arch.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

/// The CUDA device ordinal of a gpu: a compile-time integer in [0, INT_MAX].
std::optional<int> check_ordinal(const ast::PeDecl& gpu, Evaluator& eval,
                                 const SourceManager& sources, DiagnosticEngine& diags) {
  auto v = eval.eval(gpu.ordinal.get());
  if (!v || !eval.require_fixed(*v, fmt::format("the ordinal of gpu '{}'", gpu.name.name)))
    return std::nullopt;
  if (v->integer < 0 || v->integer > INT_MAX) {
    error_at(diags, span_of(*gpu.ordinal, sources),
             fmt::format("gpu ordinal must be between 0 and {}, got {}", INT_MAX, v->integer));
    return std::nullopt;
  }
  return static_cast<int>(v->integer);
}

class ArchBuilder {
 public:
  ArchBuilder(ArchInfo& arch, Evaluator& eval, const SourceManager& sources,
              DiagnosticEngine& diags)
      : arch_(arch), g_(arch.graph), eval_(eval), sources_(sources), diags_(diags) {}

  void host(const ast::HostDecl& h);
  void link(const ast::LinkDecl& l);
  /// Once every link is in: each gpudirect link's fallback path through host memory exists.
  void check_gpudirect();

 private:
  /// Adds the host's cpus (`cpu;`, `cpu c0;`, `cpu c 4;`); reports none, a name given twice, a bad
  /// count.
  void host_cpu(const ast::HostDecl& h, ir::Host& host, NameTable& pe_names);
  void host_gpus(const ast::HostDecl& h, ir::Host& host, NameTable& pe_names);
  std::optional<ir::LinkKind> link_kind(const ast::LinkDecl& l, ir::PeId a, ir::PeId b);
  void check_duplicate(const ast::LinkDecl& l, ir::PeId a, ir::PeId b);
  /// The cpus of one host share its memory: no link joins two of them, and the host's links
  /// attach to its first cpu.
  bool cpu_ends(const ast::LinkDecl& l, ir::PeId a, ir::PeId b);
  /// Whether a link joins `from` to `to` directly (`net`: or a path of net links).
  bool joined(ir::PeId from, ir::PeId to, bool net) const;
  ir::Pe& add_pe(ir::Host& host, std::string local_name, ir::PeKind kind, SourceLoc loc);

  ArchInfo& arch_;
  ir::ArchGraph& g_;
  Evaluator& eval_;
  const SourceManager& sources_;
  DiagnosticEngine& diags_;
  NameTable hosts_{"host"};
  std::map<std::pair<ir::PeId, ir::PeId>, std::vector<const ast::LinkDecl*>> links_by_pair_;
  std::vector<std::pair<ir::LinkId, const ast::LinkDecl*>> gpudirect_;  ///< the gpudirect links
};

ir::Pe& ArchBuilder::add_pe(ir::Host& host, std::string local_name, ir::PeKind kind,
                            SourceLoc loc) {
  ir::Pe pe;
  pe.name = host.name + "." + local_name;
  pe.local_name = std::move(local_name);
  pe.host = static_cast<ir::HostId>(g_.hosts.size());
  pe.kind = kind;
  pe.loc = loc;
  g_.pes.push_back(std::move(pe));
  return g_.pes.back();
}

void ArchBuilder::host(const ast::HostDecl& h) {
  bool declared = hosts_.declare(h.name, g_.hosts.size(), diags_);
  if (declared) check_cxx_name(h.name, "host", diags_);
  ir::Host host;
  host.name = h.name.name;
  host.loc = h.name.loc;
  NameTable pe_names("processing element");
  std::size_t first_pe = g_.pes.size();
  host_cpu(h, host, pe_names);
  host_gpus(h, host, pe_names);
  if (!declared) {
    // A second host of the same name is checked but left out of the graph.
    g_.pes.resize(first_pe);
    return;
  }
  g_.hosts.push_back(std::move(host));
}

void ArchBuilder::host_cpu(const ast::HostDecl& h, ir::Host& host, NameTable& pe_names) {
  constexpr std::int64_t kMaxCpus = 1024;
  for (const ast::PeDecl& pe : h.pes) {
    if (pe.kind.name != "cpu") continue;
    std::vector<ast::Ident> names;
    if (pe.count) {
      if (*pe.count < 1 || *pe.count > kMaxCpus) {
        diags_.error(pe.count_loc,
                     fmt::format("a host declares between 1 and {} cpus at once, got {}", kMaxCpus,
                                 *pe.count),
                     static_cast<std::uint32_t>(std::to_string(*pe.count).size()));
        continue;
      }
      for (std::int64_t i = 0; i < *pe.count; ++i)
        names.push_back({fmt::format("{}{}", pe.name.name, i), pe.name.loc});
    } else {
      names.push_back(pe.name);
    }
    if (pe.name.name != "cpu") check_cxx_name(pe.name, "cpu", diags_);
    for (const ast::Ident& name : names) {
      if (!pe_names.declare(name, 0, diags_)) continue;
      if (host.cpus.empty()) host.cpu = static_cast<ir::PeId>(g_.pes.size());
      host.cpus.push_back(static_cast<ir::PeId>(g_.pes.size()));
      add_pe(host, name.name, ir::PeKind::cpu, name.loc);
    }
  }
  const bool declared = std::any_of(h.pes.begin(), h.pes.end(),
                                    [](const ast::PeDecl& pe) { return pe.kind.name == "cpu"; });
  if (!declared && !h.name.name.empty())
    error_at(diags_, span_of(h.name),
             fmt::format("host '{}' has no cpu; every host needs one ('cpu;')", h.name.name));
}

void ArchBuilder::host_gpus(const ast::HostDecl& h, ir::Host& host, NameTable& pe_names) {
  std::map<int, const ast::PeDecl*> by_ordinal;
  for (const ast::PeDecl& pe : h.pes) {
    if (pe.kind.name == "cpu") continue;
    if (pe.kind.name != "gpu") continue;  // the parser accepts no other kind
    auto ordinal = check_ordinal(pe, eval_, sources_, diags_);
    bool declared = pe_names.declare(pe.name, 0, diags_);
    if (declared) check_cxx_name(pe.name, "gpu", diags_);
    if (ordinal) {
      auto [it, fresh] = by_ordinal.try_emplace(*ordinal, &pe);
      if (!fresh) {
        auto b = error_at(diags_, span_of(*pe.ordinal, sources_),
                          fmt::format("gpu ordinal {} is already used by '{}.{}'", *ordinal,
                                      h.name.name, it->second->name.name));
        note_at(b, span_of(it->second->name),
                fmt::format("'{}' is declared here", it->second->name.name));
      }
    }
    if (!declared) continue;
    host.gpus.push_back(static_cast<ir::PeId>(g_.pes.size()));
    ir::Pe& gpu = add_pe(host, pe.name.name, ir::PeKind::gpu, pe.name.loc);
    gpu.device = ordinal.value_or(-1);
    if (pe.memory) gpu.memory = static_cast<std::int64_t>(*pe.memory);
  }
}

std::optional<ir::LinkKind> ArchBuilder::link_kind(const ast::LinkDecl& l, ir::PeId a, ir::PeId b) {
  static const std::vector<std::string> kinds = {"pcie", "nvlink", "net", "gpudirect"};
  const ir::Pe& pa = g_.pes[a];
  const ir::Pe& pb = g_.pes[b];
  bool same_host = pa.host == pb.host;
  bool two_gpus = pa.kind == ir::PeKind::gpu && pb.kind == ir::PeKind::gpu;
  // Between two hosts, where a link of the other kind would have been right.
  std::string_view remote_hint = two_gpus
                                     ? "; GPUs of different hosts are joined by gpudirect links"
                                     : "; hosts are joined by net links";
  if (l.kind.name == "pcie" || l.kind.name == "nvlink") {
    if (same_host) return l.kind.name == "pcie" ? ir::LinkKind::pcie : ir::LinkKind::nvlink;
    error_at(diags_, span_of(l.kind),
             fmt::format("a {} link must join two processing elements of one host, not {} and {}{}",
                         l.kind.name, pa.name, pb.name, remote_hint));
    return std::nullopt;
  }
  if (l.kind.name == "net") {
    if (!same_host && pa.kind == ir::PeKind::cpu && pb.kind == ir::PeKind::cpu)
      return ir::LinkKind::net;
    error_at(diags_, span_of(l.kind),
             fmt::format("a net link must join the cpus of two different hosts, not {} and {}{}",
                         pa.name, pb.name, !same_host && two_gpus ? remote_hint : ""));
    return std::nullopt;
  }
  if (l.kind.name == "gpudirect") {
    if (two_gpus && !same_host) return ir::LinkKind::gpudirect;
    if (two_gpus)
      error_at(diags_, span_of(l.kind),
               fmt::format(
                   "a gpudirect link must join GPUs of two different hosts, but {} and {} are both "
                   "on host {}; join GPUs of one host with an nvlink (or pcie) link",
                   pa.name, pb.name, g_.hosts[pa.host].name));
    else
      error_at(
          diags_, span_of(l.kind),
          fmt::format("a gpudirect link must join GPUs of two different hosts, not {} and {}{}",
                      pa.name, pb.name,
                      !same_host && pa.kind == ir::PeKind::cpu && pb.kind == ir::PeKind::cpu
                          ? "; the cpus of two hosts are joined by net links"
                          : ""));
    return std::nullopt;
  }
  if (!l.kind.name.empty())
    error_at(diags_, span_of(l.kind),
             fmt::format("unknown link kind '{}'; expected pcie, nvlink, net or gpudirect{}",
                         l.kind.name, did_you_mean(l.kind.name, kinds)));
  return std::nullopt;
}

void ArchBuilder::check_duplicate(const ast::LinkDecl& l, ir::PeId a, ir::PeId b) {
  // Two links are the same link when they carry data in a common direction; `A -> B` and
  // `B -> A` are two one-way links.
  auto& earlier = links_by_pair_[std::minmax(a, b)];
  for (const ast::LinkDecl* e : earlier) {
    bool same_direction = g_.find_pe(qualified(e->a)) == a;
    if (e->bidirectional || l.bidirectional || same_direction) {
      diags_
          .error(l.loc,
                 fmt::format("duplicate link between {} and {}", g_.pes[a].name, g_.pes[b].name), 4)
          .note(e->loc, "previous link is here", 4);
      break;
    }
  }
  earlier.push_back(&l);
}

bool ArchBuilder::cpu_ends(const ast::LinkDecl& l, ir::PeId a, ir::PeId b) {
  const ir::Pe& pa = g_.pes[a];
  const ir::Pe& pb = g_.pes[b];
  if (pa.host == pb.host && pa.kind == ir::PeKind::cpu && pb.kind == ir::PeKind::cpu) {
    error_at(
        diags_, span_of(l.b),
        fmt::format("{} and {} are cpus of one host: they share its memory, and no link joins them",
                    pa.name, pb.name));
    return false;
  }
  for (const ast::PeRef* ref : {&l.a, &l.b}) {
    const ir::Pe& pe = g_.pes[ref == &l.a ? a : b];
    const ir::Host& host = g_.hosts[pe.host];
    if (pe.kind != ir::PeKind::cpu || host.cpu == g_.find_pe(pe.name)) continue;
    auto d = error_at(
        diags_, span_of(*ref),
        fmt::format("links of host '{}' attach to its first cpu, {}, not {}: its cpus share "
                    "one memory, which that cpu stands for",
                    host.name, g_.pes[host.cpu].name, pe.name));
    note_at(d, span_of(ast::Ident{g_.pes[host.cpu].local_name, g_.pes[host.cpu].loc}),
            fmt::format("{} is declared here", g_.pes[host.cpu].name));
    return false;
  }
  return true;
}

void ArchBuilder::link(const ast::LinkDecl& l) {
  auto a = resolve_pe(l.a, arch_, false, diags_);
  auto b = resolve_pe(l.b, arch_, false, diags_);
  if (!a || !b) return;
  if (*a == *b) {
    error_at(diags_, span_of(l.b), fmt::format("link from {} to itself", g_.pes[*a].name));
    return;
  }
  if (!cpu_ends(l, *a, *b)) return;
  auto kind = link_kind(l, *a, *b);
  if (!kind) return;
  check_duplicate(l, *a, *b);
  g_.links.push_back({*a, *b, *kind, l.bandwidth, l.latency.value_or(0), l.bidirectional, l.loc});
  if (*kind == ir::LinkKind::gpudirect)
    gpudirect_.push_back({static_cast<ir::LinkId>(g_.links.size() - 1), &l});
}

bool ArchBuilder::joined(ir::PeId from, ir::PeId to, bool net) const {
  if (!net) {
    for (const ir::Link& l : g_.links)
      if (l.kind != ir::LinkKind::net && l.kind != ir::LinkKind::gpudirect && l.connects(from, to))
        return true;
    return false;
  }
  std::vector<bool> seen(g_.pes.size(), false);
  std::vector<ir::PeId> todo = {from};
  seen[from] = true;
  while (!todo.empty()) {
    ir::PeId pe = todo.back();
    todo.pop_back();
    if (pe == to) return true;
    for (const ir::Link& l : g_.links) {
      if (l.kind != ir::LinkKind::net) continue;
      for (ir::PeId next : {l.a, l.b})
        if (!seen[next] && l.connects(pe, next)) {
          seen[next] = true;
          todo.push_back(next);
        }
    }
  }
  return false;
}

void ArchBuilder::check_gpudirect() {
  for (const auto& [id, decl] : gpudirect_) {
    const ir::Link& link = g_.links[id];
    const ir::PeId cpu_a = g_.hosts[g_.pes[link.a].host].cpu;
    const ir::PeId cpu_b = g_.hosts[g_.pes[link.b].host].cpu;
    // What a transfer a -> b stages through, in its direction: a's pcie to its cpu, the
    // network between the cpus, b's pcie from its cpu; the reverse too on a two-way link.
    struct Need {
      const char* what;
      ir::PeId from, to;
      bool net;
    };
    const Need needs[] = {{"a pcie link", link.a, cpu_a, false},
                          {"a net path", cpu_a, cpu_b, true},
                          {"a pcie link", cpu_b, link.b, false}};
    std::vector<std::string> missing;
    for (const Need& n : needs) {
      const bool forward = !joined(n.from, n.to, n.net);
      const bool back = link.bidirectional && !joined(n.to, n.from, n.net);
      if (forward && back)
        missing.push_back(
            fmt::format("{} between {} and {}", n.what, g_.pes[n.from].name, g_.pes[n.to].name));
      else if (forward || back)
        missing.push_back(fmt::format("{} from {} to {}", n.what,
                                      g_.pes[forward ? n.from : n.to].name,
                                      g_.pes[forward ? n.to : n.from].name));
    }
    if (missing.empty()) continue;
    std::string list = missing[0];
    for (std::size_t i = 1; i < missing.size(); ++i)
      list += (i + 1 == missing.size() ? " and " : ", ") + missing[i];
    error_at(
        diags_, span_of(decl->kind),
        fmt::format(
            "gpudirect link {} {} {} also needs {}: where MPI is not CUDA-aware, its transfers "
            "are staged through host memory",
            g_.pes[link.a].name, link.bidirectional ? "<->" : "->", g_.pes[link.b].name, list));
  }
}

}  // namespace

std::optional<ir::PeId> resolve_pe(const ast::PeRef& ref, const ArchInfo& arch, bool list_pes,
                                   DiagnosticEngine& diags) {
  if (ref.host.name.empty() || ref.pe.name.empty()) return std::nullopt;
  if (auto pe = arch.graph.find_pe(qualified(ref))) return pe;
  const ir::ArchGraph& g = arch.graph;
  std::vector<std::string> host_names;
  const ir::Host* host = nullptr;
  for (const ir::Host& h : g.hosts) {
    host_names.push_back(h.name);
    if (h.name == ref.host.name) host = &h;
  }
  std::optional<DiagnosticBuilder> b;
  if (!host) {
    b = error_at(diags, span_of(ref.host),
                 fmt::format("arch '{}' has no host '{}'{}", g.name, ref.host.name,
                             did_you_mean(ref.host.name, host_names)));
  } else if (ref.pe.name == "cpu" && host->cpus.size() > 1) {
    std::vector<std::string> cpus;
    for (ir::PeId c : host->cpus) cpus.push_back(g.pes[c].name);
    b = error_at(diags, span_of(ref.pe),
                 fmt::format("'{}.cpu' is ambiguous: host '{}' has {} cpus ({}); name one",
                             host->name, host->name, cpus.size(), fmt::join(cpus, ", ")));
  } else {
    std::vector<std::string> local_names;
    for (const ir::Pe& pe : g.pes)
      if (&g.hosts[pe.host] == host) local_names.push_back(pe.local_name);
    b = error_at(diags, span_of(ref.pe),
                 fmt::format("host '{}' has no processing element '{}'{}", host->name, ref.pe.name,
                             did_you_mean(ref.pe.name, local_names)));
  }
  if (list_pes) {
    std::string names;
    for (const ir::Pe& pe : g.pes) names += (names.empty() ? "" : ", ") + pe.name;
    note_at(*b, span_of(arch.decl->name),
            fmt::format("arch '{}' has processing elements {}", g.name, names));
  }
  return std::nullopt;
}

ArchTable check_archs(const Spec& spec, const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags) {
  ArchTable table;
  Evaluator eval(params, sources, diags, ExprMode::integer);
  for (const auto& module : spec.modules) {
    for (const ast::ArchDecl& a : module->archs) {
      std::size_t errors_before = diags.error_count();
      bool declared = table.names.declare(a.name, table.archs.size(), diags);
      if (declared) check_cxx_name(a.name, "arch", diags);
      ArchInfo info;
      info.decl = &a;
      info.graph.name = a.name.name;
      info.graph.loc = a.name.loc;
      ArchBuilder builder(info, eval, sources, diags);
      if (a.hosts.empty() && !a.name.name.empty())
        error_at(diags, span_of(a.name), fmt::format("arch '{}' has no hosts", a.name.name));
      for (const ast::HostDecl& h : a.hosts) builder.host(h);
      for (const ast::LinkDecl& l : a.links) builder.link(l);
      builder.check_gpudirect();
      info.ok = diags.error_count() == errors_before;
      if (declared) table.archs.push_back(std::move(info));
    }
  }
  return table;
}

}  // namespace dfgc::sema
