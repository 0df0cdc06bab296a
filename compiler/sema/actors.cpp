/// \file
/// Checks actor declarations and builds the ir::Actor of each.
#include "sema/actors.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

/// Why `header` cannot be written into the generated code's `#include "..."`: a control character
/// (a newline from an escape would end the directive), a quote or a backslash; nullopt if it can.
std::optional<std::string> unusable_in_include(std::string_view header) {
  for (unsigned char c : header) {
    if (c < 0x20 || c == 0x7F)
      return fmt::format(
          "header path contains the control character U+{:04X}; it is written into "
          "an #include of the generated code",
          static_cast<unsigned>(c));
    if (c == '"' || c == '\\')
      return fmt::format("header path contains '{}', which an #include \"...\" cannot hold",
                         static_cast<char>(c));
  }
  // The header's directory becomes an include directory of the generated CMake project, and
  // CMake does not split a list at a ';' inside unbalanced square brackets: two include
  // directories would become one.
  const std::string_view dir = header.substr(0, header.rfind('/') + 1);
  int depth = 0;
  for (char c : dir) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth != 0)
    return std::string(
        "header path's directory has an unbalanced '[' or ']': CMake, which builds the generated "
        "project, would merge its include directory with the next one; rename the directory");
  return std::nullopt;
}

/// A port's `rate`: a compile-time integer in [1, kMaxRate]; 1 without one or after an error.
/// `rate` is the port's expression with the actor's params bound to their defaults.
std::uint32_t check_rate(const ast::PortDecl& p, const ast::Expr* rate_expr, Evaluator& count,
                         const SourceManager& sources, DiagnosticEngine& diags) {
  if (!rate_expr) return 1;
  auto rate = count.eval(rate_expr);
  if (!rate || !count.require_fixed(*rate, fmt::format("the rate of port '{}'", p.name.name)))
    return 1;
  if (rate->integer < 1 || rate->integer > kMaxRate) {
    error_at(diags, span_of(*p.rate, sources),
             fmt::format("port '{}' has rate {}; a firing moves 1 to {} tokens through a port",
                         p.name.name, rate->integer, kMaxRate));
    return 1;
  }
  return static_cast<std::uint32_t>(rate->integer);
}

/// A port group's size (`in T x[N];`): a compile-time integer in [1, kMaxGroup]; 1 after an
/// error. `size_expr` is the group's expression with the actor's params bound to their defaults.
std::uint32_t check_group_size(const ast::PortDecl& p, const ast::Expr* size_expr, Evaluator& count,
                               const SourceManager& sources, DiagnosticEngine& diags) {
  auto size = count.eval(size_expr);
  if (!size || !count.require_fixed(*size, fmt::format("the size of port group '{}'", p.name.name)))
    return 1;
  if (size->integer < 1 || size->integer > kMaxGroup) {
    error_at(diags, span_of(*p.count, sources),
             fmt::format("port group '{}' has {} ports; a group has 1 to {}", p.name.name,
                         size->integer, kMaxGroup));
    return 1;
  }
  return static_cast<std::uint32_t>(size->integer);
}

/// The values a port's rate and window see for the actor's params: their defaults (1 for a param
/// without one: every node sets it, and sema/node_rates.hpp evaluates them again with its values).
std::map<std::string, Number> default_values(const ir::Actor& actor) {
  std::map<std::string, Number> values;
  for (const ir::ActorParam& p : actor.params) {
    Number one;
    one.integer = 1;
    values.emplace(p.name, p.default_value ? to_number(*p.default_value) : one);
  }
  return values;
}

