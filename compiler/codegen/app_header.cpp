#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "codegen/files.hpp"
#include "codegen/printer.hpp"
#include "codegen/templates.hpp"

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
    return parens ? "(" + cxx_expr(o, names) + ")" : cxx_expr(o, names);
  };
  switch (t.kind) {
    case K::integer: return std::to_string(t.value);
    case K::param:
      if (names == Names::spec) return t.param;
      return t.runtime ? fmt::format("dfg::Size(params.{})", t.param) : "param::" + t.param;
    case K::negate: return "-" + operand(t.operands.at(0), precedence(t.operands.at(0)) <= 3);
    case K::min:
    case K::max:
      return fmt::format("{}({}, {})", t.kind == K::min ? "min" : "max", cxx_expr(t.operands.at(0), names),
                         cxx_expr(t.operands.at(1), names));
    case K::add:
    case K::subtract:
    case K::multiply:
    case K::divide:
    case K::modulo: break;
  }
  const char op = t.kind == K::add ? '+' : t.kind == K::subtract ? '-' : t.kind == K::multiply ? '*' : t.kind == K::divide ? '/' : '%';
  // Operators associate to the left: a right operand of equal strength keeps its parentheses.
  const int p = precedence(t);
  return fmt::format("{} {} {}", operand(t.operands.at(0), precedence(t.operands.at(0)) < p), op,
                     operand(t.operands.at(1), precedence(t.operands.at(1)) <= p));
}

/// Whether a call of `kind` (min or max) occurs in the term.
bool calls(const ir::SizeTerm& t, ir::SizeTerm::Kind kind) {
  if (t.kind == kind) return true;
  return std::any_of(t.operands.begin(), t.operands.end(), [&](const ir::SizeTerm& o) { return calls(o, kind); });
}

/// Adds the runtime params that occur in the term to `used`.
void runtime_params_in(const ir::SizeTerm& t, std::set<std::string>& used) {
  if (t.kind == ir::SizeTerm::Kind::param && t.runtime) used.insert(t.param);
  for (const ir::SizeTerm& o : t.operands) runtime_params_in(o, used);
}

std::string params(const std::vector<PlanParam>& all) {
  Printer out;
  std::vector<const PlanParam*> fixed, runtime;
  for (const PlanParam& x : all) (x.runtime ? runtime : fixed).push_back(&x);
  if (!fixed.empty()) {
    // In a namespace of their own, so that no name of the generated code can collide with them.
    out.emit("// The params of the spec, fixed when dfgc ran (dfgc compile -D NAME=VALUE).\n"
             "namespace param {\n");
    for (const PlanParam* x : fixed)
      out.emit({{"name", x->name}, {"value", std::to_string(x->value)}},
               "inline constexpr ::std::int64_t $name$ = $value$;\n");
    out.emit("}  // namespace param\n\n");
  }
  if (runtime.empty()) {
    out.emit(
        "/// The runtime params (--set NAME=VALUE, --params FILE): this app has none.\n"
        "inline constexpr std::array<dfg::RuntimeParam, 0> kRuntimeParams = {};\n"
        "struct Params {};\n"
        "inline Params params_of(const std::vector<std::int64_t>&) { return Params{}; }");
    return out.take();
  }
  std::string table, fields, values;
  for (std::size_t i = 0; i < runtime.size(); ++i) {
    const PlanParam& x = *runtime[i];
    std::string bounds = x.bounds ? fmt::format(", {}, {}", x.bounds->min, x.bounds->max) : "";
    table += fmt::format("    {{\"{}\", {}{}}},\n", x.name, x.value, bounds);
    fields += fmt::format("  ::std::int64_t {} = {};\n", x.name, x.value);
    values += fmt::format("{}values[{}]", i == 0 ? "" : ", ", i);
  }
  out.emit({{"n", std::to_string(runtime.size())}, {"table", table}, {"fields", fields}, {"values", values}},
           "/// The runtime params, with their defaults (and bounds): set with --set NAME=VALUE or\n"
           "/// --params FILE when the program starts; every size that depends on them is computed then.\n"
           "inline constexpr std::array<dfg::RuntimeParam, $n$> kRuntimeParams = {{\n"
           "$table$}};\n"
           "struct Params {\n"
           "$fields$};\n"
           "/// The values parse_flags returns, in the order of kRuntimeParams.\n"
           "inline Params params_of(const std::vector<std::int64_t>& values) { return Params{$values$}; }");
  return out.take();
}

