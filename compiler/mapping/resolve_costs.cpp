/// \file
/// resolve_costs: a costs file's names checked against one program, and the firing time of every
/// node on every PE it may run on.
#include <limits>
#include <set>

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
    check_actors();
    check_nodes();
    links(t);
    capacity(t);
    t.overhead = c_.overhead;
    firing(t);
    if (failed_) return std::nullopt;
    return t;
  }

 private:
  /// A profile of one rank names its host: a host the architecture has.
  void check_profile_host() {
    if (c_.profile_host.empty()) return;
    std::vector<std::string> names;
    for (const ir::Host& h : p_.arch.hosts) {
      if (h.name == c_.profile_host) return;
      names.push_back(h.name);
    }
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    error(c_.profile_host_loc, fmt::format("the profile is of host '{}', which arch '{}' lacks "
                                           "(its hosts: {})",
                                           c_.profile_host, p_.arch.name, list));
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
    for (const ir::Node& n : p_.dfg.nodes) names.push_back(n.name);
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
          if (!p_.arch.find_pe(where))
            error(f.loc, fmt::format("unknown processing element '{}'{}", where,
                                     sema::did_you_mean(where, pe_names())));
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
      if (!pe)
        error(entry.second, fmt::format("unknown processing element '{}'{}", name,
                                        sema::did_you_mean(name, pe_names())));
      else
        t.capacity[*pe] = entry.first;
    }
  }

  /// The entry for node `n` on PE `pe`: the node's last measurement there taken at its params,
  /// else the actor's for the PE, else for its kind.
  const FiringCost* entry_for(ir::NodeId n, ir::PeId pe) const {
    const ir::Pe& q = p_.arch.pes[pe];
    const ir::Node& node = p_.dfg.nodes[n];
    if (auto it = c_.nodes.find(node.name); it != c_.nodes.end())
      if (auto e = it->second.find(q.name); e != it->second.end())
        for (auto f = e->second.rbegin(); f != e->second.rend(); ++f)
          if (measured_at(*f, node)) return &*f;
    auto it = c_.actors.find(p_.dfg.actor_of(n).name);
    if (it == c_.actors.end()) return nullptr;
    if (auto e = it->second.find(q.name); e != it->second.end()) return &e->second;
    if (auto e = it->second.find(std::string(ir::to_string(q.kind))); e != it->second.end())
      return &e->second;
    return nullptr;
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
    for (ir::NodeId n = 0; n < p_.dfg.nodes.size(); ++n) {
      const ir::Node& node = p_.dfg.nodes[n];
      std::vector<ir::PeId> allowed = node.candidates;
      if (allowed.empty()) allowed.push_back(p_.mapping.pe_of[n]);
      for (ir::PeId pe : allowed) {
        const FiringCost* f = entry_for(n, pe);
        if (!f) {
          const std::string& actor = p_.dfg.actor_of(n).name;
          const ir::Pe& q = p_.arch.pes[pe];
          // At the actor's entry when the file has one (it lacks this PE and its kind).
          auto entry = c_.actor_locs.find(actor);
          SourceLoc at = entry != c_.actor_locs.end() ? entry->second : SourceLoc{c_.file, 0};
          if (reported.emplace(actor, q.name).second)
            error(at, fmt::format("no firing time for actor '{}' on {} (a {}), where "
                                  "node '{}' may run; add \"actors\": {{\"{}\": {{\"{}\": "
                                  "...}}}}",
                                  actor, q.name, ir::to_string(q.kind), node.name, actor,
                                  ir::to_string(q.kind)));
          continue;
        }
        double s = seconds(*f, node) + 0.0;  // -0 is 0
        if (!(s >= 0) || !(s * 1e3 <= kMaxFiringMs)) {
          error(f->loc, fmt::format("the firing time of node '{}' on {} is {:g} ms; it must be a "
                                    "non-negative number of milliseconds, at most 86400000 "
                                    "(a day)",
                                    node.name, p_.arch.pes[pe].name, s * 1e3));
          continue;
        }
        t.firing[n][pe] = s;
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