/// `parallel (port count, ...)` of a dynamic actor's implementation (on a GPU its firings run on
/// many threads at once, on a CPU in batches): every port named once, each count a compile-time
/// integer in [1, kMaxRate]. Sets impl.parallel; false after an error.
bool check_parallel(const ast::ActorDecl& a, const ast::ImplDecl& i, Evaluator& count,
                    const SourceManager& sources, ir::Impl& impl, DiagnosticEngine& diags) {
  const std::uint32_t keyword = 8;
  if (!a.dynamic) {
    diags.error(*i.parallel,
                fmt::format("the implementation of actor '{}' is declared 'parallel', but only a "
                            "dynamic actor has a parallel action; declare 'actor {} dynamic'",
                            a.name.name, a.name.name),
                keyword);
    return false;
  }
  bool ok = true;
  std::vector<std::uint32_t> counts(a.ports.size(), 0);
  std::vector<const ast::Ident*> named(a.ports.size(), nullptr);
  for (const ast::ParallelCount& c : i.counts) {
    auto port = std::find_if(a.ports.begin(), a.ports.end(),
                             [&](const ast::PortDecl& p) { return p.name.name == c.port.name; });
    if (port == a.ports.end()) {
      std::vector<std::string> names;
      for (const ast::PortDecl& p : a.ports) names.push_back(p.name.name);
      error_at(diags, span_of(c.port),
               fmt::format("'parallel' names port '{}', but actor '{}' has no such port{}",
                           c.port.name, a.name.name, did_you_mean(c.port.name, names)));
      ok = false;
      continue;
    }
    const std::size_t p = static_cast<std::size_t>(port - a.ports.begin());
    if (named[p]) {
      auto b = error_at(diags, span_of(c.port),
                        fmt::format("'parallel' gives port '{}' two counts", c.port.name));
      note_at(b, span_of(*named[p]), "first given here");
      ok = false;
      continue;
    }
    named[p] = &c.port;
    auto n = count.eval(c.count.get());
    if (!n ||
        !count.require_fixed(*n, fmt::format("the parallel count of port '{}'", c.port.name))) {
      ok = false;
      continue;
    }
    if (n->integer < 1 || n->integer > kMaxRate) {
      error_at(diags, span_of(*c.count, sources),
               fmt::format("port '{}' has parallel count {}; a firing of a parallel action takes "
                           "or gives 1 to {} elements on each port",
                           c.port.name, n->integer, kMaxRate));
      ok = false;
      continue;
    }
    counts[p] = static_cast<std::uint32_t>(n->integer);
  }
  for (std::size_t p = 0; p < a.ports.size(); ++p) {
    if (named[p]) continue;
    auto b = diags.error(
        *i.parallel,
        fmt::format("'parallel' gives no count for {} port '{}'; a parallel action takes or gives "
                    "a fixed number of elements on every port: add '{} N'",
                    a.ports[p].dir == ast::PortDecl::Dir::in ? "input" : "output",
                    a.ports[p].name.name, a.ports[p].name.name),
        keyword);
    note_at(b, span_of(a.ports[p].name), "port declared here");
    ok = false;
  }
  if (!ok) return false;
  impl.parallel = std::move(counts);
  impl.parallel_loc = *i.parallel;
  return true;
}

/// The most elements of one ring.
constexpr std::int64_t kMaxFifo = std::int64_t{1} << 30;

/// A port's `fifo N`: only on an input of a dynamic actor, a compile-time integer in [1,
/// kMaxFifo]. Sets port.fifo_capacity.
void check_fifo(const ast::ActorDecl& a, const ast::PortDecl& p, Evaluator& count,
                const SourceManager& sources, ir::Port& port, DiagnosticEngine& diags) {
  if (!p.fifo) return;
  const std::uint32_t keyword = 4;
  if (!a.dynamic) {
    diags.error(
        p.fifo_loc,
        fmt::format("port '{}' of actor '{}' has a fifo capacity, but only the ports of a dynamic "
                    "actor are fifos; declare 'actor {} dynamic'",
                    p.name.name, a.name.name, a.name.name),
        keyword);
    return;
  }
  if (p.dir == ast::PortDecl::Dir::out) {
    diags.error(
        p.fifo_loc,
        fmt::format("output '{}' has a fifo capacity; a ring's capacity is stated on the input "
                    "that reads it",
                    p.name.name),
        keyword);
    return;
  }
  auto n = count.eval(p.fifo.get());
  if (!n || !count.require_fixed(*n, fmt::format("the fifo capacity of port '{}'", p.name.name)))
    return;
  if (n->integer < 1 || n->integer > kMaxFifo) {
    error_at(diags, span_of(*p.fifo, sources),
             fmt::format("port '{}' has fifo capacity {}; a ring holds 1 to {} elements",
                         p.name.name, n->integer, kMaxFifo));
    return;
  }
  port.fifo_capacity = n->integer;
  port.fifo_loc = p.fifo_loc;
}