std::string sizes(const std::vector<PlanType>& types, const std::vector<PlanParam>& params) {
  Printer out;
  bool min = false, max = false;
  for (const PlanType& t : types) {
    min = min || calls(t.count, ir::SizeTerm::Kind::min);
    max = max || calls(t.count, ir::SizeTerm::Kind::max);
  }
  if (min)
    out.emit("constexpr std::int64_t min(std::int64_t a, std::int64_t b) { return a < b ? a : b; }\n");
  if (max)
    out.emit("constexpr std::int64_t max(std::int64_t a, std::int64_t b) { return a < b ? b : a; }\n");
  if (min || max) out.emit("\n");
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
      out.emit(vars,
               "/// $type$ = $elem$[$count$]: elements and bytes per token.\n"
               "inline std::size_t elements_$type$(const Params&) { return static_cast<std::size_t>($cxx$); }\n");
    } else {
      // In kRuntimeParams order: the params kRuntimeSizes names.
      std::string names;
      for (const PlanParam& x : params)
        if (x.runtime && used.count(x.name)) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
      out.emit(vars,
               "/// $type$ = $elem$[$count$]: elements and bytes per token, computed from the runtime params\n"
               "/// (and checked when the program starts: kRuntimeSizes).\n"
               "inline dfg::Size count_$type$(const Params& params) {\n"
               "  return $cxx$;\n"
               "}\n"
               "inline std::size_t elements_$type$(const Params& params) {\n"
               "  return static_cast<std::size_t>(count_$type$(params).value());\n"
               "}\n");
      checks += fmt::format("    {{\"{}\", \"{}[{}]\", \"{}\", sizeof({}), count_{}}},\n", t.name, t.elem, t.count_text,
                            names, t.cxx_elem, t.name);
      ++checked;
    }
    out.emit({{"type", t.name}, {"cxx", t.cxx_elem}},
             "inline std::size_t bytes_$type$(const Params& params) {\n"
             "  return elements_$type$(params) * sizeof($cxx$);\n"
             "}\n\n");
  }
  if (checked == 0) {
    out.emit("/// The token sizes that depend on runtime params (dfg::token_size_error): none.\n"
             "inline constexpr std::array<dfg::TokenSize<Params>, 0> kRuntimeSizes = {};");
  } else {
    out.emit({{"n", std::to_string(checked)}, {"checks", checks}},
             "/// The token sizes that depend on runtime params: main refuses to start when one is not\n"
             "/// positive or overflows at the values given (dfg::token_size_error).\n"
             "inline constexpr std::array<dfg::TokenSize<Params>, $n$> kRuntimeSizes = {{\n"
             "$checks$}};");
  }
  return out.take();
}

/// The items of an enum or an array initializer, each followed by a comma, as many a line as fit
/// in 100 columns at `indent`.
std::string pack(const std::vector<std::string>& items, std::size_t indent) {
  std::string out, line;
  for (const std::string& item : items) {
    if (!line.empty() && indent + line.size() + 1 + item.size() + 1 > 100) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + item + ",";
  }
  return out + line;
}

