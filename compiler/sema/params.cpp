/// \file
/// Declares the spec's params, applies the -D overrides and evaluates every param in declaration
/// order (a param sees only the params declared before it).
#include "sema/params.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

/// The -D values by param name (the last -D of a name wins, as with a C compiler's -D).
std::map<std::string, std::int64_t, std::less<>> check_defines(const std::vector<Define>& defines,
                                                               const ParamTable& table,
                                                               DiagnosticEngine& diags) {
  std::map<std::string, std::int64_t, std::less<>> values;
  for (const Define& d : defines) {
    std::string flag = fmt::format("-D {}={}", d.name, d.value);
    std::int64_t v = 0;
    const char* end = d.value.data() + d.value.size();
    auto [ptr, ec] = std::from_chars(d.value.data(), end, v);
    bool ok = true;
    if (ec == std::errc::result_out_of_range) {
      diags.error({}, fmt::format("{}: '{}' does not fit in a 64-bit integer", flag, d.value));
      ok = false;
    } else if (ec != std::errc() || ptr != end) {
      diags.error({}, fmt::format("{}: '{}' is not an integer literal", flag, d.value));
      ok = false;
    }
    if (!table.find(d.name)) {
      diags.error({}, fmt::format("{}: no param named '{}'{}", flag, d.name,
                                  did_you_mean(d.name, table.names.names())));
      ok = false;
    }
    if (ok) values[d.name] = v;
  }
  return values;
}

/// The range of a tunable param (`param split = 20 in [1, 39];`): two compile-time integers, the
/// first not above the second, on a param that is not a runtime param.
std::optional<ir::TuneRange> check_tune_range(const ast::ParamDecl& p, Evaluator& eval,
                                              const SourceManager& sources,
                                              DiagnosticEngine& diags) {
  if (p.runtime) {
    diags.error(p.tune_loc,
                fmt::format("runtime param '{}' cannot be tunable; 'dfgc map' chooses a tunable "
                            "param's value at compile time",
                            p.name.name),
                2);
    return std::nullopt;
  }
  auto lo = eval.eval(p.tune_min.get());
  auto hi = eval.eval(p.tune_max.get());
  std::string what = fmt::format("the range of param '{}'", p.name.name);
  if (!lo || !hi || !eval.require_fixed(*lo, what) || !eval.require_fixed(*hi, what))
    return std::nullopt;
  if (lo->integer > hi->integer) {
    error_at(diags, span_of(*p.tune_max, sources),
             fmt::format("the range of param '{}' is empty: {} is greater than {}", p.name.name,
                         lo->integer, hi->integer));
    return std::nullopt;
  }
  return ir::TuneRange{lo->integer, hi->integer};
}

/// A tunable param's value (its own or a -D's) must lie in its range.
void check_in_range(const ast::ParamDecl& p, std::int64_t value, const ir::TuneRange& range,
                    bool defined, const SourceManager& sources, DiagnosticEngine& diags) {
  if (value >= range.min && value <= range.max) return;
  std::string message = fmt::format("value {} of param '{}' is outside its range [{}, {}]", value,
                                    p.name.name, range.min, range.max);
  if (defined)
    diags.error({}, fmt::format("-D {}={}: {}", p.name.name, value, message));
  else
    error_at(diags, span_of(*p.value, sources), message);
}

}  // namespace

std::vector<ir::Param> ParamTable::to_ir() const {
  std::vector<ir::Param> result;
  for (const ParamEntry& e : entries)
    result.push_back(
        {e.decl->name.name, e.value.value_or(0), e.decl->runtime, e.decl->name.loc, e.tune});
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
        table.entries.push_back({&p, declared.size(), std::nullopt, std::nullopt});
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
    entry.tune = check_tune_range(p, eval, sources, diags);
    if (entry.tune && entry.value)
      check_in_range(p, *entry.value, *entry.tune, o != overrides.end(), sources, diags);
  }
  return table;
}

}  // namespace dfgc::sema
