#include "mapping/costs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mapping/json_document.hpp"
#include "sema/suggest.hpp"

namespace dfgc::mapping {

namespace {

using Json = nlohmann::json;

/// The values a number of a costs file may take (docs/costs.md), and how an error says so.
struct Range {
  double low = 0;
  double high = 0;
  bool positive = false;
  std::string_view text;  ///< the bounds, after "must be a positive number"
};

constexpr Range kFiringRange{0, kMaxFiringMs, false, " of milliseconds, at most 86400000 (a day)"};
constexpr Range kBandwidthRange{kMinBandwidthGBs, kMaxBandwidthGBs, true,
                                " of GB/s from 1e-9 (a byte per second) to 1e6"};
constexpr Range kLatencyRange{0, kMaxLatencyUs, false,
                              " of microseconds, at most 86400000000 (a day)"};
constexpr Range kMemoryRange{0, kMaxMemoryGiB, true, " of GiB, at most 1073741824 (2^60 bytes)"};

/// Reads the JSON tree of a costs file into a CostFile, reporting each problem at its key.
class CostReader {
 public:
  CostReader(std::uint32_t file, const JsonLocations& where, DiagnosticEngine& diags)
      : file_(file), where_(where), diags_(diags) {}

  std::optional<CostFile> read(const Json& doc) {
    CostFile c;
    c.file = file_;
    if (!doc.is_object()) {
      error("", "a costs file holds a JSON object");
      return std::nullopt;
    }
    for (const auto& [key, value] : doc.items()) {
      std::string path = "/" + key;
      if (key == "actors")
        firing_table(
            path, value, false,
            [&](const std::string& actor, const std::string& pe, FiringCost f) {
              c.actors[actor][pe] = std::move(f);
            },
            c.actor_locs);
      else if (key == "nodes")
        firing_table(
            path, value, true,
            [&](const std::string& node, const std::string& pe, FiringCost f) {
              c.nodes[node][pe].push_back(std::move(f));
            },
            c.node_locs);
      else if (key == "links")
        links(path, value, "link", c.links);
      else if (key == "host_copies")
        links(path, value, "host copy", c.host_copies);
      else if (key == "cores")
        links(path, value, "host's cores", c.cores);
      else if (key == "pes")
        pes(path, value, c);
      else if (key == "cycle_overhead_ms")
        overhead(path, value, c);
      else if (key == "profile")
        profile(path, value, c);  // what a profile run was: not a cost; only its host is read
      else
        error(path, fmt::format("unknown key '{}'; expected actors, nodes, links, host_copies, "
                                "cores, pes, cycle_overhead_ms or profile",
                                key));
    }
    if (failed_) return std::nullopt;
    return c;
  }

 private:
  SourceLoc key_loc(const std::string& path) const { return {file_, where_.key(path)}; }
  void error(const std::string& path, std::string message) {
    failed_ = true;
    diags_.error(key_loc(path), std::move(message));
  }
  bool object(const std::string& path, const Json& v, std::string_view what) {
    if (v.is_object()) return true;
    error(path, fmt::format("{} must be a JSON object", what));
    return false;
  }
  /// A number in [low, high]; `positive` excludes 0 (when low is 0). -0 reads as 0.
  std::optional<double> number(const std::string& path, const Json& v, std::string_view what,
                               const Range& range) {
    double x = v.is_number() ? v.get<double>() + 0.0 : -1;
    if (!v.is_number() || !std::isfinite(x) || x < range.low || x > range.high ||
        (range.positive && x == 0)) {
      error(path, fmt::format("{} must be a {} number{}", what,
                              range.positive ? "positive" : "non-negative", range.text));
      return std::nullopt;
    }
    return x;
  }

  /// `{ NAME: { PE-or-kind: entry } }`; `nodes` says whether these are node measurements (which
  /// may say `at`) or actor entries (which may say `fit`).
  template <class Store>
  void firing_table(const std::string& path, const Json& v, bool nodes, Store store,
                    std::map<std::string, SourceLoc>& locs) {
    if (!object(path, v, fmt::format("'{}'", path.substr(1)))) return;
    for (const auto& [name, per_pe] : v.items()) {
      std::string p = path + "/" + name;
      locs[name] = key_loc(p);
      if (!object(p, per_pe, fmt::format("the costs of '{}'", name))) continue;
      for (const auto& [pe, entry] : per_pe.items())
        if (auto cost = firing(p + "/" + pe, entry, nodes)) store(name, pe, std::move(*cost));
    }
  }

