/// \file
/// Declares the spec's params, applies the -D overrides and evaluates every param in declaration
/// order (a param sees only the params declared before it).
#include "sema/params.hpp"

#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dfg/detail/int_literal.hpp"
#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

/// The -D values by param name. A param set by two -D is an error: silently keeping one value
/// would hide a mistake in a build script.
std::map<std::string, std::int64_t, std::less<>> check_defines(const std::vector<Define>& defines,
                                                               const ParamTable& table,
                                                               DiagnosticEngine& diags) {
  std::map<std::string, std::int64_t, std::less<>> values;
  std::map<std::string, const Define*, std::less<>> first;
  for (const Define& d : defines) {
    std::string flag = fmt::format("-D {}={}", d.name, d.value);
    // As the spec writes integers: decimal or 0x hexadecimal, '_' between digits.
    std::string why;
    const std::optional<std::int64_t> parsed = dfg::detail::parse_int_literal(d.value, why);
    const std::int64_t v = parsed.value_or(0);
    bool ok = true;
    if (!parsed && why == "integer out of range") {
      diags.error({}, fmt::format("{}: '{}' does not fit in a 64-bit integer", flag, d.value));
      ok = false;
    } else if (!parsed) {
      diags.error({}, fmt::format("{}: '{}' is not an integer literal{}", flag, d.value,
                                  why == "expected an integer" ? "" : " (" + why + ")"));
      ok = false;
    }
    if (!table.find(d.name)) {
      diags.error({}, fmt::format("{}: no param named '{}'{}", flag, d.name,
                                  did_you_mean(d.name, table.names.names())));
      ok = false;
    }
    if (!ok) continue;
    if (auto [earlier, inserted] = first.emplace(d.name, &d); !inserted) {
      diags.error({}, fmt::format("{}: param '{}' is already set by -D {}={}", flag, d.name,
                                  earlier->second->name, earlier->second->value));
      continue;
    }
    values[d.name] = v;
  }
  return values;
}

/// `in [lo, hi]`: two compile-time integers, the first not above the second. On a param, the
/// range that `dfgc map` chooses its value in (`param split = 20 in [1, 39];`); on a runtime
/// param, the bounds that the generated program enforces (`runtime param N = 256 in [1, 65536];`).
std::optional<ir::TuneRange> check_range(const ast::ParamDecl& p, Evaluator& eval,
                                         const SourceManager& sources, DiagnosticEngine& diags) {
  auto lo = eval.eval(p.tune_min.get());
  auto hi = eval.eval(p.tune_max.get());
  std::string what = p.runtime ? fmt::format("a bound of runtime param '{}'", p.name.name)
                               : fmt::format("the range of param '{}'", p.name.name);
  if (!lo || !hi || !eval.require_fixed(*lo, what) || !eval.require_fixed(*hi, what))
    return std::nullopt;
  if (lo->integer > hi->integer) {
    std::string empty = p.runtime
                            ? fmt::format("the bounds of runtime param '{}' are empty", p.name.name)
                            : fmt::format("the range of param '{}' is empty", p.name.name);
    error_at(diags, span_of(*p.tune_max, sources),
             fmt::format("{}: {} is greater than {}", empty, lo->integer, hi->integer));
    return std::nullopt;
  }
  return ir::TuneRange{lo->integer, hi->integer};
}

/// A param's value (its own or a -D's) must lie in its range or bounds.
void check_in_range(const ast::ParamDecl& p, std::int64_t value, const ir::TuneRange& range,
                    bool defined, const SourceManager& sources, DiagnosticEngine& diags) {
  if (value >= range.min && value <= range.max) return;
  std::string message = fmt::format("value {} of {}param '{}' is outside its {} [{}, {}]", value,
                                    p.runtime ? "runtime " : "", p.name.name,
                                    p.runtime ? "bounds" : "range", range.min, range.max);
  if (defined)
    diags.error({}, fmt::format("-D {}={}: {}", p.name.name, value, message));
  else
    error_at(diags, span_of(*p.value, sources), message);
}

}  // namespace

std::vector<ir::Param> ParamTable::to_ir() const {
  std::vector<ir::Param> result;
  for (const ParamEntry& e : entries)
    result.push_back({e.decl->name.name, e.value.value_or(0), e.decl->runtime, e.decl->name.loc,
                      e.tune, e.bounds});
  return result;
}

ParamTable check_params(const Spec& spec, const std::vector<Define>& defines,
                        const SourceManager& sources, DiagnosticEngine& diags) {
  ParamTable table;
  std::vector<const ast::ParamDecl*> declared;       // every declaration, by seq
  std::vector<std::optional<std::size_t>> entry_of;  // its entry, unless a duplicate
  for (const auto& module : spec.modules) {
    for (const ast::ParamDecl& p : module->params) {
      entry_of.push_back(std::nullopt);
      if (table.names.declare(p.name, table.entries.size(), diags)) {
        check_cxx_name(p.name, "param", diags);
        entry_of.back() = table.entries.size();
        table.entries.push_back({&p, declared.size(), std::nullopt, std::nullopt, std::nullopt});
      }
      declared.push_back(&p);
    }
  }
  auto overrides = check_defines(defines, table, diags);

  Evaluator eval(table, sources, diags, ExprMode::integer);
  for (std::size_t seq = 0; seq < declared.size(); ++seq) {
    const ast::ParamDecl& p = *declared[seq];
    eval.restrict_to_params_before(seq);
    // A param set by -D is still evaluated, so that its expression's errors are reported.
    auto v = eval.eval(p.value.get());
    if (v)
      eval.require_fixed(*v, fmt::format("{}param '{}'", p.runtime ? "runtime " : "", p.name.name));
    if (!entry_of[seq]) continue;
    ParamEntry& entry = table.entries[*entry_of[seq]];
    auto o = overrides.find(p.name.name);
    if (o != overrides.end())
      entry.value = o->second;
    else if (v)
      entry.value = v->integer;
    if (!p.tune_min) continue;
    std::optional<ir::TuneRange>& range = p.runtime ? entry.bounds : entry.tune;
    range = check_range(p, eval, sources, diags);
    if (range && entry.value)
      check_in_range(p, *entry.value, *range, o != overrides.end(), sources, diags);
  }
  return table;
}

}  // namespace dfgc::sema
