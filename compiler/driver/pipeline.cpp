#include "driver/pipeline.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "driver/depfile.hpp"
#include "driver/write_project.hpp"
#include "ir/ir.hpp"
#include "support/assert.hpp"

namespace dfgc::driver {

std::string dump(const ActorSignatures& signatures, const ir::Program& program) {
  std::string out;
  for (const auto& [key, s] : signatures) {
    const ir::Actor& actor = program.dfg.actors[key.first];
    std::string args;
    for (const FireParam& param : fire_params(s)) {
      const ir::Port& first = actor.ports[s.fire_ports[param.first]];
      args += args.empty() ? "" : ", ";
      args += param.group ? fmt::format("{}[{}]", first.group, param.size) : first.name;
    }
    if (s.fire_takes_context) args += args.empty() ? "ctx" : ", ctx";
    out += fmt::format("{} {}: fire({})", actor.name, ir::to_string(key.second), args);
    if (s.has_init) out += s.init_takes_context ? " init(ctx)" : " init()";
    out += "\n";
  }
  return out;
}

std::vector<std::string> files_read(const Compilation& compilation, const SourceManager& sources) {
  std::set<std::string> files;
  if (compilation.spec)
    for (const auto& module : compilation.spec->modules)
      files.insert(normal_absolute_path(sources.name(module->file)));
  for (const auto& [path, text] : compilation.actor_files.text) files.insert(path);
  files.insert(compilation.actor_files.runtime.begin(), compilation.actor_files.runtime.end());
  files.insert(compilation.actor_files.external.begin(), compilation.actor_files.external.end());
  for (const std::string& file : compilation.also_read) files.insert(normal_absolute_path(file));
  return {files.begin(), files.end()};
}

namespace {

/// Reports `uncovered`, a loop of `p`'s graph: an error at `at` (the loop's first edge when `at`
/// is empty) starting with `prefix`, a note per edge.
void report_uncovered_loop(const ir::Program& p, const StrategyLoop& uncovered,
                           DiagnosticEngine& diags,
                           std::optional<std::pair<SourceLoc, std::uint32_t>> at = std::nullopt,
                           const std::string& prefix = {}) {
  const UncoveredLoop& loop = uncovered.loop;
  constexpr std::uint32_t kArrowLength = 2;
  auto b = diags.error(at ? at->first : p.dfg.edges[loop.edges.front()].loc,
                       prefix + describe(loop, uncovered.strategy, p.dfg),
                       at ? at->second : kArrowLength);
  for (std::size_t i = 0; i < loop.edges.size(); ++i) {
    const ir::Edge& edge = p.dfg.edges[loop.edges[i]];
    const std::uint32_t hop = loop.edge_transfers[i];
    const std::uint32_t cycles = loop.edge_cycles[i];
    const std::string& from = p.arch.pes[p.mapping.pe_of[edge.src]].name;
    const std::string& to = p.arch.pes[p.mapping.pe_of[edge.dst]].name;
    std::string where =
        from == to ? fmt::format("within {}", from)
        : hop == 0 ? fmt::format("{} -> {}, shared memory, no transfer", from, to)
                   : fmt::format("{} -> {}, {} transfer{}", from, to, hop, hop == 1 ? "" : "s");
    b.note(
        edge.loc,
        fmt::format("edge {}.{} -> {}.{} ({}) takes {} cycle{}{}", p.dfg.nodes[edge.src].name,
                    p.dfg.actor_of(edge.src).ports[edge.src_port].name, p.dfg.nodes[edge.dst].name,
                    p.dfg.actor_of(edge.dst).ports[edge.dst_port].name, where, cycles,
                    cycles == 1 ? "" : "s",
                    edge.delay ? fmt::format(" and carries {} initial token{}", edge.delay,
                                             edge.delay == 1 ? "" : "s")
                               : std::string()),
        kArrowLength);
  }
}

}  // namespace

bool check_loops(const ir::Program& p, const PassResults& passes, DiagnosticEngine& diags) {
  if (passes.latencies)
    if (auto loop = uncovered_loop(*passes.latencies)) {
      report_uncovered_loop(p, *loop, diags);
      return false;
    }
  if (!passes.migrations) return true;
  // Each migration alternative is a mapping the program may run: its loops must be live too.
  bool ok = true;
  std::size_t i = 0;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
    for (const ir::Alternative& alt : p.dfg.nodes[n].alternatives) {
      const Migration& m = passes.migrations->alternatives[i++];
      if (!m.uncovered) continue;
      ok = false;
      const std::string& pe = p.arch.pes[alt.pe].name;
      report_uncovered_loop(
          m.program, *m.uncovered, diags, std::pair{alt.loc, static_cast<std::uint32_t>(pe.size())},
          fmt::format("node '{}' may not move to {}: there, ", p.dfg.nodes[n].name, pe));
    }
  return ok;
}

bool check_migrating_delays(const ir::Program& p, const PassResults& passes,
                            DiagnosticEngine& diags) {
  if (!passes.migrations) return true;
  bool ok = true;
  std::size_t i = 0;
  for (ir::NodeId n = 0; n < p.dfg.nodes.size(); ++n)
    for (const ir::Alternative& alt : p.dfg.nodes[n].alternatives) {
      const Migration& m = passes.migrations->alternatives[i++];
      std::set<ir::EdgeId> lost;
      for (ir::Strategy s : ir::kStrategies)
        for (ir::EdgeId e : lost_initial_tokens(p, m, s)) lost.insert(e);
      if (lost.empty()) continue;
      ok = false;
      auto b = diags.error(
          alt.loc,
          fmt::format("node '{}' may not move to {}: the tokens in flight on a delayed edge would "
                      "be lost at the move (a move carries an actor's state through save/restore, "
                      "not the tokens of a delay line)",
                      p.dfg.nodes[n].name, p.arch.pes[alt.pe].name),
          static_cast<std::uint32_t>(p.arch.pes[alt.pe].name.size()));
      for (ir::EdgeId e : lost) {
        const ir::Edge& edge = p.dfg.edges[e];
        b.note(edge.loc,
               fmt::format(
                   "edge {}.{} -> {}.{} carries {} initial token{}; after the move {} "
                   "reads a delay line of its own, which the tokens before the move "
                   "never reach",
                   p.dfg.nodes[edge.src].name, p.dfg.actor_of(edge.src).ports[edge.src_port].name,
                   p.dfg.nodes[edge.dst].name, p.dfg.actor_of(edge.dst).ports[edge.dst_port].name,
                   edge.delay, edge.delay == 1 ? "" : "s", p.dfg.nodes[edge.dst].name),
               2);
      }
    }
  return ok;
}

bool run_pipeline(const PipelineInput& in, Stage last, SourceManager& sources,
                  DiagnosticEngine& diags, PipelineHooks* hooks, Compilation& out) {
  auto reached = [&](Stage stage) { return stage >= last; };
  out.spec = run_stage(
      hooks, Stage::parse, [&] { return load_spec(in.sema.spec_file, sources, diags); },
      [&](const std::unique_ptr<Spec>& spec) {
        std::string text;
        if (spec)
          for (const auto& module : spec->modules) text += ast::dump(*module, sources);
        return text;
      });
  if (!out.spec || diags.has_errors()) return false;
  if (reached(Stage::parse)) return true;

  out.program = run_stage(
      hooks, Stage::sema, [&] { return analyze(*out.spec, in.sema, sources, diags); },
      [&](const std::optional<ir::Program>& p) { return p ? ir::dump(*p) : std::string(); });
  if (!out.program || diags.has_errors()) return false;
  if (reached(Stage::sema)) return true;
  return run_pipeline_after_sema(in, last, sources, diags, hooks, out);
}

bool run_pipeline_after_sema(const PipelineInput& in, Stage last, SourceManager& sources,
                             DiagnosticEngine& diags, PipelineHooks* hooks, Compilation& out) {
  DFGC_INTERNAL_ASSERT(out.program, "the stages after sema need a checked program");
  auto reached = [&](Stage stage) { return stage >= last; };
  const ir::Program& p = *out.program;
  // The passes up to the migrations need no actor: their loops and moves are checked before the
  // actor headers are read.
  if (last >= Stage::schedule)
    out.passes = run_passes(p, std::min(last, Stage::migrations), hooks, in.short_path, in.plan);
  if (!check_loops(p, out.passes, diags) || !check_migrating_delays(p, out.passes, diags))
    return false;
  if (reached(Stage::migrations)) return true;
  if (in.read_actors) {
    ActorCheck checked = run_stage(
        hooks, Stage::actors,
        [&] { return check_actors(p, ActorFrontendOptions{}, sources, diags); },
        [&](const ActorCheck& c) { return dump(c.signatures, p); });
    out.signatures = std::move(checked.signatures);
    out.actor_files = std::move(checked.files);
    if (diags.has_errors()) return false;
  }
  if (reached(Stage::actors)) return true;

  resume_passes(out.passes, p, std::min(last, kPlanned), hooks, in.short_path, in.plan,
                in.read_actors ? &out.signatures : nullptr);
  if (reached(kPlanned)) return true;

  out.files = run_stage(
      hooks, Stage::codegen,
      [&] {
        // schedule.txt with the migration sections.
        return codegen::generate_project(*out.passes.hosts, out.actor_files,
                                         {{"schedule.txt", render_schedule(p, out.passes)},
                                          {"graph.dot", ir::render_dot(p, *out.passes.ig)}},
                                         in.format_limit);
      },
      [&](const codegen::Files& files) {
        std::string text;
        for (const auto& [path, content] : files)
          text += fmt::format("{} ({} lines)\n", path,
                              std::count(content.begin(), content.end(), '\n'));
        return text;
      });
  if (diags.has_errors()) return false;
  if (reached(Stage::codegen)) return true;

  out.write_error = run_stage(
      hooks, Stage::write,
      [&]() -> std::optional<std::string> {
        // The depfile is checked and written beside its place before the project, and renamed
        // into place after it: a depfile that may not be written leaves everything as it was.
        std::optional<PendingFile> depfile;
        if (!in.depfile.empty()) {
          std::vector<std::string> inputs = files_read(out, sources);
          ReplaceTarget target = depfile_target(in.depfile, in.out_dir, inputs);
          if (!target.error.empty()) return target.error;
          depfile.emplace(target.file, fmt::format("depfile '{}'", in.depfile),
                          render_depfile((in.out_dir / codegen::kManifest).string(), inputs));
          if (depfile->error()) return depfile->error();
        }
        auto error = write_project(*out.files, in.out_dir);
        if (!error && depfile) error = depfile->commit();
        return error;
      },
      [&](const std::optional<std::string>& error) {
        return error ? std::string()
                     : fmt::format("wrote {} files into {}\n", out.files->size(),
                                   in.out_dir.string());
      });
  return !out.write_error;
}

}  // namespace dfgc::driver