  /// A number (ms), a formula string, or `{"ms": number-or-formula, "per": {param: ms}}`, with
  /// `"fit": [names]` in an actor's entry or `"at": {param: value}` in a node's.
  std::optional<FiringCost> firing(const std::string& path, const Json& v, bool node) {
    FiringCost cost;
    cost.loc = key_loc(path);
    if (v.is_number() || v.is_string())
      return ms(path, v, cost) ? std::optional(cost) : std::nullopt;
    if (!v.is_object()) {
      error(path,
            "a firing time is a number of milliseconds, a formula string or an object "
            "{\"ms\": ..., \"per\": {...}}");
      return std::nullopt;
    }
    bool ok = true;
    for (const auto& [key, value] : v.items()) {
      std::string p = path + "/" + key;
      if (key == "ms") {
        ok &= ms(p, value, cost);
      } else if (key == "per") {
        ok &= object(p, value, "'per'");
        if (!value.is_object()) continue;
        for (const auto& [param, coef] : value.items()) {
          auto c = number(p + "/" + param, coef, "a cost per unit", kFiringRange);
          ok &= c.has_value();
          if (c) cost.per.emplace_back(param, *c);
        }
      } else if (key == "fit" && !node) {
        ok &= fit_names(p, value, cost);
      } else if (key == "at" && node) {
        ok &= object(p, value, "'at'");
        if (!value.is_object()) continue;
        cost.at.emplace();
        for (const auto& [param, x] : value.items()) {
          if (!x.is_number() || !std::isfinite(x.get<double>())) {
            error(p + "/" + param, fmt::format("'at' gives param '{}' a number", param));
            ok = false;
            continue;
          }
          cost.at->emplace_back(param, x.get<double>() + 0.0);
        }
      } else if (key == "fit" || key == "at") {
        error(p, key == "fit" ? "'fit' belongs in an actor's entry (\"actors\"): it names the "
                                "coefficients of the actor's formula that measurements of its "
                                "nodes determine"
                              : "'at' belongs in a node's measurement (\"nodes\"): it gives the "
                                "node's params when it was measured");
        ok = false;
      } else {
        error(p, fmt::format("unknown key '{}' in a firing time; expected ms, per{}", key,
                             node ? " or at" : " or fit"));
        ok = false;
      }
    }
    if (ok && !cost.fit.empty() && !v.contains("ms")) {
      error(path, "'fit' needs an 'ms' formula that uses the fitted names");
      ok = false;
    } else if (ok && !v.contains("ms")) {
      error(path, "a firing time object needs 'ms' (a number of milliseconds or a formula)");
      ok = false;
    }
    return ok ? std::optional(std::move(cost)) : std::nullopt;
  }

