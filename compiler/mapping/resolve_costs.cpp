/// \file
/// resolve_costs: a costs file's names checked against one program, and the firing time of every
/// node on every PE it may run on.
#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "mapping/costs.hpp"
#include "sema/suggest.hpp"

namespace dfgc::mapping {

namespace {

class Resolver {
 public:
  Resolver(const CostFile& costs, const ir::Program& p, DiagnosticEngine& diags)
      : c_(costs), p_(p), diags_(diags) {}

  std::optional<CostTable> run() {
    CostTable t;
    check_profile_host();
    check_kinds();
    check_actors();
    check_nodes();
    links(t);
    core_reads(t);
    capacity(t);
    t.overhead = c_.overhead;
    firing(t);
    if (failed_) return std::nullopt;
    return t;
  }

 private:
  /// A profile of one rank names its host: a host the architecture has.
  void check_profile_host() {
    if (c_.profile_host.empty() || find_host(c_.profile_host)) return;
    std::string list;
    for (const std::string& n : host_names()) list += (list.empty() ? "" : ", ") + n;
    error(c_.profile_host_loc, fmt::format("the profile is of host '{}', which arch '{}' lacks "
                                           "(its hosts: {})",
                                           c_.profile_host, p_.arch.name, list));
  }

  /// The architecture's host named `name`, by index.
  std::optional<std::size_t> find_host(std::string_view name) const {
    for (std::size_t h = 0; h < p_.arch.hosts.size(); ++h)
      if (p_.arch.hosts[h].name == name) return h;
    return std::nullopt;
  }
  std::vector<std::string> host_names() const {
    std::vector<std::string> names;
    for (const ir::Host& h : p_.arch.hosts) names.push_back(h.name);
    return names;
  }

  /// A PE the file gives a kind to has that kind in the architecture, if it has the PE.
  void check_kinds() {
    for (const auto& [name, kind] : c_.kinds)
      if (auto pe = p_.arch.find_pe(name); pe && p_.arch.pes[*pe].kind != kind.first)
        error(kind.second, fmt::format("'{}' is a {} in arch '{}'; the costs file says it is a {}",
                                       name, ir::to_string(p_.arch.pes[*pe].kind), p_.arch.name,
                                       ir::to_string(kind.first)));
  }
  /// Whether `name` is a PE of another machine: not the architecture's, its kind in the file.
  bool elsewhere(const std::string& name) const {
    return !p_.arch.find_pe(name) && c_.kinds.contains(name);
  }
  /// The kind of PE `name`: the architecture's, else the file's.
  std::optional<ir::PeKind> kind_of(const std::string& name) const {
    if (auto pe = p_.arch.find_pe(name)) return p_.arch.pes[*pe].kind;
    if (auto it = c_.kinds.find(name); it != c_.kinds.end()) return it->second.first;
    return std::nullopt;
  }

  void error(SourceLoc loc, std::string message) {
    failed_ = true;
    diags_.error(loc, std::move(message));
  }
  std::vector<std::string> pe_names() const {
    std::vector<std::string> names;
    for (const ir::Pe& pe : p_.arch.pes) names.push_back(pe.name);
    return names;
  }
  /// A formula's names and a `per`'s params must be params of the actor.
  void check_params(const FiringCost& f, const ir::Actor& a) {
    std::vector<std::string> names;
    for (const ir::ActorParam& ap : a.params) names.push_back(ap.name);
    auto known = [&](const std::string& n) {
      return std::find(names.begin(), names.end(), n) != names.end();
    };
    auto fitted = [&](const std::string& n) {
      return std::find(f.fit.begin(), f.fit.end(), n) != f.fit.end();
    };
    for (const std::string& name : f.fit)
      if (known(name))
        error(f.loc, fmt::format("'fit' names '{}', a param of actor '{}'; a fitted coefficient "
                                 "needs a name of its own",
                                 name, a.name));
    for (const auto& [name, at] : f.ms.names())
      if (!known(name) && !fitted(name))
        error({f.ms_loc.file, f.ms_loc.offset + static_cast<std::uint32_t>(at)},
              fmt::format("actor '{}' has no param '{}'{}", a.name, name,
                          sema::did_you_mean(name, names)));
    for (const auto& [name, coef] : f.per)
      if (!known(name))
        error(f.loc, fmt::format("'per' names param '{}', which actor '{}' does not have{}", name,
                                 a.name, sema::did_you_mean(name, names)));
    if (f.at)
      for (const auto& [name, value] : *f.at)
        if (!known(name))
          error(f.loc, fmt::format("'at' names param '{}', which actor '{}' does not have{}", name,
                                   a.name, sema::did_you_mean(name, names)));
  }

