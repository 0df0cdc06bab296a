#include "mapping/map_command.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "mapping/fit.hpp"
#include "mapping/report.hpp"
#include "passes/pipeline.hpp"
#include "support/assert.hpp"

namespace dfgc::mapping {

const char* const kMapUsage = R"(usage: dfgc map <spec.dfg> --costs FILE [options]

Chooses a PE for every free node (`@ any`, `@ any gpu`, `@ any cpu`, `@ B.*`) and a value for
every tunable param (`param split = 20 in [1, 39];`), predicts the result and explains it.

options:
  --costs FILE           firing times, link figures, memory, overhead (docs/costs.md); required;
                         several are merged in order (node measurements add up, a later
                         file's other entries replace an earlier's), e.g. an estimate with
                         `fit` formulas, then the profiles of runs (`--profile FILE`)
  --objective=WHAT       period (the default), latency or memory
  --strategy=WHICH       the strategy optimised: overlap (the default) or no-overlap
  --max-latency=L        a bound: L cycles (an integer) or a time (20ms, 500us, 1s)
  --max-memory=M         a bound on any one PE after buffer sharing (512MiB, 2GiB, 1000000B),
                         below 8 EiB
  --search=HOW           auto (exact up to 1e6 mappings, the default), exact or heuristic
  --alternatives=N       runners-up to show (default 5)
  --seed=N               the heuristic's seed (default 1)
  --explain              which resource sets the period, by how much, the others' slack
  --apply                write the choice into the spec (only the placements and tuned values)
  --evaluate             no search: print the model's figures for the spec's own mapping (every
                         node pinned, params as the spec sets them) as JSON on stdout
  -D NAME=VALUE          fix a param (a tunable one is then not tuned)
  --app NAME             the app to use when the spec declares several
)";

