/// \file
/// Type checking of actor parameter values and their rendering as C++ literals.
#include "sema/actor_params.hpp"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

struct TypeName {
  ParamType type;
  const char* spelling;
};
constexpr TypeName kTypes[] = {{ParamType::int32, "int"},
                               {ParamType::int64, "int64"},
                               {ParamType::f32, "float"},
                               {ParamType::f64, "double"},
                               {ParamType::boolean, "bool"}};

std::string_view spelling(ParamType t) {
  for (const TypeName& n : kTypes)
    if (n.type == t) return n.spelling;
  return "?";
}

std::string_view kind_words(Number::Kind k) {
  switch (k) {
    case Number::Kind::integer: return "an integer";
    case Number::Kind::real: return "a real number";
    case Number::Kind::boolean: return "a bool";
  }
  return "?";
}

bool kind_fits(ParamType type, Number::Kind kind) {
  switch (type) {
    case ParamType::int32:
    case ParamType::int64: return kind == Number::Kind::integer;
    case ParamType::f32:
    case ParamType::f64: return kind != Number::Kind::boolean;
    case ParamType::boolean: return kind == Number::Kind::boolean;
  }
  return false;
}

double as_real(const Number& n) {
  return n.kind == Number::Kind::real ? n.real : static_cast<double>(n.integer);
}

bool in_range(ParamType type, const Number& n) {
  switch (type) {
    case ParamType::int32:
      return n.integer >= std::numeric_limits<int>::min() &&
             n.integer <= std::numeric_limits<int>::max();
    case ParamType::f32: return std::fabs(as_real(n)) <= FLT_MAX;
    case ParamType::int64:
    case ParamType::f64:
    case ParamType::boolean: return true;
  }
  return true;
}

std::string float_text(float v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string text(buf, ec == std::errc() ? end : buf);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text + "f";
}

ir::ParamScalar scalar(ParamType type, const Number& n) {
  switch (type) {
    case ParamType::int32:
    case ParamType::int64: return n.integer;
    case ParamType::f32: return static_cast<float>(as_real(n));
    case ParamType::f64: return as_real(n);
    case ParamType::boolean: return n.boolean;
  }
  return n.integer;
}

std::string literal(ParamType type, const Number& n) {
  switch (type) {
    case ParamType::int32:
    case ParamType::int64:
      // -9223372036854775808 is not a C++ literal: its digits alone overflow.
      if (n.integer == std::numeric_limits<std::int64_t>::min())
        return "(-9223372036854775807 - 1)";
      return std::to_string(n.integer);
    case ParamType::f32: return float_text(static_cast<float>(as_real(n)));
    case ParamType::f64: return real_text(as_real(n));
    case ParamType::boolean: return n.boolean ? "true" : "false";
  }
  return "?";
}

}  // namespace

std::optional<ParamType> check_param_type(const ast::Ident& type, DiagnosticEngine& diags) {
  if (type.name.empty()) return std::nullopt;
  std::vector<std::string> names;
  for (const TypeName& n : kTypes) {
    if (type.name == n.spelling) return n.type;
    names.emplace_back(n.spelling);
  }
  error_at(diags, span_of(type),
           fmt::format("unknown param type '{}'; expected int, int64, float, double or bool{}",
                       type.name, did_you_mean(type.name, names)));
  return std::nullopt;
}

std::optional<CheckedParamValue> check_param_value(const ast::Expr* value, ParamType type,
                                                   const ast::ActorParamDecl& param,
                                                   bool note_declaration, Evaluator& eval,
                                                   const SourceManager& sources,
                                                   DiagnosticEngine& diags) {
  auto v = eval.eval(value);
  if (!v) return std::nullopt;
  const std::string& name = param.name.name;
  auto report = [&](std::string message) {
    auto b = error_at(diags, span_of(*value, sources), std::move(message));
    if (note_declaration)
      note_at(b, span_of(param.name),
              fmt::format("'{}' is declared here as {}", name, spelling(type)));
  };
  if (!kind_fits(type, v->kind)) {
    report(fmt::format("cannot set {} param '{}' to {}, {}", spelling(type), name, to_text(*value),
                       kind_words(v->kind)));
    return std::nullopt;
  }
  if (!in_range(type, *v)) {
    std::string shown =
        v->kind == Number::Kind::real ? real_text(v->real) : std::to_string(v->integer);
    report(fmt::format("value {} is out of range for {} param '{}'", shown, spelling(type), name));
    return std::nullopt;
  }
  if (!eval.require_fixed(*v, fmt::format("the value of param '{}'", name))) return std::nullopt;
  return CheckedParamValue{literal(type, *v), scalar(type, *v)};
}

}  // namespace dfgc::sema