std::string track_ident(const Model& m, ir::PeId pe, const StreamKind* s) {
  std::string id = "kTrack_" + identifier(m.pe(pe).name);
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

/// A node's params as --profile's "at" gives them, "first=1 last=28": each literal as a plain
/// number (true 1, false 0, no suffixes), so that the profile can write it as JSON.
std::string profile_params(const std::vector<ir::ParamValue>& params) {
  std::string out;
  for (const ir::ParamValue& v : params) {
    std::string literal = v.literal;
    while (!literal.empty() && std::strchr("fFlLuU", literal.back()) && !literal.starts_with("0x"))
      literal.pop_back();
    double value = literal == "true" ? 1 : literal == "false" ? 0 : std::strtod(literal.c_str(), nullptr);
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", v.name, value);
  }
  return out;
}

std::string strategy_block(const Model& m, ir::Strategy strategy) {
  const StrategyPlan& sm = m.strategies[strategy];
  bool overlap = strategy == ir::Strategy::overlap;
  std::string names, infos;
  for (const Entry& e : sm.entries) {
    names += fmt::format("  {},  // {}\n", e.ident, e.label);
    std::string track = e.stream ? track_ident(m, e.runner, &*e.stream) : track_ident(m, e.runner, nullptr);
    std::string bytes = e.kind == Entry::Kind::transfer ? "bytes_" + e.type : "nullptr";
    std::string_view kind = e.kind == Entry::Kind::firing ? "firing" : e.kind == Entry::Kind::transfer ? "transfer" : "copy";
    std::string profile = e.profile.empty() ? "nullptr" : fmt::format("\"{}\"", e.profile);
    std::uint32_t step = e.kind == Entry::Kind::transfer && !overlap ? e.step : 0;
    std::string at = e.kind == Entry::Kind::firing ? fmt::format("\"{}\"", profile_params(e.params)) : "nullptr";
    infos += fmt::format("    {{\"{}\", \"{}\", \"{}\", {}, {}, {}, {}, {}, {}, \"{}\"}},\n", kind, e.short_name,
                         e.where, track, e.first_cycle, bytes, profile, at, step, e.label);
  }
  Printer out;
  // Without overlap, the entries are most often those of the overlap strategy, in the same order:
  // then its enum is that one's.
  std::vector<std::string> idents, overlap_idents;
  for (const Entry& e : sm.entries) idents.push_back(e.ident);
  for (const Entry& e : m.strategies[ir::Strategy::overlap].entries) overlap_idents.push_back(e.ident);
  const bool shared = !overlap && idents == overlap_idents;
  out.emit({{"ns", overlap ? "overlap" : "no_overlap"},
            {"doc", overlap ? "With overlap (the default): transfers run during the cycle, beside the "
                              "firings."
                            : "Without overlap (--no-overlap): transfer steps, then the firings."}},
           "/// $doc$\n"
           "namespace $ns$ {\n"
           "\n");
  if (shared) {
    out.emit("using enum overlap::Entry;  // the same entries, in the same order\n");
  } else {
    out.emit({{"names", names}},
             "/// The firings, transfers and delay copies, in the order the threads run them.\n"
             "enum Entry : std::size_t {\n"
             "$names$};\n");
  }
  out.emit({{"n", std::to_string(sm.entries.size())},
            {"infos", infos},
            {"latency", std::to_string(sm.latency)}},
           "inline constexpr std::array<EntryInfo, $n$> kEntries = {{\n"
           "$infos$}};\n"
           "/// The last first cycle: a run has iterations + kLatency cycles.\n"
           "inline constexpr std::int64_t kLatency = $latency$;\n");
  if (overlap) {
    std::vector<std::string> lists;
    for (ir::PeId pe : m.pes()) {
      std::vector<std::string> ns;
      for (ir::PeId q : sm.neighbours[pe]) ns.push_back("kPe_" + identifier(m.pe(q).name));
      lists.push_back(fmt::format("{{{}}}", fmt::join(ns, ", ")));
    }
    out.emit({{"lists", pack(lists, 6)}},
             "/// Per PE, the PEs it shares memory with: the owner of a colour and the launchers of\n"
             "/// the transfers that touch it. --sync=neighbours waits for these only.\n"
             "inline std::vector<std::vector<int>> neighbours() {\n"
             "  return {\n"
             "      $lists$\n"
             "  };\n"
             "}\n");
  }
  out.emit({{"ns", overlap ? "overlap" : "no_overlap"}}, "\n}  // namespace $ns$");
  return out.take();
}

}  // namespace

std::string render_app_header(const Model& m) {
  std::string pe_names, pe_kinds, memory, factories;
  std::vector<std::string> pes;
  for (ir::PeId pe : m.pes()) {
    std::string id = identifier(m.pe(pe).name);
    pes.push_back("kPe_" + id);
    pe_names += fmt::format("{}\"{}\"", pe_names.empty() ? "" : ", ", m.pe(pe).name);
    pe_kinds += fmt::format("{}\"{}\"", pe_kinds.empty() ? "" : ", ",
                            m.pe(pe).kind == ir::PeKind::gpu ? "gpu" : "cpu");
    memory += fmt::format("std::array<dfg::SlotView, {}> {};\n", m.colour_count[pe], id);
    if (m.pe(pe).kind == ir::PeKind::gpu)
      factories += fmt::format("std::unique_ptr<Worker> make_{}(Run& run);  // the worker of GPU {} ({})\n", id,
                               m.pe(pe).name, gpu_file(m, pe));
  }
  pes.push_back("kPeCount");
  std::vector<std::string> track_enum, track_names;
  auto all = tracks(m);
  for (std::size_t i = 0; i < all.size(); ++i) {
    track_enum.push_back(all[i].first + (i == 0 ? " = 1" : ""));
    track_names.push_back(fmt::format("\"{}\"", all[i].second));
  }
  return render_template(
      template_text("app.hpp"),
      {{"header", file_header(m, "//")},
       {"ns", host_namespace(m)},
       {"app", m.app_name},
       {"arch", m.arch_name},
       {"host", m.host_name},
       {"params", params(m.params)},
       {"sizes", sizes(m.types, m.params)},
       {"pes", pack(pes, 2)},
       {"pe_names", pe_names},
       {"pe_kinds", pe_kinds},
       {"tracks", pack(track_enum, 2)},
       {"track_count", std::to_string(all.size())},
       {"track_names", pack(track_names, 4)},
       {"strategies", strategy_block(m, ir::Strategy::overlap) + "\n\n" +
                          strategy_block(m, ir::Strategy::no_overlap)},
       {"memory", memory},
       {"factories", factories}});
}

}  // namespace dfgc::codegen