/// A port of a dynamic actor: its type is an element type, it has no rate.
void check_dynamic_port(const ast::ActorDecl& a, const ast::PortDecl& p, const TypeTable& types,
                        Evaluator& count, const SourceManager& sources, ir::Actor& actor,
                        ActorInfo& info, DiagnosticEngine& diags) {
  if (p.rate)
    error_at(
        diags, span_of(*p.rate, sources),
        fmt::format("port '{}' of dynamic actor '{}' has a rate; a fifo port moves what each step "
                    "takes or gives, so it has none",
                    p.name.name, a.name.name));
  if (p.peek)
    diags.error(p.peek_loc,
                fmt::format("port '{}' of dynamic actor '{}' peeks; a fifo port's step sees every "
                            "element its ring holds (in.peek(n)), so it declares no window",
                            p.name.name, a.name.name),
                4);
  auto elem = ir::parse_elem_type(p.type.name);
  if (elem && ir::is_complex(*elem)) {
    error_at(diags, span_of(p.type),
             fmt::format("fifo port '{}' of dynamic actor '{}' has complex elements ('{}'); a "
                         "ring holds scalars: give it float or double and two elements a sample",
                         p.name.name, a.name.name, p.type.name));
    elem.reset();
  } else if (!elem && types.struct_names.find(p.type.name)) {
    error_at(diags, span_of(p.type),
             fmt::format("fifo port '{}' of dynamic actor '{}' has struct elements ('{}'); a ring "
                         "holds scalars: give it one ring a field, or make the actor static",
                         p.name.name, a.name.name, p.type.name));
  } else if (!elem && !p.type.name.empty()) {
    std::vector<std::string> names;
    for (ir::ElemType t :
         {ir::ElemType::f32, ir::ElemType::f64, ir::ElemType::i8, ir::ElemType::i16,
          ir::ElemType::i32, ir::ElemType::i64, ir::ElemType::u8, ir::ElemType::u16,
          ir::ElemType::u32, ir::ElemType::u64})
      names.emplace_back(ir::spec_name(t));
    const bool token = types.names.find(p.type.name).has_value();
    error_at(diags, span_of(p.type),
             token ? fmt::format(
                         "port '{}' of dynamic actor '{}' has token type '{}'; a fifo port carries "
                         "elements: give its element type ({})",
                         p.name.name, a.name.name, p.type.name, fmt::join(names, ", "))
                   : fmt::format("unknown element type '{}' for fifo port '{}'; expected {}{}",
                                 p.type.name, p.name.name, fmt::join(names, ", "),
                                 did_you_mean(p.type.name, names)));
  }
  ir::PortDir dir = p.dir == ast::PortDecl::Dir::in ? ir::PortDir::in : ir::PortDir::out;
  ir::Port port{p.name.name, dir, 0, p.name.loc, 1};
  port.fifo_elem = elem.value_or(ir::ElemType::i32);
  check_fifo(a, p, count, sources, port, diags);
  actor.ports.push_back(std::move(port));
  info.ports.push_back(&p);
  info.port_type_ok.push_back(elem.has_value());
  info.rate_uses_params.push_back(false);  // a fifo port has no rate
  info.group_uses_params.push_back(false);
  info.window_ok.push_back(false);
}

