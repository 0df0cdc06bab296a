/// \file
/// Rates that depend on an actor's params, per node (sema/node_rates.hpp).
#include "sema/node_rates.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sema/actors.hpp"
#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/types.hpp"

namespace dfgc::sema {

namespace {

/// A port's rate and history for one node.
using Rates = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

/// The value a window's history holds before the stream (`peek N = value`; 0 without one).
std::optional<std::string> history_value(const ast::PortDecl& p, const ir::TokenType& type,
                                         const ParamTable& params, const SourceManager& sources,
                                         DiagnosticEngine& diags) {
  if (!p.peek_value) return "0";
  Evaluator value(params, sources, diags, ExprMode::value);
  return element_literal(*p.peek_value, type, value, sources, diags);
}

/// The node's param values, for the notes at it: "D = 1, T = 8".
std::string values_text(const ir::Node& node) {
  std::string text;
  for (const ir::ParamValue& v : node.params)
    text += (text.empty() ? "" : ", ") + v.name + " = " + v.literal;
  return text;
}

Rates rates_of(const ir::Actor& actor) {
  Rates out;
  for (const ir::Port& p : actor.ports) out.emplace_back(p.rate, p.history);
  return out;
}

/// The rates `node`'s values give its actor's ports; nullopt after reporting.
std::optional<Rates> node_rates(const ir::Program& program, const ir::Node& node,
                                const ActorInfo& info, const ParamTable& params,
                                const SourceManager& sources, DiagnosticEngine& diags) {
  const ir::Actor& actor = program.dfg.actors[node.actor];
  std::map<std::string, Number> values;
  for (const ir::ParamValue& v : node.params) values.emplace(v.name, to_number(v.value));
  auto lookup = [&](const std::string& name) -> const Number* {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  };
  Rates out = rates_of(actor);
  Evaluator count(params, sources, diags, ExprMode::integer);
  for (std::size_t i = 0; i < actor.ports.size(); ++i) {
    if (!info.rate_uses_params[i]) continue;
    const ast::PortDecl& p = *info.ports[i];
    auto fail = [&](const ast::Expr& e, std::string message) {
      auto b = error_at(diags, span_of(e, sources), std::move(message));
      b.note(node.loc,
             fmt::format("node '{}' is declared here ({})", node.name, values_text(node)));
      return std::nullopt;
    };
    if (p.rate) {
      const ast::ExprPtr bound = bind_names(p.rate.get(), lookup);
      auto rate = count.eval(bound.get());
      if (!rate) return std::nullopt;
      if (rate->integer < 1 || rate->integer > kMaxRate)
        return fail(*p.rate, fmt::format("port '{}' has rate {} for node '{}'; a firing moves 1 "
                                         "to {} tokens through a port",
                                         p.name.name, rate->integer, node.name, kMaxRate));
      if (program.types[actor.ports[i].type].bounded && rate->integer != 1)
        return fail(*p.rate, fmt::format("port '{}' of bounded type '{}' has rate {} for node "
                                         "'{}'; a port of a bounded type moves one token per "
                                         "firing",
                                         p.name.name, program.types[actor.ports[i].type].name,
                                         rate->integer, node.name));
      out[i].first = static_cast<std::uint32_t>(rate->integer);
    }
    if (info.window_ok[i]) {
      const ast::ExprPtr bound = bind_names(p.peek.get(), lookup);
      auto n = count.eval(bound.get());
      if (!n) return std::nullopt;
      if (n->integer < out[i].first || n->integer > kMaxRate)
        return fail(*p.peek,
                    fmt::format("port '{}' peeks {} tokens for node '{}', and its rate "
                                "is {}; a firing sees at least the tokens it consumes "
                                "and at most {}",
                                p.name.name, n->integer, node.name, out[i].first, kMaxRate));
      out[i].second = static_cast<std::uint32_t>(n->integer) - out[i].first;
    }
  }
  return out;
}

/// The sizes `node`'s values give its actor's port groups, by group name; nullopt after
/// reporting.
std::optional<std::map<std::string, std::uint32_t>> node_groups(
    const ir::Node& node, const ir::Actor& actor, const ActorInfo& info, const ParamTable& params,
    const SourceManager& sources, DiagnosticEngine& diags) {
  std::map<std::string, Number> values;
  for (const ir::ParamValue& v : node.params) values.emplace(v.name, to_number(v.value));
  auto lookup = [&](const std::string& name) -> const Number* {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  };
  std::map<std::string, std::uint32_t> out;
  Evaluator count(params, sources, diags, ExprMode::integer);
  for (std::size_t i = 0; i < actor.ports.size(); ++i) {
    const ir::Port& port = actor.ports[i];
    if (port.group.empty() || port.group_index != 0) continue;
    if (!info.group_uses_params[i]) {
      out[port.group] = static_cast<std::uint32_t>(actor.group_ports(port.group).size());
      continue;
    }
    const ast::PortDecl& p = *info.ports[i];
    const ast::ExprPtr bound = bind_names(p.count.get(), lookup);
    auto size = count.eval(bound.get());
    if (!size) return std::nullopt;
    if (size->integer < 1 || size->integer > kMaxGroup) {
      auto b = error_at(diags, span_of(*p.count, sources),
                        fmt::format("port group '{}' has {} ports for node '{}'; a group has 1 "
                                    "to {}",
                                    p.name.name, size->integer, node.name, kMaxGroup));
      b.note(node.loc,
             fmt::format("node '{}' is declared here ({})", node.name, values_text(node)));
      return std::nullopt;
    }
    out[port.group] = static_cast<std::uint32_t>(size->integer);
  }
  return out;
}

}  // namespace

bool specialize_groups(ActorTable& actors, NodeTable& nodes, const ParamTable& params,
                       const SourceManager& sources, DiagnosticEngine& diags) {
  std::map<std::pair<ir::ActorId, std::map<std::string, std::uint32_t>>, ir::ActorId> copies;
  const std::size_t declared = actors.actors.size();
  bool ok = true;
  for (std::size_t n = 0; n < nodes.nodes.size(); ++n) {
    if (!nodes.actor_of[n] || *nodes.actor_of[n] >= declared) continue;
    const ir::ActorId a = *nodes.actor_of[n];
    bool depends = false;
    for (bool d : actors.info[a].group_uses_params) depends = depends || d;
    if (!depends) continue;
    // The actor's own sizes were checked at its defaults (and reported there).
    const ir::Actor& actor = actors.actors[a];
    const ir::Node& node = nodes.nodes[n];
    bool defaults = node.params.size() == actor.params.size();
    for (std::size_t i = 0; defaults && i < actor.params.size(); ++i)
      defaults = actor.params[i].default_value == node.params[i].value;
    if (defaults) continue;
    auto sizes = node_groups(node, actor, actors.info[a], params, sources, diags);
    if (!sizes) {
      ok = false;
      continue;
    }
    auto [it, fresh] = copies.try_emplace({a, *sizes}, a);
    if (fresh) {
      // The actor with each group's first port repeated to the node's size.
      const ActorInfo& info = actors.info[a];
      ir::Actor copy = actor;
      ActorInfo copy_info = info;
      copy.ports.clear();
      copy_info.ports.clear();
      copy_info.port_type_ok.clear();
      copy_info.rate_uses_params.clear();
      copy_info.group_uses_params.clear();
      copy_info.window_ok.clear();
      bool same = true;
      for (std::size_t i = 0; i < actor.ports.size(); ++i) {
        const ir::Port& port = actor.ports[i];
        if (port.group_index != 0) continue;
        const std::uint32_t size = port.group.empty() ? 1 : sizes->at(port.group);
        same = same && (port.group.empty() || size == actor.group_ports(port.group).size());
        for (std::uint32_t k = 0; k < size; ++k) {
          ir::Port p = port;
          if (!port.group.empty()) p.name = port.group + std::to_string(k);
          p.group_index = k;
          copy.ports.push_back(std::move(p));
          copy_info.ports.push_back(info.ports[i]);
          copy_info.port_type_ok.push_back(info.port_type_ok[i]);
          copy_info.rate_uses_params.push_back(info.rate_uses_params[i]);
          copy_info.group_uses_params.push_back(info.group_uses_params[i]);
          copy_info.window_ok.push_back(info.window_ok[i]);
        }
      }
      if (!same) {
        it->second = static_cast<ir::ActorId>(actors.actors.size());
        actors.actors.push_back(std::move(copy));
        actors.info.push_back(std::move(copy_info));
      }
    }
    nodes.nodes[n].actor = it->second;
    nodes.actor_of[n] = it->second;
  }
  return ok;
}

bool specialize_rates(ir::Program& program, const std::vector<ActorInfo>& info,
                      const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags) {
  std::map<std::pair<ir::ActorId, Rates>, ir::ActorId> copies;
  const std::size_t declared = program.dfg.actors.size();
  bool ok = true;
  for (ir::Node& node : program.dfg.nodes) {
    if (node.actor >= declared || node.actor >= info.size()) continue;
    const ActorInfo& i = info[node.actor];
    bool depends = false;
    for (bool d : i.rate_uses_params) depends = depends || d;
    if (!depends) continue;
    auto rates = node_rates(program, node, i, params, sources, diags);
    if (!rates) {
      ok = false;
      continue;
    }
    if (*rates == rates_of(program.dfg.actors[node.actor])) continue;
    auto [it, fresh] = copies.try_emplace({node.actor, *rates}, 0);
    if (fresh) {
      ir::Actor copy = program.dfg.actors[node.actor];
      for (std::size_t p = 0; p < copy.ports.size(); ++p) {
        ir::Port& port = copy.ports[p];
        port.rate = (*rates)[p].first;
        port.history = (*rates)[p].second;
        if (port.history == 0) {
          port.history_value.clear();
        } else if (port.history_value.empty()) {  // no history at the defaults
          auto literal =
              history_value(*i.ports[p], program.types[port.type], params, sources, diags);
          if (!literal) return false;
          port.history_value = *literal;
        }
      }
      it->second = static_cast<ir::ActorId>(program.dfg.actors.size());
      program.dfg.actors.push_back(std::move(copy));
    }
    node.actor = it->second;
  }
  return ok;
}

void drop_unused_copies(ir::Program& program, std::size_t declared) {
  std::vector<bool> used(program.dfg.actors.size(), false);
  for (const ir::Node& node : program.dfg.nodes) used[node.actor] = true;
  std::vector<ir::ActorId> renumbered(program.dfg.actors.size());
  std::vector<ir::Actor> kept;
  for (std::size_t a = 0; a < program.dfg.actors.size(); ++a) {
    if (a >= declared && !used[a]) continue;
    renumbered[a] = static_cast<ir::ActorId>(kept.size());
    kept.push_back(std::move(program.dfg.actors[a]));
  }
  program.dfg.actors = std::move(kept);
  for (ir::Node& node : program.dfg.nodes) node.actor = renumbered[node.actor];
}

}  // namespace dfgc::sema