  void check_actors() {
    std::vector<std::string> names;
    for (const ir::Actor& a : p_.dfg.actors) names.push_back(a.name);
    for (const auto& [name, per_pe] : c_.actors) {
      auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        error(c_.actor_locs.at(name),
              fmt::format("unknown actor '{}'{}", name, sema::did_you_mean(name, names)));
        continue;
      }
      const ir::Actor& a = p_.dfg.actors[static_cast<std::size_t>(it - names.begin())];
      for (const auto& [where, f] : per_pe) {
        if (where != "cpu" && where != "gpu" && !p_.arch.find_pe(where))
          error(f.loc, fmt::format("unknown processing element or kind '{}'; expected cpu, gpu "
                                   "or a PE of arch '{}'{}",
                                   where, p_.arch.name, sema::did_you_mean(where, pe_names())));
        check_params(f, a);
        for (const std::string& name : f.fit)
          if (!c_.coefficients.contains(name))
            error(f.loc, fmt::format("coefficient '{}' of actor '{}' has not been fitted "
                                     "(fit_costs() runs before resolve_costs())",
                                     name, a.name));
      }
    }
  }

  void check_nodes() {
    std::vector<std::string> names;
    for (const ir::Node& n : p_.dfg.nodes) names.push_back(n.spec_name());
    for (const auto& [name, per_pe] : c_.nodes) {
      auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        error(c_.node_locs.at(name),
              fmt::format("unknown node '{}'{}", name, sema::did_you_mean(name, names)));
        continue;
      }
      const ir::Actor& a = p_.dfg.actor_of(static_cast<ir::NodeId>(it - names.begin()));
      for (const auto& [where, list] : per_pe)
        for (const FiringCost& f : list) {
          if (!p_.arch.find_pe(where) && !elsewhere(where))
            error(f.loc, fmt::format("unknown processing element '{}': a measurement on "
                                     "another machine's PE needs its kind, \"pes\": {{\"{}\": "
                                     "{{\"kind\": ...}}}}{}",
                                     where, where, sema::did_you_mean(where, pe_names())));
          check_params(f, a);
        }
    }
  }

  /// The spec's figures, then the file's: "X <-> Y" for both directions, "X -> Y" for one.
  /// Host copies: none (a copy costs nothing), then the file's.
  void links(CostTable& t) {
    const LinkCost free{std::numeric_limits<double>::infinity(), 0};
    for (const ir::Link& l : p_.arch.links) {
      t.links.push_back({LinkCost{l.bandwidth, l.latency}, LinkCost{l.bandwidth, l.latency}});
      t.host_copies.push_back({free, free});
    }
    override_links(c_.links, "link", t.links);
    override_links(c_.host_copies, "host copy", t.host_copies);
  }

  /// Each host's core reads: kCoreRead*, then the file's (keyed by host name). A host the
  /// architecture lacks is an error, unless the file names PEs of it with their kind (a profile
  /// of another machine, whose figures are not this one's).
  void core_reads(CostTable& t) {
    t.core_reads.assign(p_.arch.hosts.size(), LinkCost{kCoreReadBandwidth, kCoreReadLatency});
    for (const auto& [name, o] : c_.cores) {
      const std::optional<std::size_t> host = find_host(name);
      if (!host) {
        const bool other_machine =
            std::any_of(c_.kinds.begin(), c_.kinds.end(),
                        [&](const auto& k) { return k.first.starts_with(name + "."); });
        if (!other_machine)
          error(o.loc, fmt::format("arch '{}' has no host '{}'{}", p_.arch.name, name,
                                   sema::did_you_mean(name, host_names())));
        continue;
      }
      if (o.bandwidth) t.core_reads[*host].bandwidth = *o.bandwidth;
      if (o.latency) t.core_reads[*host].latency = *o.latency;
    }
  }

