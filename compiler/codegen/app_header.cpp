#include <algorithm>
#include <cstdint>
#include <set>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"
#include "codegen/worker.hpp"

namespace dfgc::codegen {

namespace {

/// Binding strength of a size term, as in C++ and the spec: + - loosest, then * / %, then unary
/// minus (and a negative literal), then names, literals and calls.
int precedence(const ir::SizeTerm& t) {
  using K = ir::SizeTerm::Kind;
  switch (t.kind) {
    case K::add:
    case K::subtract: return 1;
    case K::multiply:
    case K::divide:
    case K::modulo: return 2;
    case K::negate: return 3;
    case K::integer: return t.value < 0 ? 3 : 4;
    case K::param:
    case K::min:
    case K::max: return 4;
  }
  return 4;
}

/// How cxx_expr writes a param: by its spec name (comments), or as the generated code reads it.
enum class Names : bool { spec, code };

/// The size expression with the fewest parentheses that keep its structure: "N * N",
/// "(W + 2) * H", "min(N, 4)". In code, a param fixed at compile time is app.hpp's constant
/// (param::N) and a runtime param a checked dfg::Size (dfg::Size(params.W)), so that every
/// operation that involves a runtime param is checked.
std::string cxx_expr(const ir::SizeTerm& t, Names names) {
  using K = ir::SizeTerm::Kind;
  auto operand = [names](const ir::SizeTerm& o, bool parens) {
    return parens ? render_part("expr_parens", {{"a", cxx_expr(o, names)}}) : cxx_expr(o, names);
  };
  switch (t.kind) {
    case K::integer: return std::to_string(t.value);
    case K::param:
      if (names == Names::spec) return t.param;
      return render_part(
          t.runtime ? TemplatePart("expr_runtime_param") : TemplatePart("expr_fixed_param"),
          {{"name", t.param}});
    case K::negate:
      return render_part("expr_negate",
                         {{"a", operand(t.operands.at(0), precedence(t.operands.at(0)) <= 3)}});
    case K::min:
    case K::max:
      return render_part("expr_call", {{"fn", t.kind == K::min ? "min" : "max"},
                                       {"a", cxx_expr(t.operands.at(0), names)},
                                       {"b", cxx_expr(t.operands.at(1), names)}});
    case K::add:
    case K::subtract:
    case K::multiply:
    case K::divide:
    case K::modulo: break;
  }
  const char op = t.kind == K::add        ? '+'
                  : t.kind == K::subtract ? '-'
                  : t.kind == K::multiply ? '*'
                  : t.kind == K::divide   ? '/'
                                          : '%';
  // Operators associate to the left: a right operand of equal strength keeps its parentheses.
  const int p = precedence(t);
  return render_part("expr_binary",
                     {{"a", operand(t.operands.at(0), precedence(t.operands.at(0)) < p)},
                      {"op", std::string(1, op)},
                      {"b", operand(t.operands.at(1), precedence(t.operands.at(1)) <= p)}});
}

/// Whether a call of `kind` (min or max) occurs in the term.
bool calls(const ir::SizeTerm& t, ir::SizeTerm::Kind kind) {
  if (t.kind == kind) return true;
  return std::any_of(t.operands.begin(), t.operands.end(),
                     [&](const ir::SizeTerm& o) { return calls(o, kind); });
}

/// Adds the runtime params that occur in the term to `used`.
void runtime_params_in(const ir::SizeTerm& t, std::set<std::string>& used) {
  if (t.kind == ir::SizeTerm::Kind::param && t.runtime) used.insert(t.param);
  for (const ir::SizeTerm& o : t.operands) runtime_params_in(o, used);
}

/// kBatch, in a program whose cycle runs several iterations (HostPlan::batch).
std::string batch(const HostPlan& m) {
  if (m.program->batch == 1) return {};
  return render_part("app_batch", {{"k", std::to_string(m.program->batch)}});
}

std::string params(const std::vector<PlanParam>& all) {
  std::vector<const PlanParam*> fixed, runtime;
  for (const PlanParam& x : all) (x.runtime ? runtime : fixed).push_back(&x);
  std::string out;
  if (!fixed.empty()) {
    // In a namespace of their own, so that no name of the generated code can collide with them.
    std::string constants;
    for (const PlanParam* x : fixed)
      constants += render_part("app_param_constant",
                               {{"name", x->name}, {"value", std::to_string(x->value)}});
    out += render_part("app_params_fixed", {{"constants", constants}});
  }
  if (runtime.empty()) return out + render_part("app_params_none");
  std::string table, fields;
  std::vector<std::string> values;
  for (std::size_t i = 0; i < runtime.size(); ++i) {
    const PlanParam& x = *runtime[i];
    const std::string value = std::to_string(x.value);
    std::string bounds;
    if (x.bounds)
      bounds = render_part("app_param_bounds", {{"min", std::to_string(x.bounds->min)},
                                                {"max", std::to_string(x.bounds->max)}});
    table += render_part("app_param_row", {{"name", x.name}, {"value", value}, {"bounds", bounds}});
    fields += render_part("app_param_field", {{"name", x.name}, {"value", value}});
    values.push_back(render_part("app_param_value", {{"i", std::to_string(i)}}));
  }
  return out + render_part("app_params_runtime", {{"n", std::to_string(runtime.size())},
                                                  {"table", table},
                                                  {"fields", fields},
                                                  {"values", join(values)}});
}

std::string sizes(const std::vector<PlanType>& types, const std::vector<PlanParam>& params) {
  std::string out;
  bool min = false, max = false;
  for (const PlanType& t : types) {
    min = min || calls(t.count, ir::SizeTerm::Kind::min);
    max = max || calls(t.count, ir::SizeTerm::Kind::max);
  }
  if (min) out += render_part("app_min");
  if (max) out += render_part("app_max");
  if (min || max) out += "\n";
  std::string checks;
  std::size_t checked = 0;
  for (const PlanType& t : types) {
    Printer::Vars vars = {{"type", t.name},
                          {"elem", t.elem},
                          {"count", cxx_expr(t.count, Names::spec)},
                          {"cxx", cxx_expr(t.count, Names::code)}};
    std::set<std::string> used;
    runtime_params_in(t.count, used);
    if (used.empty()) {
      out += render_part("app_size_fixed", vars);
    } else {
      // In kRuntimeParams order: the params kRuntimeSizes names.
      std::vector<std::string> names;
      for (const PlanParam& x : params)
        if (x.runtime && used.count(x.name)) names.push_back(x.name);
      out += render_part("app_size_runtime", vars);
      checks += render_part("app_size_check", {{"type", t.name},
                                               {"elem", t.elem},
                                               {"count", t.count_text},
                                               {"names", join(names)},
                                               {"bytes", t.elem_bytes}});
      ++checked;
    }
    out += render_part("app_bytes", {{"type", t.name}, {"bytes", t.elem_bytes}});
  }
  if (checked == 0) return out + render_part("app_sizes_none");
  return out +
         render_part("app_sizes_runtime", {{"n", std::to_string(checked)}, {"checks", checks}});
}

/// `text` as a C++ string literal (spec names and labels hold no quote or backslash).
std::string literal(std::string_view text) {
  return render_part("string_literal", {{"text", std::string(text)}});
}

/// The items of an enum or an array initializer, "a, b, c": no comma after the last, so that the
/// formatter (format.hpp) packs them into as few lines as fit.
std::string pack(const std::vector<std::string>& items) { return join(items); }

std::string track_ident(const Model& m, ir::PeId pe, const StreamKind* s) {
  std::string id = "kTrack_" + m.pe(pe).ident;
  if (s) id += "_" + std::string(to_string(*s));
  return id;
}

/// Every trace track: a CPU's own, a GPU's streams.
std::vector<std::pair<std::string, std::string>> tracks(const Model& m) {
  std::vector<std::pair<std::string, std::string>> out;
  for (ir::PeId pe : m.pes()) {
    if (m.pe(pe).kind == ir::PeKind::cpu) {
      out.emplace_back(track_ident(m, pe, nullptr), m.pe(pe).name);
      continue;
    }
    for (StreamKind s : m.streams[pe])
      out.emplace_back(track_ident(m, pe, &s), fmt::format("{} {}", m.pe(pe).name, to_string(s)));
  }
  return out;
}

/// A node's params as --profile's "at" gives them, "first=1 last=28": each value as a plain
/// number (an integer exactly, a real as ir::to_double() reads it, true 1, false 0), so that the
/// profile can write it as JSON.
std::string profile_params(const std::vector<ir::ParamValue>& params) {
  std::string out;
  for (const ir::ParamValue& v : params) {
    const auto* integer = std::get_if<std::int64_t>(&v.value);
    out += fmt::format(
        "{}{}={}", out.empty() ? "" : " ", v.name,
        integer ? fmt::format("{}", *integer) : fmt::format("{}", ir::to_double(v.value)));
  }
  return out;
}

/// An alternative's state handoff on this host, its ends' hosts and its state tag, on several
/// hosts (dfg::Alternative's last fields); nothing on one host.
std::string alternative_state(const Model& m, const PlanMigration& a) {
  if (!m.multi_host()) return {};
  return render_part("app_alternative_state", {{"handoff", std::to_string(a.handoff)},
                                               {"from_host", std::to_string(m.pe(a.from).host)},
                                               {"to_host", std::to_string(m.pe(a.to).host)},
                                               {"state_tag", std::to_string(a.state_tag)}});
}

std::string strategy_block(const Model& m, ir::Strategy strategy) {
  const StrategyPlan& sm = m.strategies[strategy];
  bool overlap = strategy == ir::Strategy::overlap;
  std::string names, infos;
  for (const Entry& e : sm.entries) {
    names += render_part("app_entry_name", {{"ident", e.ident}, {"label", e.label}});
    std::string track =
        e.stream ? track_ident(m, e.runner, &*e.stream) : track_ident(m, e.runner, nullptr);
    const Entry::Transfer* t = e.transfer_if();
    std::string bytes = t ? "bytes_" + t->type : "nullptr";
    std::string_view kind = e.kind() == Entry::Kind::firing ? "firing" : t ? "transfer" : "copy";
    std::uint32_t step = t && !overlap ? t->step : 0;
    infos += render_part(
        "app_entry_info",
        {{"kind", std::string(kind)},
         {"name", e.short_name},
         {"where", e.where},
         {"track", track},
         {"first_cycle", std::to_string(e.first_cycle)},
         {"bytes", bytes},
         {"profile", e.profile.empty() ? "nullptr" : literal(e.profile)},
         {"at",
          e.kind() == Entry::Kind::firing ? literal(profile_params(e.firing().params)) : "nullptr"},
         {"step", std::to_string(step)},
         {"firings",
          std::to_string(e.kind() == Entry::Kind::firing ? m.node(e.id, e.runner).repetitions
                                                         : 1)}});
  }
  // Without overlap, the entries are most often those of the overlap strategy, in the same order:
  // then its enum is that one's.
  const bool shared = !overlap && m.same_entries;
  const std::string ns = overlap ? "overlap" : "no_overlap";
  std::string out = render_part(
      "app_strategy_open",
      {{"ns", ns},
       {"doc",
        overlap ? "With overlap (the default): transfers run during the cycle, beside the firings."
                : "Without overlap (--no-overlap): transfer steps, then the firings."}});
  out += shared ? render_part("app_strategy_shared_enum")
                : render_part("app_strategy_enum", {{"names", names}});
  out += render_part("app_strategy_entries", {{"n", std::to_string(sm.entries.size())},
                                              {"infos", infos},
                                              {"latency", std::to_string(sm.latency)}});
  if (!m.migrations.empty()) {
    std::string lists, rows;
    for (std::size_t a = 0; a < m.migrations.size(); ++a) {
      const PlanMigration& x = m.migrations[a];
      const PlanSwitch& sw = x.sides[strategy];
      auto list = [&](const char* what, const std::vector<std::size_t>& entries) {
        if (entries.empty()) return std::string("{}");
        std::vector<std::string> names;
        for (std::size_t i : entries) names.push_back(sm.entries[i].ident);
        lists += render_part("app_alternative_list",
                             {{"what", what}, {"a", std::to_string(a)}, {"names", join(names)}});
        return fmt::format("k{}{}", what, a);
      };
      const std::string stop = list("Stop", sw.stop), start = list("Start", sw.start);
      std::string node = x.node_name, from = m.pe(x.from).name, to = m.pe(x.to).name, parts;
      if (!x.parts.empty()) {
        std::vector<std::string> nodes, froms, tos, indices;
        for (std::size_t p : x.parts) {
          nodes.push_back(m.migrations[p].node_name);
          froms.push_back(m.pe(m.migrations[p].from).name);
          tos.push_back(m.pe(m.migrations[p].to).name);
          indices.push_back(std::to_string(p));
        }
        node = fmt::format("{}", fmt::join(nodes, " + "));
        from = fmt::format("{}", fmt::join(froms, " + "));
        to = fmt::format("{}", fmt::join(tos, " + "));
        lists +=
            render_part("app_alternative_list",
                        {{"what", "Parts"}, {"a", std::to_string(a)}, {"names", join(indices)}});
        parts = fmt::format(", kParts{}", a);
      }
      rows += render_part("app_alternative_row", {{"node", node},
                                                  {"from", from},
                                                  {"to", to},
                                                  {"parts", parts},
                                                  {"reversible", sw.reversible ? "true" : "false"},
                                                  {"stop", stop},
                                                  {"start", start},
                                                  {"delta", std::to_string(sw.delta)},
                                                  {"state", alternative_state(m, x)}});
    }
    out +=
        render_part("app_alternatives",
                    {{"lists", lists}, {"rows", rows}, {"n", std::to_string(m.migrations.size())}});
  }
  if (overlap) {
    std::vector<std::string> lists;
    for (ir::PeId pe : m.pes()) {
      std::vector<std::string> ns;
      for (ir::PeId q : sm.neighbours[pe]) ns.push_back("kPe_" + m.pe(q).ident);
      lists.push_back(render_part("app_neighbour_list", {{"items", join(ns)}}));
    }
    out += render_part("app_strategy_neighbours", {{"lists", pack(lists)}});
  }
  return out + render_part("app_strategy_close", {{"ns", ns}});
}

/// The control tag of a program on several hosts with alternatives (dfg::mpi::MigrationLink).
std::string control_tag(const Model& m) {
  if (m.program->control_tag < 0) return {};
  return render_part("app_control_tag", {{"tag", std::to_string(m.program->control_tag)}});
}

/// The count of the host's nodes whose state moves with them (dfg::StateHandoff).
std::string state_handoffs(const Model& m) {
  if (m.migrations.empty()) return {};
  const std::vector<std::string> names = m.handoff_names();
  return render_part("app_state_handoffs",
                     {{"names", names.empty() ? std::string("none") : join(names)},
                      {"n", std::to_string(names.size())}});
}

/// What a checkpoint of the host holds (PlanCheckpoint), as dfg::CheckpointTable reads it.
std::string checkpoint_table(const Model& m) {
  const PlanCheckpoint& c = m.checkpoint;
  std::vector<std::string> nodes, unsaved, what;
  for (const std::string& n : c.nodes) nodes.push_back(literal(n));
  for (const std::string& u : c.unsaved) unsaved.push_back(literal(u));
  std::string inputs;
  for (const PlanCheckpoint::Input& in : c.inputs)
    inputs += render_part(
        "app_checkpoint_input",
        {{"name", literal(in.name)}, {"delay", std::to_string(in.delay)}, {"type", in.type}});
  if (!c.refused.empty()) what.push_back("none, " + c.refused);
  if (!c.nodes.empty())
    what.push_back("the state of " + fmt::format("{}", fmt::join(c.nodes, ", ")));
  for (const PlanCheckpoint::Input& in : c.inputs)
    what.push_back(fmt::format("the {} tokens input {} reads next", in.delay, in.name));
  return render_part("app_checkpoint",
                     {{"host", m.host_name},
                      {"what", fmt::format("{}", fmt::join(what, "; "))},
                      {"n_nodes", std::to_string(nodes.size())},
                      {"nodes", join(nodes)},
                      {"n_inputs", std::to_string(c.inputs.size())},
                      {"inputs", inputs.empty() ? std::string("{}") : "{{\n" + inputs + "}}"},
                      {"n_unsaved", std::to_string(unsaved.size())},
                      {"unsaved", join(unsaved)},
                      {"app", literal(m.program->app_name)},
                      {"spec", fmt::format("{:016x}", c.spec)},
                      {"mapping", fmt::format("{:016x}", c.mapping)},
                      {"refused", literal(c.refused)}});
}

}  // namespace

std::string render_app_header(const Model& m) {
  std::string memory, factories;
  std::vector<std::string> pes, pe_names, pe_kinds;
  for (ir::PeId pe : m.pes()) {
    std::string id = m.pe(pe).ident;
    pes.push_back("kPe_" + id);
    pe_names.push_back(literal(m.pe(pe).name));
    pe_kinds.push_back(literal(m.pe(pe).kind == ir::PeKind::gpu ? "gpu" : "cpu"));
    memory += render_part("app_memory", {{"n", std::to_string(m.colour_count[pe])}, {"pe", id}});
    if (m.pe(pe).kind == ir::PeKind::gpu)
      factories += render_part("app_factory",
                               {{"pe", id}, {"name", m.pe(pe).name}, {"file", gpu_file(m, pe)}});
  }
  pes.push_back("kPeCount");
  std::vector<std::string> track_enum, track_names;
  auto all = tracks(m);
  for (std::size_t i = 0; i < all.size(); ++i) {
    track_enum.push_back(all[i].first + (i == 0 ? " = 1" : ""));
    track_names.push_back(literal(all[i].second));
  }
  return render_template(template_text("app.hpp"),
                         {{"header", file_header(m, "//")},
                          {"ns", host_namespace(m)},
                          {"app", m.program->app_name},
                          {"arch", m.program->arch_name},
                          {"host", m.host_name},
                          {"params", params(m.program->params) + batch(m)},
                          {"sizes", sizes(m.program->types, m.program->params)},
                          {"pes", pack(pes)},
                          {"pe_names", join(pe_names)},
                          {"pe_kinds", join(pe_kinds)},
                          {"tracks", pack(track_enum)},
                          {"track_count", std::to_string(all.size())},
                          {"track_names", pack(track_names)},
                          {"strategies", strategy_block(m, ir::Strategy::overlap) + "\n\n" +
                                             strategy_block(m, ir::Strategy::no_overlap) +
                                             state_handoffs(m) + control_tag(m)},
                          {"checkpoint", checkpoint_table(m)},
                          {"memory", memory},
                          {"factories", factories}});
}

}  // namespace dfgc::codegen