/// A port's `mappable`: only on a static port; a warning where no implementation runs on a GPU.
bool check_mappable(const ast::ActorDecl& a, const ast::PortDecl& p, DiagnosticEngine& diags) {
  if (!p.mappable) return false;
  const std::uint32_t keyword = 8;
  if (a.dynamic) {
    diags.error(p.mappable_loc,
                fmt::format("port '{}' of dynamic actor '{}' is declared mappable; dfgc places "
                            "the rings of dynamic actors itself",
                            p.name.name, a.name.name),
                keyword);
    return false;
  }
  const bool gpu = std::any_of(a.impls.begin(), a.impls.end(),
                               [](const ast::ImplDecl& i) { return i.kind.name == "gpu"; });
  if (!gpu)
    diags.warning(p.mappable_loc,
                  fmt::format("port '{}' is declared mappable, but actor '{}' has no gpu "
                              "implementation: 'mappable' says how a GPU's kernels touch a token",
                              p.name.name, a.name.name),
                  keyword);
  return true;
}

/// A port's `peek N [= value]`: an input of a type that is not bounded, N a compile-time integer
/// from its rate to kMaxRate; sets the port's history (N - rate tokens) and their value. Returns
/// whether the port has a window so checked.
bool check_peek(const ast::PortDecl& p, const ast::Expr* peek_expr, const TypeTable& types,
                Evaluator& count, Evaluator& value, const SourceManager& sources, ir::Port& port,
                DiagnosticEngine& diags) {
  if (!p.peek) return false;
  constexpr auto keyword = static_cast<std::uint32_t>(std::string_view("peek").size());
  if (port.dir == ir::PortDir::out) {
    diags.error(p.peek_loc,
                fmt::format("output '{}' peeks; only an input has a window: its firing sees the "
                            "tokens before its rate's",
                            p.name.name),
                keyword);
    return false;
  }
  const ir::TokenType& type = types.types[port.type];
  if (type.bounded) {
    diags.error(p.peek_loc,
                fmt::format("port '{}' of bounded type '{}' peeks; a port of a bounded type moves "
                            "one token per firing, and its firings see no other",
                            p.name.name, type.name),
                keyword);
    return false;
  }
  if (type.record) {
    diags.error(p.peek_loc,
                fmt::format("port '{}' of type '{}', of struct '{}', peeks; a window holds "
                            "elements of a scalar or complex type",
                            p.name.name, type.name, type.record->name),
                keyword);
    return false;
  }
  auto n = count.eval(peek_expr);
  if (!n || !count.require_fixed(*n, fmt::format("the window of port '{}'", p.name.name)))
    return false;
  if (n->integer < port.rate || n->integer > kMaxRate) {
    error_at(diags, span_of(*p.peek, sources),
             fmt::format("port '{}' peeks {} tokens, and its rate is {}; a firing sees at least "
                         "the tokens it consumes and at most {}",
                         p.name.name, n->integer, port.rate, kMaxRate));
    return false;
  }
  std::string literal = "0";
  if (p.peek_value) {
    auto checked = element_literal(*p.peek_value, type, value, sources, diags);
    if (!checked) return false;
    literal = std::move(*checked);
  }
  port.history = static_cast<std::uint32_t>(n->integer) - port.rate;
  port.history_value = port.history > 0 ? std::move(literal) : std::string();
  port.peek_loc = p.peek_loc;
  return true;
}

