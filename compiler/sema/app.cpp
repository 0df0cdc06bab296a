/// \file
/// Chooses the app and checks its nodes: actor, mapping, parameter values.
#include "sema/app.hpp"

#include <map>

#include <fmt/format.h>

#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

void check_mapping(const ast::NodeDecl& n, const ir::Actor& actor, const ir::Pe& pe,
                   DiagnosticEngine& diags) {
  if (actor.impls.empty() || actor.impl_for(pe.kind)) return;
  auto b = error_at(diags, span_of(n.pe),
                    fmt::format("actor '{}' has no {} implementation, but node '{}' is mapped to "
                                "{} (a {})",
                                actor.name, ir::to_string(pe.kind), n.name.name, pe.name,
                                ir::to_string(pe.kind)));
  b.note(actor.loc, fmt::format("actor '{}' is declared here", actor.name),
         static_cast<std::uint32_t>(actor.name.size()));
}

Span placement_span(const ast::NodeDecl& n) { return {n.placement_loc, n.placement_length}; }

/// The PEs after `migrates`: each known, distinct, not the node's own PE and of a kind the actor
/// implements. A free node takes none: its PE is not known before `dfgc map` chooses it.
std::vector<ir::Alternative> check_alternatives(const ast::NodeDecl& n, const ir::Actor* actor,
                                                std::optional<ir::PeId> home, const ArchInfo& arch,
                                                DiagnosticEngine& diags) {
  std::vector<ir::Alternative> result;
  std::map<ir::PeId, const ast::PeRef*> seen;
  for (const ast::PeRef& ref : n.alternatives) {
    if (n.free) {
      error_at(diags, span_of(ref),
               fmt::format("node '{}' is not pinned to a processing element; only a pinned node "
                           "can have alternatives after 'migrates'",
                           n.name.name));
      return {};
    }
    auto pe = resolve_pe(ref, arch, true, diags);
    if (!pe) continue;
    const ir::Pe& target = arch.graph.pes[*pe];
    if (home && *pe == *home) {
      auto b = error_at(diags, span_of(ref),
                        fmt::format("node '{}' already runs on {}; an alternative must be another "
                                    "processing element",
                                    n.name.name, target.name));
      note_at(b, span_of(n.pe), "its processing element is given here");
      continue;
    }
    if (auto [it, fresh] = seen.try_emplace(*pe, &ref); !fresh) {
      auto b = error_at(diags, span_of(ref),
                        fmt::format("{} is listed twice as an alternative of node '{}'",
                                    target.name, n.name.name));
      note_at(b, span_of(*it->second), "first listed here");
      continue;
    }
    if (actor && !actor->impls.empty() && !actor->impl_for(target.kind)) {
      auto b = error_at(diags, span_of(ref),
                        fmt::format("actor '{}' has no {} implementation, so node '{}' cannot "
                                    "migrate to {} (a {})",
                                    actor->name, ir::to_string(target.kind), n.name.name,
                                    target.name, ir::to_string(target.kind)));
      b.note(actor->loc, fmt::format("actor '{}' is declared here", actor->name),
             static_cast<std::uint32_t>(actor->name.size()));
      continue;
    }
    result.push_back({*pe, ref.loc});
  }
  return result;
}

/// The largest weight of a replica: the unfolded graph has a copy of every node per unit of the
/// weights' sum (sema/replicas.hpp).
constexpr std::int64_t kMaxReplicaWeight = 64;

