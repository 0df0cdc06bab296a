/// \file
/// A mapping of a graph expanded into a whole app (sema/overlay.hpp).
#include "sema/overlay.hpp"

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

using ast::clone;

std::vector<ast::ParamAssign> clone(const std::vector<ast::ParamAssign>& params) {
  std::vector<ast::ParamAssign> copy;
  for (const ast::ParamAssign& p : params) copy.push_back({p.name, clone(p.value)});
  return copy;
}

/// The graph's node with the mapping's placement, and its params unless the placement is an
/// instance's (whose params are its composite's).
ast::NodeDecl placed(const ast::NodeDecl& node, const ast::NodeDecl& placement, bool params) {
  ast::NodeDecl d;
  d.name = node.name;
  d.actor = node.actor;
  d.loc = node.loc;
  d.pe = placement.pe;
  d.free = placement.free;
  if (placement.replica_range)
    d.replica_range =
        ast::ReplicaRange{clone(placement.replica_range->min), clone(placement.replica_range->max),
                          placement.replica_range->loc};
  d.placement_loc = placement.placement_loc;
  d.placement_length = placement.placement_length;
  d.alternatives = placement.alternatives;
  for (const ast::ReplicaRef& r : placement.replicas) d.replicas.push_back({r.pe, clone(r.weight)});
  for (const ast::ParamAssign& p : node.params) {
    bool refined = false;
    for (const ast::ParamAssign& q : placement.params)
      refined = refined || (params && q.name.name == p.name.name);
    if (!refined) d.params.push_back({p.name, clone(p.value)});
  }
  if (params)
    for (ast::ParamAssign& p : clone(placement.params)) d.params.push_back(std::move(p));
  return d;
}

}  // namespace

const ast::AppDecl* graph_of(const Spec& spec, const ast::AppDecl& mapping,
                             DiagnosticEngine& diags) {
  std::vector<std::string> graphs;
  for (const auto& module : spec.modules)
    for (const ast::AppDecl& a : module->apps) {
      if (a.name.name != mapping.graph->name) {
        if (a.is_graph()) graphs.push_back(a.name.name);
        continue;
      }
      if (a.is_graph()) return &a;
      auto b = error_at(diags, span_of(*mapping.graph),
                        fmt::format("app '{}' maps '{}', which is not a graph: it runs on '{}' "
                                    "already (a graph is an app without 'on ARCH')",
                                    mapping.name.name, a.name.name, a.arch.name));
      note_at(b, span_of(a.name), fmt::format("app '{}' is declared here", a.name.name));
      return nullptr;
    }
  error_at(diags, span_of(*mapping.graph),
           fmt::format("app '{}' maps graph '{}', which is not declared{}", mapping.name.name,
                       mapping.graph->name, did_you_mean(mapping.graph->name, graphs)));
  return nullptr;
}

std::optional<ast::AppDecl> expand_mapping(FlatApp&& flat, const ast::AppDecl& mapping,
                                           const std::vector<ast::NodeDecl>& placements,
                                           DiagnosticEngine& diags) {
  const ast::AppDecl* graph = &flat.app;
  bool ok = true;
  std::map<std::string, const ast::NodeDecl*> placement_of;
  std::vector<std::string> names;
  for (const ast::NodeDecl& n : graph->nodes) names.push_back(n.name.name);
  names.insert(names.end(), flat.instances.begin(), flat.instances.end());
  for (const ast::NodeDecl& p : placements) {
    bool known = false;
    for (const std::string& n : names) known = known || n == p.name.name;
    if (!known) {
      error_at(diags, span_of(p.name),
               fmt::format("graph '{}' has no node '{}'{}", graph->name.name, p.name.name,
                           did_you_mean(p.name.name, names)));
      ok = false;
      continue;
    }
    if (auto [it, fresh] = placement_of.try_emplace(p.name.name, &p); !fresh) {
      auto b = error_at(
          diags, span_of(p.name),
          fmt::format("node '{}' is placed twice in app '{}'", p.name.name, mapping.name.name));
      note_at(b, span_of(it->second->name), "first placed here");
      ok = false;
    }
  }
  ast::AppDecl app;
  app.name = mapping.name;
  app.arch = mapping.arch;
  app.graph = mapping.graph;
  app.loc = mapping.loc;
  for (const ast::NodeDecl& n : graph->nodes) {
    auto it = placement_of.find(n.name.name);
    // Else the innermost instance that holds the node and that the mapping places.
    const ast::NodeDecl* instance = nullptr;
    for (const std::string& i : flat.instances)
      if (n.name.name.starts_with(i + "_"))
        if (auto p = placement_of.find(i); p != placement_of.end()) instance = p->second;
    if (it == placement_of.end() && instance) {
      app.nodes.push_back(placed(n, *instance, false));
      continue;
    }
    if (it == placement_of.end()) {
      auto b = error_at(
          diags, span_of(mapping.name),
          fmt::format("app '{}' does not place node '{}' of graph '{}' (add '{} @ "
                      "PE;', or '{} @ any;' for dfgc map to choose)",
                      mapping.name.name, n.name.name, graph->name.name, n.name.name, n.name.name));
      note_at(b, span_of(n.name), fmt::format("node '{}' is declared here", n.name.name));
      ok = false;
      continue;
    }
    app.nodes.push_back(placed(n, *it->second, true));
  }
  if (!ok) return std::nullopt;
  // The flat graph is this app's alone (flatten made it): its edges and batch move here.
  app.edges = std::move(flat.app.edges);
  if (mapping.batch) {
    app.batch = clone(mapping.batch);
    app.batch_loc = mapping.batch_loc;
  } else {
    app.batch = std::move(flat.app.batch);
    app.batch_loc = flat.app.batch_loc;
  }
  return app;
}

}  // namespace dfgc::sema