void check_ports(const ast::ActorDecl& a, const TypeTable& types, Evaluator& count,
                 Evaluator& value, const SourceManager& sources, ir::Actor& actor, ActorInfo& info,
                 DiagnosticEngine& diags) {
  NameTable names("port");
  for (const ast::PortDecl& p : a.ports) {
    if (a.dynamic && p.count) {
      error_at(diags, span_of(*p.count, sources),
               fmt::format("port '{}' of dynamic actor '{}' is a group; a dynamic actor's step "
                           "takes one ring a port: declare its ports one by one",
                           p.name.name, a.name.name));
      continue;
    }
    if (a.dynamic) {
      if (!names.declare(p.name, actor.ports.size(), diags)) continue;
      check_cxx_name(p.name, "port", diags);
      check_dynamic_port(a, p, types, count, sources, actor, info, diags);
      check_mappable(a, p, diags);
      continue;
    }
    // A struct is an element type: a port carries a token type of it.
    std::optional<std::size_t> type;
    if (types.struct_names.find(p.type.name) && !types.names.find(p.type.name))
      error_at(diags, span_of(p.type),
               fmt::format("'{}' is a struct, an element type; a port carries a token type: "
                           "declare one, as 'type {}s = {}[1];'",
                           p.type.name, p.type.name, p.type.name));
    else
      type = types.names.resolve(p.type, diags);
    // A rate or window may use the actor's params: checked here at their defaults, per node by
    // sema/node_rates.hpp.
    const std::map<std::string, Number> defaults = default_values(actor);
    auto lookup = [&](const std::string& name) -> const Number* {
      auto it = defaults.find(name);
      return it == defaults.end() ? nullptr : &it->second;
    };
    const ast::ExprPtr rate_expr = bind_names(p.rate.get(), lookup);
    const ast::ExprPtr size_expr = bind_names(p.count.get(), lookup);
    const std::uint32_t size =
        p.count ? check_group_size(p, size_expr.get(), count, sources, diags) : 1;
    const ast::ExprPtr peek_expr = bind_names(p.peek.get(), lookup);
    const std::uint32_t rate = check_rate(p, rate_expr.get(), count, sources, diags);
    if (type && types.types[*type].bounded && rate != 1) {
      error_at(diags, span_of(*p.rate, sources),
               fmt::format("port '{}' of bounded type '{}' has rate {}; a port of a bounded type "
                           "moves one token per firing",
                           p.name.name, types.types[*type].name, rate));
    }
    if (!names.declare(p.name, actor.ports.size(), diags)) continue;
    check_cxx_name(p.name, "port", diags);
    ir::PortDir dir = p.dir == ast::PortDecl::Dir::in ? ir::PortDir::in : ir::PortDir::out;
    actor.ports.push_back(
        {p.name.name, dir, static_cast<ir::TypeId>(type.value_or(0)), p.name.loc, rate});
    info.ports.push_back(&p);
    info.port_type_ok.push_back(type && types.ok[*type]);
    std::vector<std::string> params;
    for (const ir::ActorParam& ap : actor.params) params.push_back(ap.name);
    info.rate_uses_params.push_back(uses_names(p.rate.get(), params) ||
                                    uses_names(p.peek.get(), params));
    info.group_uses_params.push_back(false);
    check_fifo(a, p, count, sources, actor.ports.back(), diags);
    info.window_ok.push_back(
        type && types.ok[*type] &&
        check_peek(p, peek_expr.get(), types, count, value, sources, actor.ports.back(), diags));
    actor.ports.back().mappable = check_mappable(a, p, diags);
    if (!p.count) continue;
    if (type && types.types[*type].bounded)
      error_at(diags, span_of(*p.count, sources),
               fmt::format("port group '{}' has bounded type '{}'; a group's ports carry tokens "
                           "of a fixed size: declare the bounded ports one by one",
                           p.name.name, types.types[*type].name));
    // A group: x0 .. x{size-1}, each the port just checked under its own name.
    info.group_uses_params.back() = uses_names(p.count.get(), params);
    const ir::Port first = actor.ports.back();
    actor.ports.pop_back();
    // Each port is declared by the whole `x[N]`.
    const Span count = span_of(*p.count, sources);
    const Span declared{p.name.loc, count.loc.offset + count.length + 1 - p.name.loc.offset};
    for (std::uint32_t k = 0; k < size; ++k) {
      std::string name = p.name.name + std::to_string(k);
      if (!names.declare(name, declared, actor.ports.size(), diags) && k > 0) continue;
      ir::Port port = first;
      port.name = std::move(name);
      port.group = p.name.name;
      port.group_index = k;
      actor.ports.push_back(std::move(port));
      if (k == 0) continue;
      info.ports.push_back(&p);
      info.port_type_ok.push_back(info.port_type_ok.back());
      info.rate_uses_params.push_back(info.rate_uses_params.back());
      info.group_uses_params.push_back(info.group_uses_params.back());
      info.window_ok.push_back(info.window_ok.back());
    }
  }
}