namespace {

struct MapOptions {
  std::string spec;
  std::vector<std::string> costs;
  SemaOptions sema;
  SearchOptions search;
  bool explain = false;
  bool apply = false;
  bool evaluate = false;
};

int usage_error(const std::string& message) {
  std::cerr << "dfgc: error: " << message << "\nrun 'dfgc map --help' for usage\n";
  return 1;
}

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

/// Parses the arguments after `map`; prints the reason and returns nullopt on a bad one.
std::optional<MapOptions> parse(const std::vector<std::string_view>& args, bool& help) {
  MapOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string_view> {
      if (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=')
        return a.substr(flag.size() + 1);
      if (a == flag && i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    auto is = [&](std::string_view flag) {
      return a == flag || a.starts_with(std::string(flag) + "=");
    };
    auto bad = [&](std::string_view flag, std::string_view expected) {
      usage_error(fmt::format("'{}' takes {}", flag, expected));
      return std::nullopt;
    };
    if (a == "-h" || a == "--help") {
      help = true;
      return o;
    } else if (a == "--explain") {
      o.explain = true;
    } else if (a == "--apply") {
      o.apply = true;
    } else if (a == "--evaluate") {
      o.evaluate = true;
    } else if (is("--costs")) {
      auto v = value("--costs");
      if (!v || v->empty()) return bad("--costs", "a file name");
      o.costs.emplace_back(*v);
    } else if (is("--objective")) {
      auto v = value("--objective");
      if (v == "period")
        o.search.objective = Objective::period;
      else if (v == "latency")
        o.search.objective = Objective::latency;
      else if (v == "memory")
        o.search.objective = Objective::memory;
      else
        return bad("--objective", "period, latency or memory");
    } else if (is("--strategy")) {
      auto v = value("--strategy");
      if (v == "overlap")
        o.search.strategy = ir::Strategy::overlap;
      else if (v == "no-overlap")
        o.search.strategy = ir::Strategy::no_overlap;
      else
        return bad("--strategy", "overlap or no-overlap");
    } else if (is("--max-latency")) {
      auto v = value("--max-latency");
      if (!v || !parse_latency(*v, o.search))
        return bad("--max-latency", "a number of cycles or a time such as 20ms");
    } else if (is("--max-memory")) {
      auto v = value("--max-memory");
      if (!v || !parse_memory(*v, o.search))
        return bad("--max-memory", "a size below 8 EiB such as 512MiB or 2GiB");
    } else if (is("--search")) {
      auto v = value("--search");
      if (v == "auto")
        o.search.method = SearchOptions::Method::automatic;
      else if (v == "exact")
        o.search.method = SearchOptions::Method::exact;
      else if (v == "heuristic")
        o.search.method = SearchOptions::Method::heuristic;
      else
        return bad("--search", "auto, exact or heuristic");
    } else if (is("--alternatives")) {
      auto v = value("--alternatives");
      auto n = v ? count(*v) : std::nullopt;
      if (!n || *n > 100) return bad("--alternatives", "a number from 0 to 100");
      o.search.alternatives = *n;
    } else if (is("--seed")) {
      auto v = value("--seed");
      auto n = v ? count(*v) : std::nullopt;
      if (!n) return bad("--seed", "a non-negative integer");
      o.search.seed = *n;
    } else if (a.starts_with("-D")) {
      std::string_view v = a.size() > 2 ? a.substr(2) : (i + 1 < args.size() ? args[++i] : "");
      auto eq = v.find('=');
      if (eq == std::string_view::npos || eq == 0) return bad("-D", "NAME=VALUE");
      o.sema.defines.push_back({std::string(v.substr(0, eq)), std::string(v.substr(eq + 1))});
    } else if (is("--app")) {
      auto v = value("--app");
      if (!v || v->empty()) return bad("--app", "an app name");
      o.sema.app = std::string(*v);
    } else if (a.starts_with("-")) {
      usage_error(fmt::format("unknown option '{}' for 'map'", a));
      return std::nullopt;
    } else if (o.spec.empty()) {
      o.spec = a;
    } else {
      usage_error(fmt::format("unexpected argument '{}'", a));
      return std::nullopt;
    }
  }
  if (o.spec.empty()) {
    usage_error("'map' needs a spec file");
    return std::nullopt;
  }
  if (o.costs.empty()) {
    usage_error("'map' needs a costs file: --costs FILE (docs/costs.md)");
    return std::nullopt;
  }
  if (o.evaluate && (o.apply || o.explain)) {
    usage_error("'--evaluate' prints the figures only; it takes neither --apply nor --explain");
    return std::nullopt;
  }
  o.sema.spec_file = o.spec;
  o.sema.allow_free_nodes = true;
  return o;
}

/// Writes each edited file and says so on stdout.
bool write_files(const std::vector<std::pair<std::uint32_t, std::string>>& files,
                 const SourceManager& sources) {
  for (const auto& [file, text] : files) {
    std::ofstream out(sources.name(file), std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      std::cerr << "dfgc: error: cannot write '" << sources.name(file) << "'\n";
      return false;
    }
    std::cout << "\nwrote " << sources.name(file) << "\n";
  }
  return true;
}

int run(const MapOptions& o) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto finish = [&](int status) {
    diags.print(std::cerr);
    return diags.has_errors() ? 1 : status;
  };
  auto spec = load_spec(o.spec, sources, diags);
  if (!spec || diags.has_errors()) return finish(1);
  auto base = analyze(*spec, o.sema, sources, diags);
  if (!base || diags.has_errors()) return finish(1);
  std::optional<CostFile> costs;
  for (const std::string& file : o.costs) {
    auto next = load_costs(file, sources, diags);
    if (!next) continue;
    if (!costs)
      costs = std::move(next);
    else
      merge_costs(*costs, std::move(*next));
  }
  if (!costs || diags.has_errors()) return finish(1);
  auto fit = fit_costs(*costs, *base, diags);
  if (!fit) return finish(1);
  if (o.evaluate && !fit->coefficients.empty()) std::cerr << "dfgc map: " << describe_fit(*fit) << "\n";
  auto base_table = resolve_costs(*costs, *base, diags);
  if (!base_table) return finish(1);
  if (o.evaluate) {
    for (const ir::Node& n : base->dfg.nodes)
      if (!n.candidates.empty())
        diags.error(n.mapping_loc, fmt::format("--evaluate needs every node pinned; node '{}' is free",
                                       n.name));
    if (diags.has_errors()) return finish(1);
    std::cout << render_evaluation(*base, predict(*base, run_passes(*base), *base_table),
                                   base_table->overhead);
    return finish(0);
  }

  auto result = tune_and_search(*spec, *base, o.sema, *costs, o.search, sources, diags);
  if (!result) return finish(1);
  if (result->best.empty()) {
    diags.error({},
                "no mapping meets the constraints (--max-latency, --max-memory, the GPUs' "
                "memory) with these costs");
    return finish(1);
  }
  const TunedCandidate& best = result->best.front();
  auto program = program_for(*spec, o.sema, best, sources);
  DFGC_INTERNAL_ASSERT(program, "the chosen tuning no longer passes sema");
  DiagnosticEngine scratch(sources);
  auto table = resolve_costs(*costs, *program, scratch);
  DFGC_INTERNAL_ASSERT(table, "the chosen tuning's costs no longer resolve");
  Prediction prediction = predict(*program, run_passes(*program), *table);

  auto edits = mapping_edits(*spec, *program, best.candidate.pe_of, best.tuned, sources);
  Report report{&*program, &prediction, &*result, &o.search, edited_lines(edits, sources),
                describe_fit(*fit)};
  std::cout << render_report(report);
  if (o.explain) std::cout << render_explain(*program, prediction);
  if (o.apply) {
    if (!write_files(apply_edits(edits, sources), sources)) return finish(1);
  }
  return finish(0);
}

}  // namespace

int map_main(const std::vector<std::string_view>& args) {
  bool help = false;
  auto options = parse(args, help);
  if (help) {
    std::cout << kMapUsage;
    return 0;
  }
  if (!options) return 1;
  return run(*options);
}

}  // namespace dfgc::mapping
