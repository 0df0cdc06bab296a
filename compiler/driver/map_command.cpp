/// \file
/// `dfgc map SPEC --costs FILE [options]`: choose the free nodes' PEs and the tunable params'
/// values, print the choice, its predicted figures and the runners-up; --apply writes the choice
/// into the spec. It runs the pipeline's parse and sema, then the passes on every mapping whose
/// implementation graph the search builds (timed by --time-passes), then the rest of the
/// pipeline on the chosen one (dumped by --dump-after as well): up to build_ig for the report's
/// prediction, or as far as --emit needs, which prints that output of the chosen mapping
/// instead of the report (--emit=code writes its project into -o DIR and prints the report).

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "driver/commands.hpp"
#include "driver/pipeline.hpp"
#include "driver/replace_file.hpp"
#include "mapping/fit.hpp"
#include "mapping/report.hpp"
#include "stages/stages.hpp"
#include "support/assert.hpp"

namespace dfgc::driver {

using namespace dfgc::mapping;

namespace {

std::optional<double> number(std::string_view text, std::string_view& rest) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || !std::isfinite(v) || v < 0) return std::nullopt;
  rest = text.substr(static_cast<std::size_t>(end - text.data()));
  return v;
}

/// "4" (cycles) or "20ms" / "500us" / "1s".
bool parse_latency(std::string_view text, SearchOptions& o) {
  std::string_view unit;
  auto v = number(text, unit);
  if (!v) return false;
  if (unit.empty()) {
    if (*v != std::floor(*v) || *v > std::numeric_limits<std::uint32_t>::max()) return false;
    o.max_latency_cycles = static_cast<std::uint32_t>(*v);
    return true;
  }
  double scale = unit == "s" ? 1 : unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 0;
  if (scale == 0) return false;
  o.max_latency = *v * scale;
  return true;
}