void check_params(const ast::ActorDecl& a, Evaluator& eval, ir::Actor& actor, ActorInfo& info,
                  const SourceManager& sources, DiagnosticEngine& diags) {
  NameTable names("param");
  for (const ast::ActorParamDecl& p : a.params) {
    auto type = check_param_type(p.type, diags);
    std::optional<CheckedParamValue> checked;
    if (type && p.default_value)
      checked = check_param_value(p.default_value.get(), *type, p, false, eval, sources, diags);
    if (!names.declare(p.name, actor.params.size(), diags)) continue;
    check_cxx_name(p.name, "param", diags);
    ir::ActorParam param{p.name.name, p.type.name, std::nullopt, p.name.loc};
    if (checked) {
      param.default_literal = checked->literal;
      param.default_value = checked->value;
    }
    actor.params.push_back(std::move(param));
    info.params.push_back(&p);
    info.param_types.push_back(type);
  }
}

/// cpu or gpu; the parser accepts no other word here.
std::optional<ir::PeKind> impl_kind(const ast::Ident& kind) {
  if (kind.name == "cpu") return ir::PeKind::cpu;
  if (kind.name == "gpu") return ir::PeKind::gpu;
  return std::nullopt;
}

void check_impls(const ast::ActorDecl& a, const std::string& spec_file, Evaluator& count,
                 const SourceManager& sources, ir::Actor& actor, DiagnosticEngine& diags) {
  if (a.impls.empty() && !a.name.name.empty())
    error_at(diags, span_of(a.name),
             fmt::format("actor '{}' has no implementation; add a line such as "
                         "'cpu \"{}.hpp\" {};'",
                         a.name.name, a.name.name, a.name.name));
  std::vector<const ast::ImplDecl*> first_of_kind(2, nullptr);
  for (const ast::ImplDecl& i : a.impls) {
    auto kind = impl_kind(i.kind);
    if (i.header.empty()) diags.error(i.header_loc, "empty header path", 2);
    if (auto why = unusable_in_include(i.header)) diags.error(i.header_loc, *why, 2);
    if (!kind) continue;
    const ast::ImplDecl*& first = first_of_kind[static_cast<std::size_t>(*kind)];
    if (first) {
      auto b =
          error_at(diags, span_of(i.kind),
                   fmt::format("actor '{}' has two {} implementations", a.name.name, i.kind.name));
      note_at(b, span_of(first->kind),
              fmt::format("previous {} implementation is here", i.kind.name));
      continue;
    }
    first = &i;
    if (a.dynamic && i.block) {
      diags.error(
          *i.block,
          fmt::format(
              "the implementation of dynamic actor '{}' is declared 'block'; a dynamic actor "
              "fires by step, as its guards allow, not in blocks",
              a.name.name),
          5);
      continue;
    }
    bool named = i.class_name && !i.class_name->name.empty();
    ir::Impl impl{*kind,
                  i.header,
                  header_path(spec_file, i.header),
                  named ? i.class_name->name : a.name.name,
                  i.loc,
                  i.header_loc,
                  i.block.has_value()};
    if (i.parallel && !check_parallel(a, i, count, sources, impl, diags)) continue;
    actor.impls.push_back(std::move(impl));
  }
}