  /// Applies `file`'s entries (`what`: "link", "host copy") to `into`, per LinkId and direction.
  void override_links(const std::map<std::string, LinkOverride>& file, std::string_view what,
                      std::vector<std::array<LinkCost, 2>>& into) {
    for (const auto& [name, o] : file) {
      bool both = name.find("<->") != std::string::npos;
      auto arrow = name.find(both ? "<->" : "->");
      auto trim = [](std::string s) {
        while (!s.empty() && s.front() == ' ') s.erase(s.begin());
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
      };
      if (arrow == std::string::npos) {
        error(o.loc, fmt::format("{} '{}' must read 'X <-> Y' or 'X -> Y'", what, name));
        continue;
      }
      std::string from = trim(name.substr(0, arrow));
      std::string to = trim(name.substr(arrow + (both ? 3 : 2)));
      if (elsewhere(from) || elsewhere(to)) continue;  // a link of the profiled machine
      auto a = p_.arch.find_pe(from);
      auto b = p_.arch.find_pe(to);
      std::optional<ir::LinkId> found;
      for (std::size_t i = 0; a && b && i < p_.arch.links.size(); ++i)
        if (p_.arch.links[i].connects(*a, *b) || p_.arch.links[i].connects(*b, *a))
          found = static_cast<ir::LinkId>(i);
      if (!found) {
        error(o.loc,
              fmt::format("arch '{}' has no link between '{}' and '{}'", p_.arch.name, from, to));
        continue;
      }
      const ir::Link& l = p_.arch.links[*found];
      for (int dir = 0; dir < 2; ++dir) {
        ir::PeId src = dir == 0 ? l.a : l.b;
        if (!both && src != *a) continue;
        if (o.bandwidth) into[*found][dir].bandwidth = *o.bandwidth;
        if (o.latency) into[*found][dir].latency = *o.latency;
      }
    }
  }

  void capacity(CostTable& t) {
    for (const ir::Pe& pe : p_.arch.pes) t.capacity.push_back(pe.memory);
    for (const auto& [name, entry] : c_.memory) {
      auto pe = p_.arch.find_pe(name);
      if (!pe && elsewhere(name)) continue;  // another machine's
      if (!pe)
        error(entry.second, fmt::format("unknown processing element '{}'{}", name,
                                        sema::did_you_mean(name, pe_names())));
      else
        t.capacity[*pe] = entry.first;
    }
  }

  /// The node's last measurement on PE `name` taken at its current params, if any.
  const FiringCost* measured(const ir::Node& node, const std::string& name) const {
    auto it = c_.nodes.find(node.spec_name());
    if (it == c_.nodes.end()) return nullptr;
    auto e = it->second.find(name);
    if (e == it->second.end()) return nullptr;
    for (auto f = e->second.rbegin(); f != e->second.rend(); ++f)
      if (measured_at(*f, node)) return &*f;
    return nullptr;
  }

  /// The entries whose mean is node `n`'s firing time on PE `pe`: its measurement there, else
  /// the actor's entry for the PE, else its measurements on the other PEs of the kind (the
  /// architecture's and another machine's, by name), else the actor's entry for the kind. Empty:
  /// none.
  std::vector<const FiringCost*> entries_for(ir::NodeId n, ir::PeId pe) const {
    const ir::Pe& q = p_.arch.pes[pe];
    const ir::Node& node = p_.dfg.nodes[n];
    if (const FiringCost* f = measured(node, q.name)) return {f};
    auto actor = c_.actors.find(p_.dfg.actor_of(n).name);
    if (actor != c_.actors.end())
      if (auto e = actor->second.find(q.name); e != actor->second.end()) return {&e->second};
    std::vector<const FiringCost*> alike;
    if (auto it = c_.nodes.find(node.spec_name()); it != c_.nodes.end())
      for (const auto& [name, list] : it->second)
        if (name != q.name && kind_of(name) == q.kind)
          if (const FiringCost* f = measured(node, name)) alike.push_back(f);
    if (!alike.empty()) return alike;
    if (actor != c_.actors.end())
      if (auto e = actor->second.find(std::string(ir::to_string(q.kind))); e != actor->second.end())
        return {&e->second};
    return {};
  }

