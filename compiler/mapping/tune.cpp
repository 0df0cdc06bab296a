#include "mapping/tune.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace dfgc::mapping {

namespace {

SemaOptions with_values(const SemaOptions& sema, const std::vector<TunedValue>& values) {
  SemaOptions o = sema;
  o.allow_free_nodes = true;
  for (const TunedValue& v : values) {
    if (v.replicas)
      o.replica_shares[v.param] = static_cast<std::uint32_t>(v.value);
    else
      o.defines.push_back({v.param, std::to_string(v.value)});
  }
  return o;
}

/// "taps = 3, f over 2 shares": one combination, as the diagnostics name it.
std::string describe(const std::vector<TunedValue>& values) {
  std::string text;
  for (const TunedValue& v : values) {
    if (!text.empty()) text += ", ";
    text += v.replicas ? fmt::format("node '{}' over {} shares", v.param, v.value)
                       : fmt::format("{} = {}", v.param, v.value);
  }
  return text;
}

/// The spec's free nodes of `program` (a combination's) and their placements under `pe_of`.
std::vector<std::pair<std::string, std::string>> placed(const ir::Program& program,
                                                        const std::vector<ir::PeId>& pe_of) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const ir::Node& n : program.dfg.nodes) {
    if (n.candidates.empty() || n.copy != 0) continue;
    const std::string& name = n.spec_name();
    if (n.share == 0) result.emplace_back(name, placement_text(program, pe_of, name));
  }
  return result;
}

/// "f @ A.c1, g @ {A.c1, A.c2}"; "(pinned)" without free nodes.
std::string where(const ir::Program& program, const std::vector<ir::PeId>& pe_of) {
  std::string text;
  for (const auto& [node, at] : placed(program, pe_of))
    text += fmt::format("{}{} @ {}", text.empty() ? "" : ", ", node, at);
  return text.empty() ? "(pinned)" : text;
}

/// The same params' values (replica counts aside: the placements show them).
bool same_params(const std::vector<TunedValue>& a, const std::vector<TunedValue>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].replicas && a[i].value != b[i].value) return false;
  return true;
}

/// What the search varies besides placements: a tunable param's value, or how many shares a
/// free node with a replica range is dealt over.
struct Dimension {
  std::string name;
  std::int64_t min = 0, max = 0;
  bool replicas = false;
};

std::vector<Dimension> dimensions(const ir::Program& base, const SemaOptions& sema) {
  std::vector<Dimension> result;
  for (const ir::Param* p : tunables(base, sema))
    result.push_back({p->name, p->tune->min, p->tune->max, false});
  for (const ir::Node& n : base.dfg.nodes)
    if (n.replicas_max > 1) result.push_back({n.name, n.replicas_min, n.replicas_max, true});
  return result;
}

bool better_tuned(const TunedCandidate& a, const TunedCandidate& b) {
  if (better(a.candidate, b.candidate)) return true;
  if (better(b.candidate, a.candidate)) return false;
  for (std::size_t i = 0; i < a.tuned.size(); ++i)
    if (a.tuned[i].value != b.tuned[i].value) return a.tuned[i].value < b.tuned[i].value;
  return false;
}

/// The next combination in odometer order (the last param fastest); false after the last.
bool next_combination(std::vector<TunedValue>& values, const std::vector<Dimension>& dims) {
  for (std::size_t i = values.size(); i-- > 0;) {
    if (values[i].value < dims[i].max) {
      ++values[i].value;
      return true;
    }
    values[i].value = dims[i].min;
  }
  return false;
}

/// A candidate's period (and score, for the period) per cycle of the app's written batch: a
/// combination whose replicas raised the batch runs more iterations a cycle.
void per_written_batch(Candidate& c, const ir::Program& program) {
  const double cycles = static_cast<double>(program.batch) / program.written_batch;
  // To the picosecond: the periods of different counts are compared, and the sums of firing
  // times behind them differ in their last bits where the counts tie.
  auto per = [&](double seconds) { return std::round(seconds / cycles * 1e12) / 1e12; };
  if (c.score == c.period) c.score = per(c.score);
  c.period = per(c.period);
}

}  // namespace

std::vector<const ir::Param*> tunables(const ir::Program& program, const SemaOptions& sema) {
  std::vector<const ir::Param*> result;
  for (const ir::Param& p : program.params) {
    bool fixed = std::any_of(sema.defines.begin(), sema.defines.end(),
                             [&](const Define& d) { return d.name == p.name; });
    if (p.tune && !fixed) result.push_back(&p);
  }
  return result;
}

