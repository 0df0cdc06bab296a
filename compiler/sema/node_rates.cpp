/// \file
/// Rates that depend on an actor's params, per node (sema/node_rates.hpp).
#include "sema/node_rates.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

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
  // Where the node sets the params its rates read, for the notes.
  auto set_at = [&]() {
    std::string text;
    for (const ir::ParamValue& v : node.params)
      text += (text.empty() ? "" : ", ") + v.name + " = " + v.literal;
    return text;
  };
  Rates out = rates_of(actor);
  Evaluator count(params, sources, diags, ExprMode::integer);
  for (std::size_t i = 0; i < actor.ports.size(); ++i) {
    if (!info.rate_uses_params[i]) continue;
    const ast::PortDecl& p = *info.ports[i];
    auto fail = [&](const ast::Expr& e, std::string message) {
      auto b = error_at(diags, span_of(e, sources), std::move(message));
      b.note(node.loc, fmt::format("node '{}' is declared here ({})", node.name, set_at()));
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
    if (p.peek && actor.ports[i].peek_loc.offset == p.peek_loc.offset) {
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

}  // namespace

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

}  // namespace dfgc::sema
