#include "mapping/fit.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dfgc::mapping {

namespace {

/// One measurement: the entry it is an equation of, the params it was taken at, its time.
struct Row {
  const FiringCost* entry = nullptr;
  std::vector<std::pair<std::string, double>> params;
  double ms = 0;
  std::string what;  ///< "node 'head' on A.g0"
};

/// The actor entry that fits coefficients for a node of `actor` on `pe`, if any.
const FiringCost* fitting_entry(const CostFile& c, const ir::Program& p, const std::string& actor,
                                const std::string& pe) {
  auto it = c.actors.find(actor);
  if (it == c.actors.end()) return nullptr;
  // The PE's kind: the architecture's, else the file's for another machine's PE (costs.hpp).
  std::optional<ir::PeKind> kind;
  if (auto found = p.arch.find_pe(pe))
    kind = p.arch.pes[*found].kind;
  else if (auto k = c.kinds.find(pe); k != c.kinds.end())
    kind = k->second.first;
  if (!kind) return nullptr;
  const FiringCost* f = nullptr;
  if (auto e = it->second.find(pe); e != it->second.end())
    f = &e->second;
  else if (auto k = it->second.find(std::string(ir::to_string(*kind))); k != it->second.end())
    f = &k->second;
  return f && !f->fit.empty() ? f : nullptr;
}

/// Solves min |A x - b| by Householder QR (A is m x n, m >= n, row-major). Returns the index of
/// the first column the rows do not determine, or n on success with `x` filled.
std::size_t least_squares(std::vector<std::vector<double>> a, std::vector<double> b,
                          std::vector<double>& x) {
  const std::size_t m = a.size(), n = x.size();
  double scale = 0;
  for (const auto& row : a)
    for (double v : row) scale = std::max(scale, std::abs(v));
  for (std::size_t j = 0; j < n; ++j) {
    if (j >= m) return j;
    double norm = 0;
    for (std::size_t i = j; i < m; ++i) norm += a[i][j] * a[i][j];
    norm = std::sqrt(norm);
    if (norm <= 1e-10 * scale) return j;
    const double alpha = a[j][j] > 0 ? -norm : norm;
    std::vector<double> v(m, 0);
    for (std::size_t i = j; i < m; ++i) v[i] = a[i][j];
    v[j] -= alpha;
    double vv = 0;
    for (std::size_t i = j; i < m; ++i) vv += v[i] * v[i];
    auto reflect = [&](auto get, auto set) {
      double dot = 0;
      for (std::size_t i = j; i < m; ++i) dot += v[i] * get(i);
      for (std::size_t i = j; i < m; ++i) set(i, get(i) - 2 * dot / vv * v[i]);
    };
    for (std::size_t k = j; k < n; ++k)
      reflect([&](std::size_t i) { return a[i][k]; },
              [&](std::size_t i, double y) { a[i][k] = y; });
    reflect([&](std::size_t i) { return b[i]; }, [&](std::size_t i, double y) { b[i] = y; });
  }
  for (std::size_t j = n; j-- > 0;) {
    double s = b[j];
    for (std::size_t k = j + 1; k < n; ++k) s -= a[j][k] * x[k];
    x[j] = s / a[j][j];
  }
  return n;
}

}  // namespace