bool parse_memory(std::string_view text, SearchOptions& o) {
  std::string_view unit;
  auto v = number(text, unit);
  const std::pair<std::string_view, double> units[] = {
      {"B", 1},        {"KB", 1e3},        {"MB", 1e6},          {"GB", 1e9},
      {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  for (const auto& [name, scale] : units)
    if (v && unit == name) {
      // Below 2^63 bytes, so that a saturated count (ir/byte_count.hpp) exceeds every bound.
      double bytes = *v * scale;
      if (bytes >= 0x1p63) return false;
      o.max_memory = static_cast<std::int64_t>(bytes);
      return true;
    }
  return false;
}

std::optional<std::uint64_t> count(std::string_view text) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

/// Writes each edited file and says so on `said`. Each file is replaced whole (replace_file()):
/// a full disk or a kill leaves it as it was. All are written beside their places before any is
/// renamed, so that a failure leaves every file as it was but for a failed rename.
bool write_files(const std::vector<std::pair<std::uint32_t, std::string>>& files,
                 const SourceManager& sources, std::ostream& said) {
  std::vector<std::unique_ptr<PendingFile>> pending;
  for (const auto& [file, text] : files) {
    const std::string& name = sources.name(file);
    ReplaceTarget target = replace_target(name);
    std::optional<std::string> error;
    if (!target.error.empty())
      error = fmt::format("cannot write '{}': {}", name, target.error);
    else
      error = pending
                  .emplace_back(
                      std::make_unique<PendingFile>(target.file, fmt::format("'{}'", name), text))
                  ->error();
    if (error) {
      std::cerr << "dfgc: error: " << *error << "\n";
      return false;
    }
  }
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (auto error = pending[i]->commit()) {
      std::cerr << "dfgc: error: " << *error << "\n";
      return false;
    }
    said << "\nwrote " << sources.name(files[i].first) << "\n";
  }
  return true;
}

class MapCommand final : public Command {
 public:
  std::string_view name() const override { return "map"; }
  std::string_view usage() const override { return "<spec.dfg> --costs FILE [options]"; }
  std::string_view summary() const override {
    return "choose the free nodes' PEs and the tunable params' values from a costs file,\n"
           "predict and explain the result; with --emit, print (or write, code) that output\n"
           "of the chosen mapping (options: 'dfgc help map')";
  }
  std::string_view description() const override {
    return "Chooses a PE for every free node (`@ any`, `@ any gpu`, `@ any cpu`, `@ B.*`), a\n"
           "replica set for one with a range (`@ any cpu replicas in [1, 4]`) and a value for\n"
           "every tunable param (`param split = 20 in [1, 39];`), predicts the result and\n"
           "explains it. -D fixes a param (a tunable one is then not tuned). It runs parse,\n"
           "sema, then the passes up to build_ig on every mapping whose implementation graph it\n"
           "builds; --dump-after shows the stages run on the chosen mapping.\n"
           "\n"
           "--emit=WHAT prints WHAT of the chosen mapping (the spec as --apply would write it)\n"
           "instead of the report: ir, schedule, dot, svg or plan, running the actors stage\n"
           "(unless --no-actors) and the passes that needs; --emit=code -o DIR writes its\n"
           "project into DIR, as 'compile -o DIR' would, and prints the report. --emit=ast\n"
           "is refused: the syntax tree is the spec's as written ('dfgc dump-ast').\n";
  }

  OptionTable options() override {
    return {
        {"--costs", "FILE", "a file name",
         "firing times, link figures, memory, overhead (docs/costs.md); required;\n"
         "several are merged in order (node measurements add up, a later\n"
         "file's other entries replace an earlier's), e.g. an estimate with\n"
         "`fit` formulas, then the profiles of runs (`--profile FILE`)",
         [this](std::string_view v) {
           costs_.emplace_back(v);
           return true;
         }},
        {"--objective", "WHAT", "period, latency or memory",
         "period (the default), latency or memory",
         [this](std::string_view v) {
           if (v == "period")
             search_.objective = Objective::period;
           else if (v == "latency")
             search_.objective = Objective::latency;
           else if (v == "memory")
             search_.objective = Objective::memory;
           else
             return false;
           return true;
         }},
        {"--strategy", "WHICH", "overlap or no-overlap",
         "the strategy optimised: overlap (the default) or no-overlap",
         [this](std::string_view v) {
           if (v == "overlap")
             search_.strategy = ir::Strategy::overlap;
           else if (v == "no-overlap")
             search_.strategy = ir::Strategy::no_overlap;
           else
             return false;
           return true;
         }},
        {"--max-latency", "L", "a number of cycles or a time such as 20ms",
         "a bound: L cycles (an integer) or a time (20ms, 500us, 1s)",
         [this](std::string_view v) { return parse_latency(v, search_); }},
        {"--max-memory", "M", "a size below 8 EiB such as 512MiB or 2GiB",
         "a bound on any one PE after buffer sharing (512MiB, 2GiB, 1000000B),\nbelow 8 EiB",
         [this](std::string_view v) { return parse_memory(v, search_); }},
        {"--search", "HOW", "auto, exact or heuristic",
         "auto (exact up to 1e6 mappings, the default), exact or heuristic",
         [this](std::string_view v) {
           if (v == "auto")
             search_.method = SearchOptions::Method::automatic;
           else if (v == "exact")
             search_.method = SearchOptions::Method::exact;
           else if (v == "heuristic")
             search_.method = SearchOptions::Method::heuristic;
           else
             return false;
           return true;
         }},
        {"--alternatives", "N", "a number from 0 to 100", "runners-up to show (default 5)",
         [this](std::string_view v) {
           auto n = count(v);
           if (!n || *n > 100) return false;
           search_.alternatives = *n;
           return true;
         }},
        {"--seed", "N", "a non-negative integer", "the heuristic's seed (default 1)",
         [this](std::string_view v) {
           auto n = count(v);
           if (!n) return false;
           search_.seed = *n;
           return true;
         }},
        {"--explain", "", "", "which resource sets the period, by how much, the others' slack",
         [this](std::string_view) { return explain_ = true; }},
        {"--apply", "", "", "write the choice into the spec (only the placements and tuned values)",
         [this](std::string_view) { return apply_ = true; }},
        {"-o", "DIR", "a directory",
         "with --emit=code: where the chosen mapping's project is written (as\n"
         "'compile -o DIR')",
         [this](std::string_view v) {
           out_dir_ = std::string(v);
           return true;
         }},
        {"--depfile", "FILE", "a file",
         "with --emit=code: also write a Make-style depfile of every file read (the\n"
         "spec, its imports, the costs files, the actor headers and what they include)\n"
         "for DIR/dfgc-manifest.txt (as 'compile --depfile')",
         [this](std::string_view v) {
           depfile_ = std::string(v);
           return true;
         }},
        {"--evaluate", "", "",
         "no search: print the model's figures for the spec's own mapping (every\n"
         "node pinned, params as the spec sets them) as JSON on stdout",
         [this](std::string_view) { return evaluate_ = true; }},
    };
  }

  /// parse, sema, then the stages run on the chosen mapping: the actors only for --emit.
  std::vector<Stage> stages(const CommonOptions& common) const override {
    std::vector<Stage> out = {Stage::parse, Stage::sema};
    for (auto s = Stage::schedule; s <= chosen_last(common);
         s = static_cast<Stage>(static_cast<int>(s) + 1))
      if (s != Stage::actors || reads_actors(common)) out.push_back(s);
    return out;
  }

  std::optional<std::string> check(const CommonOptions& common) const override {
    if (costs_.empty()) return "'map' needs a costs file: --costs FILE (docs/costs.md)";
    if (evaluate_ && (apply_ || explain_))
      return "'--evaluate' prints the figures only; it takes neither --apply nor --explain";
    if (!common.emit) {
      if (!depfile_.empty())
        return "'map --depfile' is written with the project of --emit=code -o DIR: add them, or "
               "drop '--depfile'";
      if (!out_dir_.empty())
        return "'map -o DIR' writes the chosen mapping's project with --emit=code only: add it, "
               "or drop '-o'";
      return std::nullopt;
    }
    const Emit what = *common.emit;
    if (evaluate_)
      return fmt::format("'--evaluate' prints the figures only; it takes no '--emit={}'",
                         driver::name(what));
    if (what == Emit::ast)
      return "'map --emit=ast': the syntax tree is the spec's as written, before map chooses: "
             "dfgc dump-ast SPEC";
    if (what == Emit::code && out_dir_.empty())
      return "'map --emit=code' writes the chosen mapping's project: add -o DIR";
    if (what != Emit::code && !out_dir_.empty())
      return fmt::format("'map --emit={}' writes nothing: drop '-o'", driver::name(what));
    if (what != Emit::code && !depfile_.empty())
      return fmt::format("'map --emit={}' writes nothing: drop '--depfile'", driver::name(what));
    if (what == Emit::code && !common.read_actors)
      return "'map --emit=code' reads the actor headers: drop '--no-actors'";
    if (what != Emit::code && explain_)
      return fmt::format(
          "'--explain' adds to the report, which '--emit={}' prints instead: drop "
          "one of them",
          driver::name(what));
    return std::nullopt;
  }

  int run(const std::string& spec_file, const CommonOptions& common) override;

 private:
  /// The last stage run on the chosen mapping: --emit's, else build_ig (the report's prediction).
  static Stage chosen_last(const CommonOptions& common) {
    return common.emit ? last_stage(*common.emit) : Stage::build_ig;
  }
  /// Whether the chosen mapping's actor headers are read: for what --emit prints, as the other
  /// commands do; the report alone needs none.
  static bool reads_actors(const CommonOptions& common) {
    return common.emit && common.read_actors;
  }
  /// Whether the report is printed: not when --emit prints something else on stdout.
  static bool prints_report(const CommonOptions& common) {
    return !common.emit || *common.emit == Emit::code;
  }

  std::vector<std::string> costs_;
  SearchOptions search_;
  bool explain_ = false;
  bool apply_ = false;
  bool evaluate_ = false;
  std::string out_dir_;
  std::string depfile_;
};

/// A node with a replica range (`@ any cpu replicas in [1, 4]`) must be one that replicas may
/// run: the actors stage, on the program with each such node dealt over its most shares, reports
/// a class that keeps state between firings, as `compile` would of the set --apply writes. Its
/// other diagnostics (warnings on placeholder placements) are dropped.
bool check_replica_ranges(const Spec& spec, const ir::Program& base, const PipelineInput& in,
                          SourceManager& sources, DiagnosticEngine& diags) {
  PipelineInput probe_in = in;
  probe_in.read_actors = true;
  for (const ir::Node& n : base.dfg.nodes)
    if (n.replicas_max > 1) probe_in.sema.replica_shares[n.name] = n.replicas_max;
  if (probe_in.sema.replica_shares.empty()) return true;
  DiagnosticEngine scratch(sources);
  Compilation probe;
  probe.program = analyze(spec, probe_in.sema, sources, scratch);
  if (probe.program &&
      run_pipeline_after_sema(probe_in, Stage::actors, sources, scratch, nullptr, probe))
    return true;
  scratch.print(std::cerr);
  diags.error({},
              "a node with a replica range cannot run replicas (above); dfgc map chose nothing");
  return false;
}

}  // namespace

