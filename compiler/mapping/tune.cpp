#include "mapping/tune.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dfgc::mapping {

namespace {

SemaOptions with_values(const SemaOptions& sema, const std::vector<TunedValue>& values) {
  SemaOptions o = sema;
  o.allow_free_nodes = true;
  for (const TunedValue& v : values) o.defines.push_back({v.param, std::to_string(v.value)});
  return o;
}

bool better_tuned(const TunedCandidate& a, const TunedCandidate& b) {
  if (better(a.candidate, b.candidate)) return true;
  if (better(b.candidate, a.candidate)) return false;
  for (std::size_t i = 0; i < a.tuned.size(); ++i)
    if (a.tuned[i].value != b.tuned[i].value) return a.tuned[i].value < b.tuned[i].value;
  return false;
}

/// The next combination in odometer order (the last param fastest); false after the last.
bool next_combination(std::vector<TunedValue>& values,
                      const std::vector<const ir::Param*>& params) {
  for (std::size_t i = values.size(); i-- > 0;) {
    if (values[i].value < params[i]->tune->max) {
      ++values[i].value;
      return true;
    }
    values[i].value = params[i]->tune->min;
  }
  return false;
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
  auto params = tunables(base, sema);
  double combinations = 1;
  for (const ir::Param* p : params)
    combinations *= static_cast<double>(p->tune->max - p->tune->min) + 1;
  if (combinations > static_cast<double>(kMaxCombinations)) {
    diags.error({}, fmt::format("the tunable params have {:.0f} combinations of values, more than "
                                "{}; narrow their ranges or fix some with -D",
                                combinations, kMaxCombinations));
    return std::nullopt;
  }
  TuneResult result;
  result.mappings = mapping_count(base);
  std::vector<TunedValue> values;
  for (const ir::Param* p : params) values.push_back({p->name, p->tune->min});
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
      ++result.rejected;
      continue;
    }
    auto table = resolve_costs(costs, *program, params.empty() ? diags : scratch);
    if (!table) {
      if (!params.empty())
        diags.error({}, fmt::format("with {} = {}: the costs do not resolve", values.front().param,
                                    values.front().value));
      return std::nullopt;
    }
    SearchResult found = search(*program, *table, options);
    result.exact &= found.exact;
    result.evaluated += found.evaluated;
    result.built += found.built;
    result.loop_refused += found.loop_refused;
    if (found.loop_best &&
        (!result.loop_best || better(found.loop_best->candidate, result.loop_best->candidate)))
      result.loop_best = std::move(found.loop_best);
    for (Candidate& c : found.best) {
      TunedCandidate t{values, std::move(c)};
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
  auto program = analyze(spec, with_values(sema, c.tuned), sources, scratch);
  if (program) program->mapping.pe_of = c.candidate.pe_of;
  return program;
}

}  // namespace dfgc::mapping
