/// \file
/// Checks token types and computes their sizes.
#include "sema/types.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

/// Whether `v` is a value of integer element type `t`.
bool fits(ir::ElemType t, std::int64_t v) {
  auto within = [v](std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; };
  switch (t) {
    case ir::ElemType::i8: return within(INT8_MIN, INT8_MAX);
    case ir::ElemType::i16: return within(INT16_MIN, INT16_MAX);
    case ir::ElemType::i32: return within(INT32_MIN, INT32_MAX);
    case ir::ElemType::i64: return true;
    case ir::ElemType::u8: return within(0, UINT8_MAX);
    case ir::ElemType::u16: return within(0, UINT16_MAX);
    case ir::ElemType::u32: return within(0, UINT32_MAX);
    case ir::ElemType::u64: return v >= 0;
    case ir::ElemType::f32:
    case ir::ElemType::f64:
    case ir::ElemType::c32:
    case ir::ElemType::c64: return true;
  }
  return true;
}

const std::vector<std::string>& elem_names() {
  static const std::vector<std::string> names = {"float",  "double", "int8",   "int16",
                                                 "int32",  "int64",  "uint8",  "uint16",
                                                 "uint32", "uint64", "cfloat", "cdouble"};
  return names;
}

std::optional<ir::ElemType> check_elem(const ast::Ident& elem, DiagnosticEngine& diags) {
  if (elem.name.empty()) return std::nullopt;
  if (auto t = ir::parse_elem_type(elem.name)) return t;
  std::string expected;
  for (const std::string& n : elem_names()) expected += (expected.empty() ? "" : ", ") + n;
  error_at(diags, span_of(elem),
           fmt::format("unknown element type '{}'; expected {}{}", elem.name, expected,
                       did_you_mean(elem.name, elem_names())));
  return std::nullopt;
}

/// Evaluates the element count and checks that it is positive and that the byte size fits.
std::optional<ir::SizeExpr> check_count(const ast::TypeDecl& t, std::optional<ir::ElemType> elem,
                                        Evaluator& eval, const ParamTable& params,
                                        const SourceManager& sources, DiagnosticEngine& diags) {
  auto v = eval.eval(t.count.get());
  if (!v) return std::nullopt;
  ir::SizeExpr size{v->integer, to_text(*t.count), v->runtime_use != nullptr,
                    size_term(*t.count, params)};
  Span where = span_of(*t.count, sources);
  if (size.value <= 0) {
    error_at(diags, where,
             fmt::format("token size must be positive, '{}' is {}", size.text, size.value));
    return std::nullopt;
  }
  std::int64_t bytes = 0;
  if (elem &&
      __builtin_mul_overflow(size.value, static_cast<std::int64_t>(ir::elem_size(*elem)), &bytes)) {
    error_at(diags, where,
             fmt::format("token type '{}' is too large: {} elements of {} bytes overflow a 64-bit "
                         "byte count",
                         t.name.name, size.value, ir::elem_size(*elem)));
    return std::nullopt;
  }
  return size;
}

}  // namespace

bool compatible(const ir::TokenType& a, const ir::TokenType& b) {
  // Types are structural: two names for the same element type and size are one type. A size
  // that depends on a runtime param must be the same expression, as equal defaults may differ
  // once the program sets the param.
  if (a.elem != b.elem || a.bounded != b.bounded || a.count.value != b.count.value ||
      a.count.runtime != b.count.runtime)
    return false;
  return !a.count.runtime || a.count.text == b.count.text;
}

TypeTable check_types(const Spec& spec, const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags) {
  TypeTable table;
  Evaluator eval(params, sources, diags, ExprMode::integer);
  for (const auto& module : spec.modules) {
    for (const ast::TypeDecl& t : module->types) {
      bool declared = table.names.declare(t.name, table.types.size(), diags);
      if (declared) check_cxx_name(t.name, "type", diags);
      auto elem = check_elem(t.elem, diags);
      auto count = check_count(t, elem, eval, params, sources, diags);
      if (!declared) continue;
      table.types.push_back({t.name.name, elem.value_or(ir::ElemType::f32),
                             count.value_or(ir::SizeExpr{}), t.name.loc, t.bounded});
      table.ok.push_back(elem && count);
    }
  }
  return table;
}

std::optional<std::string> element_literal(const ast::Expr& e, const ir::TokenType& type,
                                           Evaluator& value, const SourceManager& sources,
                                           DiagnosticEngine& diags) {
  auto v = value.eval(&e);
  if (!v || !value.require_fixed(*v, "an initial value")) return std::nullopt;
  auto refuse = [&](std::string why) -> std::optional<std::string> {
    error_at(diags, span_of(e, sources),
             fmt::format("initial value {} {} for the {} elements of '{}'", to_text(e), why,
                         ir::spec_name(type.elem), type.name));
    return std::nullopt;
  };
  if (v->kind == Number::Kind::boolean) return refuse("is a bool, not a number,");
  // A complex element takes a real value: its imaginary part is 0.
  if (type.elem == ir::ElemType::f32 || type.elem == ir::ElemType::f64 ||
      ir::is_complex(type.elem)) {
    const double real = v->kind == Number::Kind::real ? v->real : static_cast<double>(v->integer);
    if ((type.elem == ir::ElemType::f32 || type.elem == ir::ElemType::c32) &&
        std::fabs(real) > FLT_MAX)
      return refuse("is out of range");
    return real_text(real);
  }
  if (v->kind != Number::Kind::integer) return refuse("is not an integer");
  if (!fits(type.elem, v->integer)) return refuse("is out of range");
  return v->integer == std::numeric_limits<std::int64_t>::min() ? "(-9223372036854775807 - 1)"
                                                                : std::to_string(v->integer);
}

}  // namespace dfgc::sema