  static double param_value(const ir::Node& node, const std::string& name) {
    for (const ir::ParamValue& v : node.params)
      if (v.name == name) return ir::to_double(v.value);
    return 0.0;
  }

  /// Whether a node measurement stands for `node` with its current params.
  static bool measured_at(const FiringCost& f, const ir::Node& node) {
    if (!f.at) return true;
    for (const auto& [name, value] : *f.at)
      if (param_value(node, name) != value) return false;
    return true;
  }

  double seconds(const FiringCost& f, const ir::Node& node) const {
    auto value = [&](const std::string& name) {
      if (auto c = c_.coefficients.find(name); c != c_.coefficients.end()) return c->second;
      return param_value(node, name);
    };
    double ms = f.ms.eval(value);
    for (const auto& [param, coef] : f.per) ms += coef * value(param);
    return ms * 1e-3;
  }

  void firing(CostTable& t) {
    const std::size_t pes = p_.arch.pes.size();
    t.firing.assign(p_.dfg.nodes.size(), std::vector<std::optional<double>>(pes));
    std::set<std::pair<std::string, std::string>> reported;
    // A node's measurement out of range, reported at the first PE that uses it (several PEs of
    // its kind may borrow it).
    std::set<std::pair<const FiringCost*, ir::NodeId>> out_of_range;
    for (ir::NodeId n = 0; n < p_.dfg.nodes.size(); ++n) {
      const ir::Node& node = p_.dfg.nodes[n];
      std::vector<ir::PeId> allowed = node.candidates;
      if (allowed.empty()) allowed.push_back(p_.mapping.pe_of[n]);
      for (ir::PeId pe : allowed) {
        const std::vector<const FiringCost*> entries = entries_for(n, pe);
        if (entries.empty()) {
          const std::string& actor = p_.dfg.actor_of(n).name;
          const ir::Pe& q = p_.arch.pes[pe];
          // At the actor's entry when the file has one (it lacks this PE and its kind).
          auto entry = c_.actor_locs.find(actor);
          SourceLoc at = entry != c_.actor_locs.end() ? entry->second : SourceLoc{c_.file, 0};
          if (reported.emplace(actor, q.name).second)
            error(at, fmt::format("no firing time for actor '{}' on {} (a {}), where "
                                  "node '{}' may run; add \"actors\": {{\"{}\": {{\"{}\": "
                                  "...}}}}",
                                  actor, q.name, ir::to_string(q.kind), node.spec_name(), actor,
                                  ir::to_string(q.kind)));
          continue;
        }
        double total = 0;
        bool valid = true;
        for (const FiringCost* f : entries) {
          const double s = seconds(*f, node) + 0.0;  // -0 is 0
          if (!(s >= 0) || !(s * 1e3 <= kMaxFiringMs)) {
            valid = false;
            if (!out_of_range.emplace(f, n - node.copy).second) break;
            error(f->loc, fmt::format("the firing time of node '{}' on {} is {:g} ms; it must be "
                                      "a non-negative number of milliseconds, at most 86400000 "
                                      "(a day)",
                                      node.spec_name(), p_.arch.pes[pe].name, s * 1e3));
            break;
          }
          total += s;
        }
        // A copy of an unfolded graph runs copy_batch() of the written batch's iterations.
        const double share = static_cast<double>(p_.copy_batch()) / p_.written_batch;
        if (valid) t.firing[n][pe] = total / static_cast<double>(entries.size()) * share;
      }
    }
  }

  const CostFile& c_;
  const ir::Program& p_;
  DiagnosticEngine& diags_;
  bool failed_ = false;
};

}  // namespace

std::optional<CostTable> resolve_costs(const CostFile& costs, const ir::Program& program,
                                       DiagnosticEngine& diags) {
  return Resolver(costs, program, diags).run();
}

}  // namespace dfgc::mapping