/// `@ {A.g0, A.g1: 2}`: at least two PEs, each known, distinct and of a kind the actor implements,
/// each weight a fixed integer from 1 to kMaxReplicaWeight; a replicated node does not migrate.
std::vector<ir::Replica> check_replicas(const ast::NodeDecl& n, const ir::Actor* actor,
                                        std::optional<ir::PeId> first, const ArchInfo& arch,
                                        const ParamTable& params, const SourceManager& sources,
                                        DiagnosticEngine& diags) {
  std::vector<ir::Replica> result;
  if (n.replicas.empty()) return result;
  if (n.replicas.size() == 1) {
    error_at(diags, placement_span(n),
             fmt::format("node '{}' lists one processing element in its replica set; a set deals "
                         "the iterations over two or more (write '@ {}.{}' for one)",
                         n.name.name, n.pe.host.name, n.pe.pe.name));
    return result;
  }
  if (!n.alternatives.empty()) {
    auto b = error_at(
        diags, span_of(n.alternatives.front()),
        fmt::format("node '{}' runs replicas; a replicated node does not migrate", n.name.name));
    note_at(b, placement_span(n), "its replica set is given here");
  }
  Evaluator count(params, sources, diags, ExprMode::integer);
  std::map<ir::PeId, const ast::PeRef*> seen;
  bool ok = true;
  for (const ast::ReplicaRef& r : n.replicas) {
    // The first is the node's own PE, resolved (and reported) already.
    auto pe = &r == &n.replicas.front() ? first : resolve_pe(r.pe, arch, true, diags);
    std::uint32_t weight = 1;
    if (r.weight) {
      auto w = count.eval(r.weight.get());
      if (!w || !count.require_fixed(*w, "a replica's weight")) {
        ok = false;
        continue;
      }
      if (w->integer < 1 || w->integer > kMaxReplicaWeight) {
        error_at(
            diags, span_of(*r.weight, sources),
            fmt::format("a replica's weight is 1 to {}, not {}", kMaxReplicaWeight, w->integer));
        ok = false;
        continue;
      }
      weight = static_cast<std::uint32_t>(w->integer);
    }
    if (!pe) {
      ok = false;
      continue;
    }
    const ir::Pe& target = arch.graph.pes[*pe];
    if (auto [it, fresh] = seen.try_emplace(*pe, &r.pe); !fresh) {
      auto b = error_at(diags, span_of(r.pe),
                        fmt::format("{} is listed twice in the replica set of node '{}'",
                                    target.name, n.name.name));
      note_at(b, span_of(*it->second), "first listed here");
      ok = false;
      continue;
    }
    if (actor && !actor->impls.empty() && !actor->impl_for(target.kind)) {
      auto b = error_at(diags, span_of(r.pe),
                        fmt::format("actor '{}' has no {} implementation, so node '{}' cannot "
                                    "run a replica on {} (a {})",
                                    actor->name, ir::to_string(target.kind), n.name.name,
                                    target.name, ir::to_string(target.kind)));
      b.note(actor->loc, fmt::format("actor '{}' is declared here", actor->name),
             static_cast<std::uint32_t>(actor->name.size()));
      ok = false;
      continue;
    }
    result.push_back({*pe, weight, r.pe.loc});
  }
  if (!ok) return {};
  return result;
}

/// The PEs a free node's placement allows, before the actor's implementations are considered;
/// nullopt after reporting an unknown host.
std::optional<std::vector<ir::PeId>> placement_pes(const ast::NodeDecl& n, const ArchInfo& arch,
                                                   DiagnosticEngine& diags) {
  const ir::ArchGraph& g = arch.graph;
  std::optional<ir::HostId> host;
  if (n.free->kind == ast::FreePlacement::Kind::host) {
    std::vector<std::string> names;
    for (std::size_t h = 0; h < g.hosts.size(); ++h) {
      names.push_back(g.hosts[h].name);
      if (g.hosts[h].name == n.free->host.name) host = static_cast<ir::HostId>(h);
    }
    if (!host) {
      error_at(diags, span_of(n.free->host),
               fmt::format("arch '{}' has no host '{}'{}", g.name, n.free->host.name,
                           did_you_mean(n.free->host.name, names)));
      return std::nullopt;
    }
  }
  std::vector<ir::PeId> pes;
  for (std::size_t p = 0; p < g.pes.size(); ++p) {
    const ir::Pe& pe = g.pes[p];
    bool fits = (n.free->kind != ast::FreePlacement::Kind::any_cpu || pe.kind == ir::PeKind::cpu) &&
                (n.free->kind != ast::FreePlacement::Kind::any_gpu || pe.kind == ir::PeKind::gpu) &&
                (!host || pe.host == *host);
    if (fits) pes.push_back(static_cast<ir::PeId>(p));
  }
  return pes;
}

/// `replicas in [MIN, MAX]` after a free placement: fixed integers, 1 <= MIN <= MAX <=
/// kMaxReplicaWeight. Sets the node's range; false after reporting.
bool check_replica_range(const ast::NodeDecl& n, ir::Node& node, const ParamTable& params,
                         const SourceManager& sources, DiagnosticEngine& diags) {
  if (!n.replica_range) return true;
  const ast::ReplicaRange& r = *n.replica_range;
  Evaluator count(params, sources, diags, ExprMode::integer);
  std::int64_t ends[2] = {1, 1};
  const ast::ExprPtr* exprs[2] = {&r.min, &r.max};
  for (int i = 0; i < 2; ++i) {
    auto v = count.eval(exprs[i]->get());
    if (!v || !count.require_fixed(*v, "a replica count")) return false;
    if (v->integer < 1 || v->integer > kMaxReplicaWeight) {
      error_at(diags, span_of(**exprs[i], sources),
               fmt::format("node '{}' may be dealt over 1 to {} shares, not {}", n.name.name,
                           kMaxReplicaWeight, v->integer));
      return false;
    }
    ends[i] = v->integer;
  }
  if (ends[0] > ends[1]) {
    error_at(diags, span_of(*r.min, sources),
             fmt::format("the replica range of node '{}' is empty: its least count {} is above "
                         "its greatest {}",
                         n.name.name, ends[0], ends[1]));
    return false;
  }
  node.replicas_min = static_cast<std::uint32_t>(ends[0]);
  node.replicas_max = static_cast<std::uint32_t>(ends[1]);
  node.replicas_loc = r.loc;
  return true;
}