std::optional<TuneResult> tune_and_search(const Spec& spec, const ir::Program& base,
                                          const SemaOptions& sema, const CostFile& costs,
                                          const SearchOptions& options,
                                          const SourceManager& sources, DiagnosticEngine& diags) {
  const std::vector<Dimension> params = dimensions(base, sema);
  double combinations = 1;
  for (const Dimension& d : params) combinations *= static_cast<double>(d.max - d.min) + 1;
  if (combinations > static_cast<double>(kMaxCombinations)) {
    diags.error({}, fmt::format("the tunable params and replica ranges have {:.0f} combinations "
                                "of values, more than {}; narrow their ranges or fix some params "
                                "with -D",
                                combinations, kMaxCombinations));
    return std::nullopt;
  }
  TuneResult result;
  result.mappings = mapping_count(base);
  for (const ir::Node& n : base.dfg.nodes) result.free_nodes += n.candidates.empty() ? 0 : 1;
  std::vector<TunedValue> values;
  for (const Dimension& d : params) values.push_back({d.name, d.min, d.replicas});
  do {
    DiagnosticEngine scratch(sources);
    auto program =
        params.empty()
            ? std::optional<ir::Program>(base)
            : run_stage(
                  options.hooks, Stage::sema,
                  [&] { return analyze(spec, with_values(sema, values), sources, scratch); },
                  [](const std::optional<ir::Program>& p) { return p ? ir::dump(*p) : ""; });
    ++result.combinations;
    if (!program) {
      if (result.rejected++ == 0)
        for (const Diagnostic& d : scratch.diagnostics())
          if (d.severity == Severity::error) {
            result.first_rejected = describe(values) + ": " + d.message;
            break;
          }
      continue;
    }
    auto table = resolve_costs(costs, *program, params.empty() ? diags : scratch);
    if (!table) {
      if (!params.empty())
        diags.error({}, fmt::format("with {}: the costs do not resolve", describe(values)));
      return std::nullopt;
    }
    SearchResult found = search(*program, *table, options);
    result.exact &= found.exact;
    result.evaluated += found.evaluated;
    result.built += found.built;
    result.loop_refused += found.loop_refused;
    if (found.loop_best) per_written_batch(found.loop_best->candidate, *program);
    if (found.loop_best &&
        (!result.loop_best || better(found.loop_best->candidate, result.loop_best->candidate))) {
      result.loop_where = where(*program, found.loop_best->candidate.pe_of);
      result.loop_why = describe(found.loop_best->loop, found.loop_best->strategy, program->dfg);
      result.loop_best = std::move(found.loop_best);
    }
    for (Candidate& c : found.best) {
      per_written_batch(c, *program);
      auto at = placed(*program, c.pe_of);
      // Shares permuted over the same PEs are one placement.
      if (std::any_of(result.best.begin(), result.best.end(), [&](const TunedCandidate& b) {
            return b.placed == at && same_params(b.tuned, values);
          }))
        continue;
      TunedCandidate t{values, std::move(c), std::move(at)};
      result.best.insert(std::upper_bound(result.best.begin(), result.best.end(), t, better_tuned),
                         std::move(t));
    }
    if (result.best.size() > options.alternatives + 1) result.best.resize(options.alternatives + 1);
  } while (next_combination(values, params));
  return result;
}

std::optional<ir::Program> program_for(const Spec& spec, const SemaOptions& sema,
                                       const TunedCandidate& c, const SourceManager& sources) {
  DiagnosticEngine scratch(sources);
  SemaOptions o = with_values(sema, c.tuned);
  auto searched = analyze(spec, o, sources, scratch);
  if (!searched) return std::nullopt;
  // Again with every free node placed as --apply writes it: a node dealt over shares becomes
  // its replica set (the unfolding may then take fewer copies), so that the program is the one
  // the edited spec gives.
  o.replica_shares.clear();
  for (const ir::Node& n : searched->dfg.nodes)
    if (!n.candidates.empty()) {
      const std::string& name = n.spec_name();
      o.placements.try_emplace(name, placement_of(*searched, c.candidate.pe_of, name));
    }
  return analyze(spec, o, sources, scratch);
}

}  // namespace dfgc::mapping
