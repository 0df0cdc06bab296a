#include "stages/stages.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "passes/build_ig.hpp"
#include "support/assert.hpp"

namespace dfgc {

std::string_view name(Stage stage) { return kStageNames[static_cast<std::size_t>(stage)]; }

std::optional<Stage> stage_named(std::string_view name) {
  auto it = std::find(kStageNames.begin(), kStageNames.end(), name);
  if (it == kStageNames.end()) return std::nullopt;
  return static_cast<Stage>(it - kStageNames.begin());
}

Instrumentation::Instrumentation(Options options, std::ostream& out)
    : options_(options), out_(out) {}

bool Instrumentation::on() const {
  return options_.time ||
         std::find(options_.dump.begin(), options_.dump.end(), true) != options_.dump.end();
}

void Instrumentation::start(Stage stage) {
  started_[static_cast<std::size_t>(stage)] = Clock::now();
}

void Instrumentation::stop(Stage stage) {
  auto i = static_cast<std::size_t>(stage);
  total_[i] += Clock::now() - started_[i];
  ++runs_[i];
}

void Instrumentation::before(Stage stage) {
  if (options_.time) start(stage);
}

void Instrumentation::after(Stage stage, const std::function<std::string()>& render) {
  if (options_.time) stop(stage);
  if (options_.dump[static_cast<std::size_t>(stage)])
    out_ << "// after " << name(stage) << "\n" << render() << std::flush;
}

void Instrumentation::report() const {
  if (!options_.time) return;
  for (std::size_t i = 0; i < kStageNames.size(); ++i) {
    if (runs_[i] == 0) continue;
    std::chrono::duration<double, std::milli> ms = total_[i];
    out_ << fmt::format("dfgc: {:<14} {:8.2f} ms", kStageNames[i], ms.count());
    if (runs_[i] > 1) out_ << fmt::format(" ({} runs)", runs_[i]);
    out_ << "\n";
  }
  out_ << std::flush;
}

bool PassResults::uncovered() const {
  if (latencies && uncovered_strategy(*latencies)) return true;
  return migrations && std::any_of(migrations->alternatives.begin(), migrations->alternatives.end(),
                                   [](const Migration& m) { return m.uncovered.has_value(); });
}

PassResults run_passes(const ir::Program& p, Stage last, PipelineHooks* hooks,
                       ShortPathPolicy short_path, const PlanOptions& plan,
                       const ActorSignatures* signatures) {
  PassResults r;
  resume_passes(r, p, last, hooks, short_path, plan, signatures);
  return r;
}

void resume_passes(PassResults& r, const ir::Program& p, Stage last, PipelineHooks* hooks,
                   ShortPathPolicy short_path, const PlanOptions& plan,
                   const ActorSignatures* signatures) {
  DFGC_INTERNAL_ASSERT(last >= Stage::schedule && last <= kPlanned && last != Stage::actors,
                       "run_passes() stops at a pass, not at '", name(last), "'");
  // Each pass whose result is missing, while `last` is not passed and no loop is uncovered.
  auto next = [&](Stage stage, bool has) { return !has && stage <= last && !r.uncovered(); };
  if (next(Stage::schedule, r.order.has_value()))
    r.order = run_stage(
        hooks, Stage::schedule, [&] { return schedule(p.dfg, p.arch, p.mapping); },
        [&](const Schedule& order) { return dump(order, p); });
  if (next(Stage::insert_buffers, r.plan.has_value()))
    r.plan = run_stage(
        hooks, Stage::insert_buffers, [&] { return insert_buffers(p.dfg, p.arch, p.mapping); },
        [&](const BufferPlan& plan) { return dump(plan, p); });
  if (next(Stage::buffer_depth, r.depths.has_value()))
    r.depths = run_stage(
        hooks, Stage::buffer_depth, [&] { return buffer_depth(*r.plan); },
        [&](const BufferDepths& depths) { return dump(depths, *r.plan); });
  if (next(Stage::latency, r.latencies.has_value()))
    r.latencies = run_stage(
        hooks, Stage::latency, [&] { return compute_latency(p.dfg, *r.order, *r.plan); },
        [&](const Latencies& l) { return dump(l, p, *r.plan); });
  if (next(Stage::resync_inputs, r.delays.has_value()))
    r.delays = run_stage(
        hooks, Stage::resync_inputs, [&] { return resync_inputs(p, *r.plan, *r.latencies); },
        [&](const DelayLines& delays) { return dump(delays, *r.plan); });
  if (next(Stage::color_buffers, r.colours.has_value()))
    r.colours = run_stage(
        hooks, Stage::color_buffers,
        [&] { return color_buffers(p, *r.order, *r.plan, *r.depths, *r.latencies, *r.delays); },
        [&](const BufferColouring& colours) { return dump(colours, p); });
  if (next(Stage::build_ig, r.ig.has_value()))
    r.ig = run_stage(
        hooks, Stage::build_ig,
        [&] {
          return build_ig(p, *r.order, *r.plan, *r.depths, *r.latencies, *r.delays, *r.colours);
        },
        [&](const ir::Ig& ig) { return ir::render_schedule(p, ig); });
  if (next(Stage::migrations, r.migrations.has_value()))
    r.migrations = run_stage(
        hooks, Stage::migrations,
        [&] { return plan_migrations(p, *r.ig, short_path, plan.joints); },
        [&](const Migrations& m) { return dump(m, p, *r.ig); });
  if (next(Stage::plan_entries, r.hosts.has_value())) {
    r.hosts = run_stage(
        hooks, Stage::plan_entries,
        [&] {
          return plan_entries(p, *r.ig,
                              r.migrations->alternatives.empty() ? nullptr : &*r.migrations, plan);
        },
        [&](const HostPlans& hosts) { return dump(hosts); });
    r.planned = Stage::plan_entries;
  }
  // The plan's later stages complete r.hosts in place, each once.
  auto plan_stage = [&](Stage stage, auto&& run) {
    if (!next(stage, r.planned >= stage)) return;
    run_stage(
        hooks, stage,
        [&] {
          run(*r.hosts);
          return true;
        },
        [&](bool) { return dump(*r.hosts); });
    r.planned = stage;
  };
  plan_stage(Stage::plan_steps, [&](HostPlans& hosts) { plan_steps(hosts); });
  plan_stage(Stage::plan_islands, [&](HostPlans& hosts) { plan_islands(p, hosts); });
  plan_stage(Stage::plan_handoffs, [&](HostPlans& hosts) { plan_handoffs(p, signatures, hosts); });
  plan_stage(Stage::plan_names, [&](HostPlans& hosts) { plan_names(hosts); });
}

namespace {

/// schedule.txt's list of the transfers the host plans copy on the host (mapped tokens), by
/// strategy; empty where there is none.
std::string mapped_tokens_text(const HostPlans& plans) {
  std::string list;
  for (const HostPlan& h : plans.hosts)
    for (ir::Strategy s : ir::kStrategies) {
      const StrategyPlan& sp = h.strategies[s];
      for (const Entry& e : sp.entries) {
        const Entry::Transfer* t = e.transfer_if();
        if (!t || !t->mapped) continue;
        const SlotRef& gpu = h.pe(t->write->pe).kind == ir::PeKind::gpu ? *t->write : *t->read;
        list += fmt::format("  {} {} ({} bytes): copied on the host by {}, {} colour {} mapped\n",
                            ir::to_string(s), e.short_name, t->bytes, h.pe(e.runner).name,
                            h.pe(gpu.pe).name, gpu.colour);
      }
    }
  if (list.empty()) return list;
  return fmt::format(
             "mapped tokens (a GPU's colours of at most {} bytes exchanged with cpus only, touched "
             "by mappable ports only; --mapped-tokens)\n",
             plans.program->mapped_bytes) +
         list;
}

}  // namespace

std::string render_schedule(const ir::Program& program, const PassResults& results) {
  std::string out = ir::render_schedule(program, *results.ig);
  for (const ir::Island& island : program.islands) out += ir::dump(program, island);
  if (results.migrations) out += dump(*results.migrations, program, *results.ig);
  // On several hosts, the MPI tags the alternatives add after the base's transfers.
  if (results.hosts && !results.hosts->hosts.empty() && results.hosts->program->control_tag >= 0) {
    const HostPlan& h = results.hosts->hosts.front();
    out += "migration tags (MPI)\n";
    for (const NetTransfer& t : h.program->net_transfers)
      if (t.alternative >= 0)
        out += fmt::format("  migration {} ({}) net tag {} {} {} -> {}\n", t.alternative,
                           h.migrations[static_cast<std::size_t>(t.alternative)].node_name, t.tag,
                           ir::to_string(t.strategy), t.from, t.to);
    out += fmt::format("  control tag {}: the ranks' agreement on live moves\n",
                       h.program->control_tag);
    for (std::size_t a = 0; a < h.migrations.size(); ++a)
      if (h.migrations[a].state_tag >= 0)
        out += fmt::format("  migration {} ({}) state tag {}\n", a, h.migrations[a].node_name,
                           h.migrations[a].state_tag);
  }
  if (results.hosts) out += mapped_tokens_text(*results.hosts);
  return out;
}

ir::Ig run_passes(const ir::Program& program, PipelineHooks* hooks) {
  return std::move(*run_passes(program, Stage::build_ig, hooks).ig);
}

}  // namespace dfgc
