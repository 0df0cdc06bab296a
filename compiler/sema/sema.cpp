/// \file
/// Semantic analysis as a straight line: params, types, actors, archs, then the chosen app (a
/// mapping of a graph expanded into a whole app first), its nodes and edges and the graph checks;
/// the IR is built only when nothing was wrong, then its dynamic nodes grouped into islands, its
/// rates solved and its replicas unfolded.
#include "sema/sema.hpp"

#include "sema/actors.hpp"
#include "sema/app.hpp"
#include "sema/arch.hpp"
#include "sema/composites.hpp"
#include "sema/graph.hpp"
#include "sema/islands.hpp"
#include "sema/node_rates.hpp"
#include "sema/overlay.hpp"
#include "sema/params.hpp"
#include "sema/rates.hpp"
#include "sema/replicas.hpp"
#include "sema/types.hpp"
#include "sema/warm_up.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::optional<ir::Program> analyze(const Spec& spec, const SemaOptions& options,
                                   const SourceManager& sources, DiagnosticEngine& diags) {
  auto params = sema::check_params(spec, options.defines, sources, diags);
  auto types = sema::check_types(spec, params, sources, diags);
  auto actors = sema::check_actors(spec, params, types, sources, diags);
  const std::size_t declared_actors = actors.actors.size();
  auto archs = sema::check_archs(spec, params, sources, diags);

  const ast::AppDecl* app = sema::choose_app(spec, options, diags);
  if (!app || !sema::check_composite_names(spec, diags)) return std::nullopt;
  // The app flat (its loops unrolled, its composites expanded); a mapping of a graph, as a
  // whole app.
  std::optional<ast::AppDecl> expanded;
  if (app->graph) {
    const ast::AppDecl* graph = sema::graph_of(spec, *app, diags);
    auto placements = sema::flatten_placements(*app, params, sources, diags);
    if (!graph || !placements) return std::nullopt;
    std::map<std::string, const ast::NodeDecl*> refined;
    for (const ast::NodeDecl& p : *placements) refined.emplace(p.name.name, &p);
    auto flat = sema::flatten(spec, *graph, params, refined, sources, diags);
    if (!flat) return std::nullopt;
    expanded = sema::expand_mapping(std::move(*flat), *app, *placements, diags);
  } else {
    auto flat = sema::flatten(spec, *app, params, {}, sources, diags);
    if (flat) expanded = std::move(flat->app);
  }
  if (!expanded) return std::nullopt;
  app = &*expanded;
  auto arch_index = archs.names.resolve(app->arch, diags);
  const sema::ArchInfo* arch = arch_index ? &archs.archs[*arch_index] : nullptr;
  auto nodes =
      sema::check_nodes(*app, actors, arch, params, options.allow_free_nodes, sources, diags);
  // A node's port groups take their sizes before its edges name their ports.
  if (!sema::specialize_groups(actors, nodes, params, sources, diags)) return std::nullopt;
  auto edges = sema::check_edges(*app, nodes, actors, types, params, sources, diags);
  sema::check_cycles(edges, nodes, actors, diags);
  sema::check_stream_ends(edges, nodes, actors, arch, diags);
  const std::optional<std::uint32_t> batch = sema::check_batch(*app, params, sources, diags);
  // Links left out of a broken arch would make paths look missing.
  if (arch && arch->ok) sema::check_reachability(edges, nodes, actors, *arch, diags);
  // Errors reported before (the parser's) count too: a partial tree gives no program.
  if (diags.has_errors()) return std::nullopt;

  ir::Program program;
  program.app_name = app->name.name;
  program.loc = app->name.loc;
  program.spec_file = options.spec_file;
  program.batch = *batch;
  program.batch_loc = app->batch_loc;
  program.params = params.to_ir();
  program.structs = std::move(types.structs);
  program.types = std::move(types.types);
  program.dfg.actors = std::move(actors.actors);
  program.dfg.nodes = std::move(nodes.nodes);
  program.dfg.edges = std::move(edges);
  DFGC_INTERNAL_ASSERT(arch, "an app without an arch passed sema");
  program.arch = arch->graph;
  for (std::size_t n = 0; n < nodes.pe_of.size(); ++n) {
    ir::Node& node = program.dfg.nodes[n];
    DFGC_INTERNAL_ASSERT(nodes.pe_of[n] || !node.candidates.empty(),
                         "an unmapped node passed sema");
    auto placed = options.placements.find(node.name);
    if (placed != options.placements.end() && !node.candidates.empty()) {
      DFGC_INTERNAL_ASSERT(!placed->second.empty(), "an empty placement");
      node.candidates.clear();
      if (placed->second.size() > 1) {
        node.replicas = placed->second;
        for (ir::Replica& r : node.replicas) r.loc = node.mapping_loc;
      }
      program.mapping.pe_of.push_back(placed->second.front().pe);
      continue;
    }
    program.mapping.pe_of.push_back(nodes.pe_of[n] ? *nodes.pe_of[n] : node.candidates.front());
  }
  for (ir::Node& n : program.dfg.nodes) {
    auto it = options.replica_shares.find(n.name);
    if (it == options.replica_shares.end() || it->second < 2) continue;
    DFGC_INTERNAL_ASSERT(
        !n.candidates.empty() && it->second >= n.replicas_min && it->second <= n.replicas_max,
        "shares for a node without that replica range");
    n.shares = it->second;
  }
  program.written_batch = program.batch;
  if (!sema::specialize_rates(program, actors.info, params, sources, diags)) return std::nullopt;
  sema::drop_unused_copies(program, declared_actors);
  if (!sema::form_islands(program, diags, options.copied_fifos)) return std::nullopt;
  if (!sema::prepare_replicas(program, diags)) return std::nullopt;
  if (!sema::solve_rates(program, diags)) return std::nullopt;
  sema::compute_warm_up(program);
  sema::unfold_replicas(program);
  return program;
}

}  // namespace dfgc