int MapCommand::run(const std::string& spec_file, const CommonOptions& common) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  diags.set_warnings_as_errors(common.werror);
  Instrumentation instrumentation(common.instrumentation(), std::cerr);
  auto finish = [&](int status) {
    instrumentation.report();
    diags.print(std::cerr);
    return diags.has_errors() ? 1 : status;
  };
  PipelineInput in{common.sema, false, {}, {}};
  in.sema.spec_file = spec_file;
  in.sema.allow_free_nodes = true;
  Compilation front;
  if (!run_pipeline(in, Stage::sema, sources, diags, instrumentation.hooks(), front))
    return finish(1);
  const Spec& spec = *front.spec;
  const ir::Program& base = *front.program;
  if (common.read_actors && !check_replica_ranges(spec, base, in, sources, diags)) return finish(1);
  std::optional<CostFile> costs;
  for (const std::string& file : costs_) {
    auto next = load_costs(file, sources, diags);
    if (!next) continue;
    if (!costs)
      costs = std::move(next);
    else
      merge_costs(*costs, std::move(*next));
  }
  if (!costs || diags.has_errors()) return finish(1);
  auto fit = fit_costs(*costs, base, diags);
  if (!fit) return finish(1);
  if (evaluate_ && !fit->coefficients.empty())
    std::cerr << "dfgc map: " << describe_fit(*fit) << "\n";
  auto base_table = resolve_costs(*costs, base, diags);
  if (!base_table) return finish(1);
  if (evaluate_) {
    for (const ir::Node& n : base.dfg.nodes)
      if (!n.candidates.empty())
        diags.error(n.mapping_loc,
                    fmt::format("--evaluate needs every node pinned; node '{}' is free", n.name));
    if (diags.has_errors()) return finish(1);
    // The figures are the base mapping's: its loops are checked, not its alternatives'.
    PassResults passes = run_passes(base, Stage::build_ig, instrumentation.hooks());
    if (!check_loops(base, passes, diags)) return finish(1);
    const ir::Ig& ig = *passes.ig;
    std::cout << render_evaluation(base, predict(base, ig, *base_table, common.plan),
                                   base_table->overhead);
    return finish(0);
  }

  SearchOptions search = search_;
  search.hooks = instrumentation.timing_only();
  search.plan = common.plan;
  auto result = tune_and_search(spec, base, in.sema, *costs, search, sources, diags);
  if (!result) return finish(1);
  if (result->best.empty()) {
    diags.error({},
                "no mapping meets the constraints (--max-latency, --max-memory, the GPUs' "
                "memory, the initial tokens of the loops) with these costs");
    std::cerr << render_loop_refusal(*result, nullptr);
    return finish(1);
  }
  const TunedCandidate& best = result->best.front();
  auto program = program_for(spec, in.sema, best, sources);
  DFGC_INTERNAL_ASSERT(program, "the chosen tuning no longer passes sema");

  // The rest of the pipeline on the chosen mapping, every node pinned as --apply writes it.
  PipelineInput chosen_in{in.sema,  reads_actors(common), out_dir_,
                          depfile_, common.short_path,    common.plan};
  Compilation chosen;
  chosen.program = *program;
  for (const auto& module : spec.modules) chosen.also_read.push_back(sources.name(module->file));
  chosen.also_read.insert(chosen.also_read.end(), costs_.begin(), costs_.end());
  for (ir::Node& node : chosen.program->dfg.nodes) node.candidates.clear();
  bool ok = run_pipeline_after_sema(chosen_in, chosen_last(common), sources, diags,
                                    instrumentation.hooks(), chosen);
  if (!ok || diags.has_errors()) {
    int status = finish(1);
    if (chosen.write_error) std::cerr << "dfgc: error: " << *chosen.write_error << "\n";
    return status;
  }

  std::vector<SplitPlacement> split;
  auto edits = mapping_edits(spec, *program, program->mapping.pe_of, best.tuned, sources, &split);
  if (prints_report(common)) {
    DiagnosticEngine scratch(sources);
    auto table = resolve_costs(*costs, *program, scratch);
    DFGC_INTERNAL_ASSERT(table, "the chosen tuning's costs no longer resolve");
    Prediction prediction = predict(*program, *chosen.passes.ig, *table, common.plan);
    // The edited lines, then one placement a node for each written once that the nodes leave.
    std::vector<std::string> lines = edited_lines(edits, sources);
    for (const SplitPlacement& s : split) lines.insert(lines.end(), s.lines.begin(), s.lines.end());
    Report report{&*program, &prediction, &*result, &search_, std::move(lines), describe_fit(*fit)};
    report.splits = !split.empty();
    std::cout << render_report(report);
    if (explain_) std::cout << render_explain(*program, prediction);
  } else if (auto error = print_emit(*common.emit, chosen, sources)) {
    std::cerr << "dfgc: error: " << *error << "\n";
    return finish(1);
  }
  if (apply_ && !split.empty()) {
    for (const SplitPlacement& s : split)
      std::cerr << "dfgc: error: --apply: " << s.message << "\n";
    return finish(1);
  }
  if (apply_) {
    // Beside the report on stdout; on stderr when stdout carries what --emit printed.
    std::ostream& said = prints_report(common) ? std::cout : std::cerr;
    if (!write_files(apply_edits(edits, sources), sources, said)) return finish(1);
  }
  return finish(0);
}

std::unique_ptr<Command> make_map_command() { return std::make_unique<MapCommand>(); }

}  // namespace dfgc::driver