std::optional<FitResult> fit_costs(CostFile& c, const ir::Program& p, DiagnosticEngine& diags) {
  // The unknowns, in name order; each entry's fitted names must be used by its formula.
  std::set<std::string> names;
  bool failed = false;
  for (const auto& [actor, per_pe] : c.actors)
    for (const auto& [where, f] : per_pe)
      for (const std::string& name : f.fit) {
        names.insert(name);
        const auto& used = f.ms.names();
        if (std::none_of(used.begin(), used.end(),
                         [&](const auto& u) { return u.first == name; })) {
          diags.error(f.loc, fmt::format("'fit' names '{}', which the formula of actor '{}' on {} "
                                         "does not use",
                                         name, actor, where));
          failed = true;
        }
      }
  if (names.empty() || failed) return failed ? std::nullopt : std::optional(FitResult{});
  const std::vector<std::string> unknowns(names.begin(), names.end());
  auto index = [&](const std::string& name) {
    return static_cast<std::size_t>(std::lower_bound(unknowns.begin(), unknowns.end(), name) -
                                    unknowns.begin());
  };

  // The measurements of nodes whose actor's entry fits coefficients.
  std::vector<Row> rows;
  for (const auto& [node_name, per_pe] : c.nodes) {
    auto node = std::find_if(p.dfg.nodes.begin(), p.dfg.nodes.end(),
                             [&](const ir::Node& n) { return n.name == node_name; });
    if (node == p.dfg.nodes.end()) continue;  // resolve_costs reports it
    const ir::Actor& actor = p.dfg.actor_of(static_cast<ir::NodeId>(node - p.dfg.nodes.begin()));
    for (const auto& [pe, list] : per_pe) {
      const FiringCost* entry = fitting_entry(c, p, actor.name, pe);
      if (!entry) continue;
      for (const FiringCost& m : list) {
        Row row{entry, {}, 0, fmt::format("node '{}' on {}", node_name, pe)};
        if (!m.ms.names().empty() || !m.per.empty()) {
          diags.error(m.loc,
                      fmt::format("a measurement of {} is an equation of the fitted "
                                  "formula of actor '{}'; it must be a number of milliseconds",
                                  row.what, actor.name));
          failed = true;
          continue;
        }
        row.ms = m.ms.eval([](const std::string&) { return 0.0; });
        if (m.at) {
          row.params = *m.at;
        } else {
          for (const ir::ParamValue& v : node->params)
            row.params.emplace_back(v.name, ir::to_double(v.value));
        }
        for (const auto& [name, at] : entry->ms.names()) {
          bool coefficient =
              std::find(entry->fit.begin(), entry->fit.end(), name) != entry->fit.end();
          bool given = std::any_of(row.params.begin(), row.params.end(),
                                   [&](const auto& pv) { return pv.first == name; });
          if (!coefficient && !given && m.at) {
            diags.error(m.loc, fmt::format("the measurement of {} gives no value of param '{}' in "
                                           "'at', which the fitted formula of actor '{}' uses",
                                           row.what, name, actor.name));
            failed = true;
          }
        }
        rows.push_back(std::move(row));
      }
    }
  }
  if (failed) return std::nullopt;

  // Each row's equation: f(c) = base + sum_j col_j c_j, checked for linearity at one point.
  const std::size_t n = unknowns.size();
  std::vector<std::vector<double>> a;
  std::vector<double> b;
  std::vector<bool> seen(n, false);
  std::set<const FiringCost*> reported;
  for (const Row& row : rows) {
    auto eval = [&](const std::vector<double>& coef) {
      auto lookup = [&](const std::string& name) {
        if (std::find(row.entry->fit.begin(), row.entry->fit.end(), name) != row.entry->fit.end())
          return coef[index(name)];
        for (const auto& [param, value] : row.params)
          if (param == name) return value;
        return 0.0;
      };
      double ms = row.entry->ms.eval(lookup);
      for (const auto& [param, per] : row.entry->per) ms += per * lookup(param);
      return ms;
    };
    const double base = eval(std::vector<double>(n, 0));
    std::vector<double> col(n, 0), probe(n, 0);
    for (const std::string& name : row.entry->fit) {
      std::vector<double> unit(n, 0);
      unit[index(name)] = 1;
      col[index(name)] = eval(unit) - base;
      probe[index(name)] = 1.5 + 0.25 * static_cast<double>(index(name));
    }
    double linear = base, magnitude = std::abs(base);
    for (std::size_t j = 0; j < n; ++j) {
      linear += col[j] * probe[j];
      magnitude += std::abs(col[j] * probe[j]);
    }
    const double at_probe = eval(probe);
    if (!std::isfinite(at_probe) || std::abs(at_probe - linear) > 1e-9 * (magnitude + 1)) {
      if (reported.insert(row.entry).second)
        diags.error(row.entry->ms_loc,
                    fmt::format("this formula is not linear in its fitted coefficients ({}); "
                                "dfgc fits them by linear least squares",
                                fmt::join(row.entry->fit, ", ")));
      failed = true;
      continue;
    }
    const double w = 1 / std::max(row.ms, 1e-9);
    std::vector<double> weighted(n);
    for (std::size_t j = 0; j < n; ++j) {
      weighted[j] = col[j] * w;
      if (col[j] != 0) seen[j] = true;
    }
    a.push_back(std::move(weighted));
    b.push_back((row.ms - base) * w);
  }
  if (failed) return std::nullopt;

  // Which entries fit a coefficient, for the messages.
  auto users = [&](const std::string& name) {
    std::vector<std::string> out;
    const FiringCost* first = nullptr;
    for (const auto& [actor, per_pe] : c.actors)
      for (const auto& [where, f] : per_pe)
        if (std::find(f.fit.begin(), f.fit.end(), name) != f.fit.end()) {
          out.push_back(fmt::format("'{}' on {}", actor, where));
          if (!first) first = &f;
        }
    return std::pair(fmt::format("{}", fmt::join(out, ", ")), first);
  };
  for (std::size_t j = 0; j < n; ++j)
    if (!seen[j]) {
      auto [who, entry] = users(unknowns[j]);
      diags.error(entry->loc,
                  fmt::format("no measurement determines '{}': give the costs of a run where a "
                              "node of actor {} was measured (--profile FILE, then --costs FILE)",
                              unknowns[j], who));
      failed = true;
    }
  if (failed) return std::nullopt;

  std::vector<double> x(n, 0);
  if (std::size_t j = least_squares(a, b, x); j < n) {
    auto [who, entry] = users(unknowns[j]);
    diags.error(entry->loc,
                fmt::format("the {} measurement{} of {} cannot tell '{}' apart from the other "
                            "coefficients ({}); measure nodes at more param values",
                            rows.size(), rows.size() == 1 ? "" : "s", who, unknowns[j],
                            fmt::join(unknowns, ", ")));
    return std::nullopt;
  }

  FitResult result;
  result.measurements = rows.size();
  for (std::size_t j = 0; j < n; ++j) {
    const double value = x[j] + 0.0;  // -0 is 0
    result.coefficients.emplace_back(unknowns[j], value);
    c.coefficients[unknowns[j]] = value;
  }
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    double r = -b[i];
    for (std::size_t j = 0; j < n; ++j) r += a[i][j] * x[j];
    sum += r * r;
    result.max_relative = std::max(result.max_relative, std::abs(r));
  }
  result.rms_relative = a.empty() ? 0 : std::sqrt(sum / static_cast<double>(a.size()));
  return result;
}

std::string describe_fit(const FitResult& fit) {
  if (fit.coefficients.empty()) return "";
  std::vector<std::string> parts;
  for (const auto& [name, ms] : fit.coefficients)
    parts.push_back(fmt::format("{} = {:.6g} ms", name, ms + 0.0));  // -0 prints as 0
  std::string quality = fit.measurements == fit.coefficients.size()
                            ? "exact"
                            : fmt::format("rms error {:.1f}%, largest {:.1f}%",
                                          100 * fit.rms_relative, 100 * fit.max_relative);
  return fmt::format("fitted {} from {} measurement{} ({})", fmt::join(parts, ", "),
                     fit.measurements, fit.measurements == 1 ? "" : "s", quality);
}

}  // namespace dfgc::mapping