/// A free node's candidates: the PEs of its placement that the actor has an implementation for.
/// Reports a placement no PE satisfies, and a free node outside `dfgc map`.
std::vector<ir::PeId> check_free_node(const ast::NodeDecl& n, const ir::Actor* actor,
                                      const ArchInfo& arch, bool allow_free,
                                      DiagnosticEngine& diags) {
  auto pes = placement_pes(n, arch, diags);
  if (!pes || !actor) return {};
  std::vector<ir::PeId> candidates;
  for (ir::PeId p : *pes)
    if (actor->impls.empty() || actor->impl_for(arch.graph.pes[p].kind)) candidates.push_back(p);
  if (candidates.empty()) {
    std::string why = pes->empty() ? fmt::format("arch '{}' has none", arch.graph.name)
                      : actor->impl_for(ir::PeKind::cpu)
                          ? fmt::format("actor '{}' has only a cpu implementation", actor->name)
                          : fmt::format("actor '{}' has only a gpu implementation", actor->name);
    error_at(diags, placement_span(n),
             fmt::format("no processing element fits '{}' for node '{}': {}",
                         ast::placement_text(n), n.name.name, why));
    return {};
  }
  if (!allow_free) {
    error_at(diags, placement_span(n),
             fmt::format("node '{}' is not mapped; run 'dfgc map' to choose its processing "
                         "element",
                         n.name.name));
    return {};
  }
  return candidates;
}

/// The value (literal and evaluated) of every parameter the node sets, by the parameter's index
/// in the actor.
std::map<std::size_t, ir::ParamValue> check_assignments(const ast::NodeDecl& n,
                                                        const ir::Actor& actor,
                                                        const ActorInfo& info, Evaluator& eval,
                                                        const SourceManager& sources,
                                                        DiagnosticEngine& diags) {
  NameTable declared("param");
  for (std::size_t i = 0; i < actor.params.size(); ++i)
    declared.declare(info.params[i]->name, i, diags);
  std::map<std::size_t, const ast::ParamAssign*> first;
  std::map<std::size_t, ir::ParamValue> values;
  for (const ast::ParamAssign& a : n.params) {
    auto index = declared.resolve(
        a.name, diags, fmt::format("actor '{}' has no param '{}'", actor.name, a.name.name));
    if (!index) continue;
    if (auto [it, fresh] = first.try_emplace(*index, &a); !fresh) {
      auto b =
          error_at(diags, span_of(a.name),
                   fmt::format("param '{}' is set twice in node '{}'", a.name.name, n.name.name));
      note_at(b, span_of(it->second->name), "first set here");
      continue;
    }
    auto type = info.param_types[*index];
    if (!type) continue;
    auto checked =
        check_param_value(a.value.get(), *type, *info.params[*index], true, eval, sources, diags);
    if (checked) values[*index] = {a.name.name, checked->literal, a.name.loc, checked->value};
  }
  return values;
}

/// One value per actor parameter, in the actor's order: the node's, else the default.
std::vector<ir::ParamValue> check_params(const ast::NodeDecl& n, const ir::Actor& actor,
                                         const ActorInfo& info, Evaluator& eval,
                                         const SourceManager& sources, DiagnosticEngine& diags) {
  auto given = check_assignments(n, actor, info, eval, sources, diags);
  std::vector<ir::ParamValue> result;
  for (std::size_t i = 0; i < actor.params.size(); ++i) {
    const ir::ActorParam& p = actor.params[i];
    if (auto it = given.find(i); it != given.end()) {
      result.push_back(it->second);
    } else if (p.default_literal) {
      result.push_back({p.name, *p.default_literal, p.loc, *p.default_value});
    } else if (!info.params[i]->default_value && !n.name.name.empty()) {
      bool assigned = false;
      for (const ast::ParamAssign& a : n.params) assigned |= a.name.name == p.name;
      if (assigned) continue;  // its value had an error, reported already
      auto b = error_at(diags, span_of(n.name),
                        fmt::format("node '{}' must set param '{}' of actor '{}', which has no "
                                    "default",
                                    n.name.name, p.name, actor.name));
      note_at(b, span_of(info.params[i]->name), fmt::format("'{}' is declared here", p.name));
    }
  }
  return result;
}

}  // namespace