/// The libraries `uses` may name: CUDA libraries, linked as CUDA::<name> (CMake's FindCUDAToolkit).
const std::vector<std::string>& known_libraries() {
  static const std::vector<std::string> names = {"cublas",   "cufft",    "curand",
                                                 "cusolver", "cusparse", "nvjpeg"};
  return names;
}

void check_uses(const ast::ActorDecl& a, ir::Actor& actor, DiagnosticEngine& diags) {
  std::vector<const ast::Ident*> seen;
  for (const ast::Ident& library : a.uses) {
    const std::vector<std::string>& known = known_libraries();
    if (std::find(known.begin(), known.end(), library.name) == known.end()) {
      error_at(diags, span_of(library),
               fmt::format("unknown library '{}' in 'uses'; dfgc links {}{}", library.name,
                           fmt::join(known, ", "), did_you_mean(library.name, known)));
      continue;
    }
    auto previous = std::find_if(seen.begin(), seen.end(),
                                 [&](const ast::Ident* s) { return s->name == library.name; });
    if (previous != seen.end()) {
      auto b = error_at(diags, span_of(library),
                        fmt::format("actor '{}' uses '{}' twice", a.name.name, library.name));
      note_at(b, span_of(**previous), "first named here");
      continue;
    }
    seen.push_back(&library);
    if (!actor.impl_for(ir::PeKind::gpu)) {
      error_at(diags, span_of(library),
               fmt::format("actor '{}' uses the CUDA library '{}' but has no gpu implementation; "
                           "'uses' names what its gpu implementation calls",
                           a.name.name, library.name));
      continue;
    }
    actor.libraries.push_back(library.name);
  }
}

/// `ends stream;`: a static actor's only. A dynamic actor's firings run inside its island's, so
/// they cannot name the iteration the stream ends with.
void check_ends(const ast::ActorDecl& a, ir::Actor& actor, DiagnosticEngine& diags) {
  if (!a.ends) return;
  if (a.dynamic) {
    error_at(diags, Span{*a.ends, 4},
             fmt::format("dynamic actor '{}' cannot end the stream: its firings run within its "
                         "island's; let a static actor of the island's stream end it",
                         a.name.name));
    return;
  }
  actor.ends = a.ends;
}

}  // namespace

std::string header_path(const std::string& spec_file, const std::string& header) {
  std::filesystem::path dir = std::filesystem::path(spec_file).parent_path();
  return (dir / header).lexically_normal().generic_string();
}

ActorTable check_actors(const Spec& spec, const ParamTable& params, const TypeTable& types,
                        const SourceManager& sources, DiagnosticEngine& diags) {
  ActorTable table;
  Evaluator eval(params, sources, diags, ExprMode::value);
  Evaluator count(params, sources, diags, ExprMode::integer);
  for (const auto& module : spec.modules) {
    const std::string spec_file = module->file != 0 ? sources.name(module->file) : std::string();
    for (const ast::ActorDecl& a : module->actors) {
      bool declared = table.names.declare(a.name, table.actors.size(), diags);
      if (declared) check_cxx_name(a.name, "actor", diags);
      ir::Actor actor;
      actor.name = a.name.name;
      actor.loc = a.name.loc;
      actor.dynamic = a.dynamic.has_value();
      ActorInfo info;
      info.decl = &a;
      check_params(a, eval, actor, info, sources, diags);
      check_ports(a, types, count, eval, sources, actor, info, diags);
      check_impls(a, spec_file, count, sources, actor, diags);
      check_uses(a, actor, diags);
      check_ends(a, actor, diags);
      if (!declared) continue;
      table.actors.push_back(std::move(actor));
      table.info.push_back(std::move(info));
    }
  }
  return table;
}

}  // namespace dfgc::sema