  /// `["c_open", "c_pass"]`: distinct identifiers, each used by the entry's formula.
  bool fit_names(const std::string& path, const Json& v, FiringCost& cost) {
    if (!v.is_array() || v.empty()) {
      error(path, "'fit' must be a non-empty array of coefficient names");
      return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string p = path + "/" + std::to_string(i);
      const Json& name = v[i];
      auto identifier = [](const std::string& n) {
        if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
        return std::all_of(n.begin(), n.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
      };
      if (!name.is_string() || !identifier(name.get<std::string>())) {
        error(p, "'fit' names a coefficient with an identifier string, such as \"c_pass\"");
        ok = false;
      } else if (std::find(cost.fit.begin(), cost.fit.end(), name.get<std::string>()) !=
                 cost.fit.end()) {
        error(p, fmt::format("'fit' names '{}' twice", name.get<std::string>()));
        ok = false;
      } else {
        cost.fit.push_back(name.get<std::string>());
      }
    }
    return ok;
  }

  bool ms(const std::string& path, const Json& v, FiringCost& cost) {
    if (v.is_number()) {
      auto n = number(path, v, "a firing time", kFiringRange);
      if (n) cost.ms = CostExpr::constant(*n);
      return n.has_value();
    }
    if (!v.is_string()) {
      error(path, "'ms' must be a number or a formula string");
      return false;
    }
    std::string message;
    std::size_t at = 0;
    auto e = CostExpr::parse(v.get<std::string>(), message, at);
    // The formula's text starts one byte after the opening quote (exact without escapes).
    cost.ms_loc = {file_, where_.value(path) + 1};
    if (!e) {
      failed_ = true;
      diags_.error({file_, cost.ms_loc.offset + static_cast<std::uint32_t>(at)},
                   "in formula: " + message);
      return false;
    }
    cost.ms = std::move(*e);
    return true;
  }

  /// `links` or `host_copies`: link directions and their figures (`what`: "link", "host copy").
  void links(const std::string& path, const Json& v, std::string_view what,
             std::map<std::string, LinkOverride>& into) {
    if (!object(path, v, fmt::format("'{}'", path.substr(1)))) return;
    for (const auto& [name, fields] : v.items()) {
      std::string p = path + "/" + name;
      LinkOverride o;
      o.loc = key_loc(p);
      if (!object(p, fields, fmt::format("{} '{}'", what, name))) continue;
      for (const auto& [key, value] : fields.items()) {
        if (key == "bandwidth_GB_s") {
          if (auto n = number(p + "/" + key, value, "a bandwidth", kBandwidthRange))
            o.bandwidth = *n * 1e9;
        } else if (key == "latency_us") {
          if (auto n = number(p + "/" + key, value, "a latency", kLatencyRange))
            o.latency = *n * 1e-6;
        } else {
          error(p + "/" + key,
                fmt::format("unknown key '{}' in a {}; expected bandwidth_GB_s or latency_us", key,
                            what));
        }
      }
      into[name] = o;
    }
  }

  void pes(const std::string& path, const Json& v, CostFile& c) {
    if (!object(path, v, "'pes'")) return;
    for (const auto& [name, fields] : v.items()) {
      std::string p = path + "/" + name;
      if (!object(p, fields, fmt::format("PE '{}'", name))) continue;
      for (const auto& [key, value] : fields.items()) {
        if (key == "kind") {
          if (!value.is_string() || (value != "cpu" && value != "gpu"))
            error(p + "/" + key, "a PE's 'kind' is \"cpu\" or \"gpu\"");
          else
            c.kinds[name] = {value == "gpu" ? ir::PeKind::gpu : ir::PeKind::cpu,
                             key_loc(p + "/" + key)};
          continue;
        }
        if (key != "memory_GiB") {
          error(p + "/" + key,
                fmt::format("unknown key '{}' in a PE; expected memory_GiB or kind", key));
          continue;
        }
        if (auto n = number(p + "/" + key, value, "a memory size", kMemoryRange))
          c.memory[name] = {static_cast<std::int64_t>(*n * 1073741824.0), key_loc(p)};
      }
    }
  }

  static void set_overhead(CostFile& c, ir::Strategy s, double ms) {
    c.overhead[s] = ms * 1e-3;
    c.overhead_given[s] = true;
  }

  /// The profile's host, when the run had several (a rank's file; merge_costs()).
  /// What `--profile` wrote about its run (dfg/profile.hpp): not costs, but checked as the rest
  /// is, so that a hand-edited or foreign object is not taken for a profile. Only the host is
  /// kept; a profile of a run that stopped on an error (`"complete": false`) is refused, its
  /// times covering part of the run only.
  void profile(const std::string& path, const Json& v, CostFile& c) {
    if (!object(path, v, "'profile'")) return;
    for (const auto& [key, value] : v.items()) {
      const std::string p = path + "/" + key;
      if (key == "host") {
        if (!value.is_string() || value.get<std::string>().empty())
          error(p, "'host' is a host's name");
        else {
          c.profile_host = value.get<std::string>();
          c.profile_host_loc = key_loc(p);
        }
      } else if (key == "strategy") {
        if (!value.is_string() || (value != "overlap" && value != "no-overlap"))
          error(p, "'strategy' is \"overlap\" or \"no-overlap\"");
      } else if (key == "iterations" || key == "periods") {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
          error(p, fmt::format("'{}' is a non-negative integer", key));
      } else if (key == "period_ms" || key == "model_ms") {
        number(p, value, fmt::format("'{}'", key), kFiringRange);
      } else if (key == "loads_ms") {
        if (!object(p, value, "'loads_ms'")) continue;
        for (const auto& [resource, ms] : value.items())
          number(p + "/" + resource, ms, "a load", kFiringRange);
      } else if (key == "phases_ms") {
        if (!value.is_array()) {
          error(p, "'phases_ms' is an array of {\"resource\": name, \"ms\": number}");
          continue;
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
          const Json& phase = value[i];
          const std::string q = p + "/" + std::to_string(i);
          if (!phase.is_object() || phase.size() != 2 || !phase.contains("resource") ||
              !phase.at("resource").is_string() || !phase.contains("ms"))
            error(q, "a phase is {\"resource\": name, \"ms\": number}");
          else
            number(q + "/ms", phase.at("ms"), "a phase's time", kFiringRange);
        }
      } else if (key == "complete") {
        if (!value.is_boolean())
          error(p, "'complete' is true or false");
        else if (!value.get<bool>())
          error(p,
                "this profile is of a run that stopped on an error: its times cover part of "
                "the run only; profile a run that completes");
      } else {
        error(p, fmt::format("unknown key '{}' in 'profile'; expected host, strategy, iterations, "
                             "period_ms, periods, model_ms, loads_ms, phases_ms or complete",
                             key));
      }
    }
  }

  void overhead(const std::string& path, const Json& v, CostFile& c) {
    if (v.is_number()) {
      if (auto n = number(path, v, "the cycle overhead", kFiringRange))
        for (ir::Strategy s : ir::kStrategies) set_overhead(c, s, *n);
      return;
    }
    if (!object(path, v, "'cycle_overhead_ms'")) return;
    for (const auto& [key, value] : v.items()) {
      std::string p = path + "/" + key;
      auto n = number(p, value, "the cycle overhead", kFiringRange);
      if (key == "overlap" && n)
        set_overhead(c, ir::Strategy::overlap, *n);
      else if (key == "no-overlap" && n)
        set_overhead(c, ir::Strategy::no_overlap, *n);
      else if (key != "overlap" && key != "no-overlap")
        error(p, fmt::format("unknown strategy '{}'; expected overlap or no-overlap", key));
    }
  }

  std::uint32_t file_;
  const JsonLocations& where_;
  DiagnosticEngine& diags_;
  bool failed_ = false;
};

}  // namespace

std::optional<CostFile> load_costs(const std::string& path, SourceManager& sources,
                                   DiagnosticEngine& diags) {
  auto file = load_json_file(path, "costs file", sources, diags);
  if (!file) return std::nullopt;
  return read_costs(*file, sources, diags);
}

std::optional<CostFile> read_costs(std::uint32_t file, const SourceManager& sources,
                                   DiagnosticEngine& diags) {
  auto doc = parse_json(file, sources, diags);
  if (!doc) return std::nullopt;
  return CostReader(file, doc->where, diags).read(doc->root);
}

void merge_costs(CostFile& into, CostFile later) {
  // The per-rank profiles of one run on several hosts, in any order: each gives its own host's
  // nodes, memory and received links; the job's overhead is the smallest rank's (each rank's is
  // the period less its own loads only), and a link given twice keeps the slower figures.
  const bool ranks = !into.profile_host.empty() && !later.profile_host.empty();
  if (ranks) {
    for (auto& [name, o] : later.links) {
      auto [it, added] = into.links.try_emplace(name, o);
      if (added) continue;
      LinkOverride& have = it->second;
      if (o.bandwidth && (!have.bandwidth || *o.bandwidth < *have.bandwidth))
        have.bandwidth = o.bandwidth;
      if (o.latency && (!have.latency || *o.latency > *have.latency)) have.latency = o.latency;
    }
    later.links.clear();
    for (ir::Strategy s : ir::kStrategies)
      if (later.overhead_given[s] && into.overhead_given[s]) {
        into.overhead[s] = std::min(into.overhead[s], later.overhead[s]);
        later.overhead_given[s] = false;
      }
    into.profile_host = std::min(into.profile_host, later.profile_host);
  }
  for (auto& [actor, per_pe] : later.actors)
    for (auto& [where, f] : per_pe) into.actors[actor][where] = std::move(f);
  for (auto& [actor, loc] : later.actor_locs) into.actor_locs.try_emplace(actor, loc);
  for (auto& [node, per_pe] : later.nodes)
    for (auto& [pe, list] : per_pe)
      for (FiringCost& f : list) into.nodes[node][pe].push_back(std::move(f));
  for (auto& [node, loc] : later.node_locs) into.node_locs.try_emplace(node, loc);
  for (auto& [name, o] : later.links) into.links[name] = o;
  for (auto& [name, o] : later.host_copies) into.host_copies[name] = o;
  for (auto& [name, o] : later.cores) into.cores[name] = o;
  for (auto& [pe, m] : later.memory) into.memory[pe] = m;
  for (auto& [pe, k] : later.kinds) into.kinds[pe] = k;
  for (ir::Strategy s : ir::kStrategies)
    if (later.overhead_given[s]) {
      into.overhead[s] = later.overhead[s];
      into.overhead_given[s] = true;
    }
}

double CostTable::transfer_time(const ir::ArchGraph& arch, ir::LinkId link, ir::PeId from,
                                std::int64_t bytes) const {
  const LinkCost& c = links[link][arch.links[link].a == from ? 0 : 1];
  return static_cast<double>(bytes) / c.bandwidth + c.latency;
}

double CostTable::host_copy_time(const ir::ArchGraph& arch, ir::LinkId link, ir::PeId from,
                                 std::int64_t bytes) const {
  if (host_copies.empty()) return 0;
  const LinkCost& c = host_copies[link][arch.links[link].a == from ? 0 : 1];
  return static_cast<double>(bytes) / c.bandwidth + c.latency;
}

double CostTable::mapped_read_time(const ir::ArchGraph& arch, ir::LinkId link, ir::PeId from,
                                   std::int64_t bytes) const {
  return static_cast<double>(bytes) / links[link][arch.links[link].a == from ? 0 : 1].bandwidth;
}

double CostTable::core_read_time(const ir::ArchGraph& arch, ir::PeId pe, std::int64_t bytes) const {
  if (core_reads.empty()) return 0;
  const LinkCost& c = core_reads[arch.pes[pe].host];
  return static_cast<double>(bytes) / c.bandwidth + c.latency;
}

}  // namespace dfgc::mapping