const ast::AppDecl* choose_app(const Spec& spec, const SemaOptions& options,
                               DiagnosticEngine& diags) {
  // Graphs share the apps' names but do not run: only the apps that map them do.
  NameTable names("app");
  std::vector<const ast::AppDecl*> declared;
  for (const auto& module : spec.modules)
    for (const ast::AppDecl& a : module->apps)
      if (names.declare(a.name, declared.size(), diags)) {
        check_cxx_name(a.name, "app", diags);
        declared.push_back(&a);
      }
  std::vector<const ast::AppDecl*> apps;
  std::vector<std::string> runnable;
  for (const ast::AppDecl* a : declared)
    if (!a->is_graph()) {
      apps.push_back(a);
      runnable.push_back(a->name.name);
    }
  auto mappings_of = [&](const ast::AppDecl& graph) {
    std::string list;
    for (const ast::AppDecl* a : apps)
      if (a->graph && a->graph->name == graph.name.name)
        list += (list.empty() ? "" : ", ") + a->name.name;
    return list.empty() ? fmt::format("declare one: 'app NAME : {} on ARCH {{ NODE @ PE; ... }}'",
                                      graph.name.name)
                        : fmt::format("run one of the apps that map it ({})", list);
  };
  if (options.app) {
    if (auto i = names.find(*options.app)) {
      const ast::AppDecl* a = declared[*i];
      if (!a->is_graph()) return a;
      diags.error({}, fmt::format("--app {}: '{}' is a graph, without an architecture; {}",
                                  *options.app, *options.app, mappings_of(*a)));
      return nullptr;
    }
    diags.error({}, fmt::format("--app {}: no app named '{}'{}", *options.app, *options.app,
                                did_you_mean(*options.app, runnable)));
    return nullptr;
  }
  if (apps.size() == 1) return apps.front();
  if (apps.empty()) {
    if (!declared.empty()) {
      error_at(diags, span_of(declared.front()->name),
               fmt::format("no app in spec runs: '{}' is a graph, without an "
                           "architecture; {}",
                           declared.front()->name.name, mappings_of(*declared.front())));
      return nullptr;
    }
    diags.error(SourceLoc::whole_file(spec.root().file),
                "no app in spec; declare one with 'app NAME on ARCH { ... }'");
    return nullptr;
  }
  std::string list;
  for (const std::string& n : runnable) list += (list.empty() ? "" : ", ") + n;
  auto b = diags.error(
      SourceLoc::whole_file(spec.root().file),
      fmt::format("the spec declares {} apps ({}); choose one with --app NAME", apps.size(), list));
  for (const ast::AppDecl* a : apps)
    note_at(b, span_of(a->name), fmt::format("app '{}' is declared here", a->name.name));
  return nullptr;
}

NodeTable check_nodes(const ast::AppDecl& app, const ActorTable& actors, const ArchInfo* arch,
                      const ParamTable& params, bool allow_free, const SourceManager& sources,
                      DiagnosticEngine& diags) {
  NodeTable table;
  Evaluator eval(params, sources, diags, ExprMode::value);
  for (const ast::NodeDecl& n : app.nodes) {
    bool declared = table.names.declare(n.name, table.nodes.size(), diags);
    if (declared) check_cxx_name(n.name, "node", diags);
    auto actor = actors.names.resolve(n.actor, diags);
    auto pe = arch && !n.free ? resolve_pe(n.pe, *arch, true, diags) : std::nullopt;
    ir::Node node;
    node.name = n.name.name;
    node.actor = static_cast<ir::ActorId>(actor.value_or(0));
    node.loc = n.name.loc;
    node.mapping_loc = n.placement_loc;
    if (arch && n.free) {
      const ir::Actor* a = actor ? &actors.actors[*actor] : nullptr;
      node.candidates = check_free_node(n, a, *arch, allow_free, diags);
      check_replica_range(n, node, params, sources, diags);
    }
    if (arch) {
      const ir::Actor* a = actor ? &actors.actors[*actor] : nullptr;
      node.alternatives = check_alternatives(n, a, pe, *arch, diags);
      node.replicas = check_replicas(n, a, pe, *arch, params, sources, diags);
    }
    if (actor) {
      const ir::Actor& a = actors.actors[*actor];
      if (pe && n.replicas.empty()) check_mapping(n, a, arch->graph.pes[*pe], diags);
      node.params = check_params(n, a, actors.info[*actor], eval, sources, diags);
    }
    if (!declared) continue;
    table.nodes.push_back(std::move(node));
    table.actor_of.push_back(actor ? std::optional<ir::ActorId>(static_cast<ir::ActorId>(*actor))
                                   : std::nullopt);
    table.pe_of.push_back(pe);
  }
  return table;
}

}  // namespace dfgc::sema
