/// \file
/// Checks token types and computes their sizes.
#include "sema/types.hpp"

#include <cctype>
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
    case ir::ElemType::c64:
    case ir::ElemType::record: return true;
  }
  return true;
}

const std::vector<std::string>& elem_names() {
  static const std::vector<std::string> names = {"float",  "double", "int8",   "int16",
                                                 "int32",  "int64",  "uint8",  "uint16",
                                                 "uint32", "uint64", "cfloat", "cdouble"};
  return names;
}

std::string expected_elems() {
  std::string expected;
  for (const std::string& n : elem_names()) expected += (expected.empty() ? "" : ", ") + n;
  return expected;
}

/// The element type `elem` names: a scalar, a complex or (ElemType::record) one of `structs`.
std::optional<ir::ElemType> check_elem(const ast::Ident& elem, const TypeTable& table,
                                       std::optional<ir::StructId>& record,
                                       DiagnosticEngine& diags) {
  if (elem.name.empty()) return std::nullopt;
  if (auto t = ir::parse_elem_type(elem.name)) return t;
  if (auto s = table.struct_names.find(elem.name)) {
    record = static_cast<ir::StructId>(*s);
    return ir::ElemType::record;
  }
  std::vector<std::string> candidates = elem_names();
  const std::vector<std::string>& structs = table.struct_names.names();
  candidates.insert(candidates.end(), structs.begin(), structs.end());
  error_at(diags, span_of(elem),
           fmt::format("unknown element type '{}'; expected {}{}{}", elem.name, expected_elems(),
                       structs.empty() ? "" : " or a struct", did_you_mean(elem.name, candidates)));
  return std::nullopt;
}

/// Whether `name` is a C++ class name: identifiers joined by '::', maybe after a leading '::',
/// none with '__'.
bool is_class_name(std::string_view name) {
  if (name.substr(0, 2) == "::") name.remove_prefix(2);
  while (true) {
    const std::size_t end = name.find("::");
    const std::string_view part = name.substr(0, end);
    if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0])) ||
        part.find("__") != std::string_view::npos)
      return false;
    for (char c : part)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    if (end == std::string_view::npos) return true;
    name.remove_prefix(end + 2);
  }
}

/// A field's array count: a positive integer fixed at compile time.
std::optional<std::uint32_t> check_field_count(const ast::FieldDecl& f, Evaluator& eval,
                                               const SourceManager& sources,
                                               DiagnosticEngine& diags) {
  if (!f.count) return 1;
  auto v = eval.eval(f.count.get());
  if (!v || !eval.require_fixed(*v, "the array count of a field")) return std::nullopt;
  if (v->integer < 1 || v->integer > UINT32_MAX) {
    error_at(diags, span_of(*f.count, sources),
             v->integer < 1 ? fmt::format("the array count of field '{}' must be positive, '{}' "
                                          "is {}",
                                          f.name.name, to_text(*f.count), v->integer)
                            : fmt::format("the array count of field '{}' is too large: {} is "
                                          "over {}",
                                          f.name.name, v->integer, UINT32_MAX));
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(v->integer);
}

/// `struct Hit { ... }`: its names, its fields (element types, distinct names) and its layout.
/// Returns whether it is free of errors.
bool check_struct(const ast::StructDecl& d, const TypeTable& table, Evaluator& eval,
                  const SourceManager& sources, DiagnosticEngine& diags, ir::StructType& out) {
  bool ok = true;
  out.name = d.name.name;
  out.loc = d.name.loc;
  if (ir::parse_elem_type(d.name.name)) {
    error_at(diags, span_of(d.name),
             fmt::format("struct '{}' has the name of an element type", d.name.name));
    ok = false;
  } else if (d.cxx_name) {
    if (!is_class_name(*d.cxx_name)) {
      diags.error(
          d.cxx_loc,
          fmt::format("\"{}\" is not a C++ class name (identifiers joined by '::')", *d.cxx_name),
          static_cast<std::uint32_t>(d.cxx_name->size() + 2));
      ok = false;
    }
  } else {
    ok = check_cxx_name(d.name, "struct", diags) && ok;
  }
  out.cxx_name = d.cxx_name.value_or(d.name.name);
  if (d.fields.empty()) {
    error_at(
        diags, span_of(d.name),
        fmt::format("struct '{}' has no fields; a token element holds at least one", d.name.name));
    ok = false;
  }
  NameTable fields("field");
  for (const ast::FieldDecl& f : d.fields) {
    if (!fields.declare(f.name, out.fields.size(), diags)) {
      ok = false;
      continue;
    }
    ok = check_cxx_name(f.name, "field", diags) && ok;
    std::optional<ir::ElemType> elem = ir::parse_elem_type(f.type.name);
    if (!elem) {
      ok = false;
      if (table.struct_names.find(f.type.name))
        error_at(diags, span_of(f.type),
                 fmt::format("field '{}' of struct '{}' is a struct ('{}'); a field is an element "
                             "type ({}) or an array of one",
                             f.name.name, d.name.name, f.type.name, expected_elems()));
      else if (!f.type.name.empty())
        error_at(diags, span_of(f.type),
                 fmt::format("unknown element type '{}'; expected {}{}", f.type.name,
                             expected_elems(), did_you_mean(f.type.name, elem_names())));
    }
    auto count = check_field_count(f, eval, sources, diags);
    ok = ok && elem && count;
    out.fields.push_back({f.name.name, elem.value_or(ir::ElemType::u8), count.value_or(1),
                          f.count != nullptr, 0, f.name.loc});
  }
  if (ok) ir::lay_out(out);
  return ok;
}

/// Evaluates the element count and checks that it is positive and that the byte size fits.
std::optional<ir::SizeExpr> check_count(const ast::TypeDecl& t,
                                        std::optional<std::size_t> elem_bytes, Evaluator& eval,
                                        const ParamTable& params, const SourceManager& sources,
                                        DiagnosticEngine& diags) {
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
  if (elem_bytes &&
      __builtin_mul_overflow(size.value, static_cast<std::int64_t>(*elem_bytes), &bytes)) {
    error_at(diags, where,
             fmt::format("token type '{}' is too large: {} elements of {} bytes overflow a 64-bit "
                         "byte count",
                         t.name.name, size.value, *elem_bytes));
    return std::nullopt;
  }
  return size;
}

}  // namespace

bool compatible(const ir::TokenType& a, const ir::TokenType& b) {
  // Types are structural: two names for the same element type and size are one type. A size
  // that depends on a runtime param must be the same expression, as equal defaults may differ
  // once the program sets the param.
  // Structs are nominal: two structs of the same fields are two types.
  if (a.record.has_value() != b.record.has_value() || (a.record && a.record->id != b.record->id))
    return false;
  if (a.elem != b.elem || a.bounded != b.bounded || a.count.value != b.count.value ||
      a.count.runtime != b.count.runtime)
    return false;
  return !a.count.runtime || a.count.text == b.count.text;
}

TypeTable check_types(const Spec& spec, const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags) {
  TypeTable table;
  Evaluator eval(params, sources, diags, ExprMode::integer);
  // Every struct first: a type may name one declared after it or in another module.
  std::vector<bool> struct_ok;
  for (const auto& module : spec.modules) {
    for (const ast::StructDecl& d : module->structs) {
      ir::StructType s;
      const bool ok = check_struct(d, table, eval, sources, diags, s);
      if (!table.struct_names.declare(d.name, table.structs.size(), diags)) continue;
      table.structs.push_back(std::move(s));
      struct_ok.push_back(ok);
    }
  }
  for (const auto& module : spec.modules) {
    for (const ast::TypeDecl& t : module->types) {
      bool declared = table.names.declare(t.name, table.types.size(), diags);
      if (declared) check_cxx_name(t.name, "type", diags);
      std::optional<ir::StructId> record;
      auto elem = check_elem(t.elem, table, record, diags);
      std::optional<std::size_t> elem_bytes;
      if (elem && record && struct_ok[*record]) elem_bytes = table.structs[*record].size;
      if (elem && !record) elem_bytes = ir::elem_size(*elem);
      auto count = check_count(t, elem_bytes, eval, params, sources, diags);
      if (!declared) continue;
      ir::TokenType type{t.name.name, elem.value_or(ir::ElemType::f32),
                         count.value_or(ir::SizeExpr{}), t.name.loc, t.bounded};
      if (record) {
        const ir::StructType& s = table.structs[*record];
        type.record = ir::TokenType::Record{*record, s.name, s.cxx_name, s.size};
      }
      table.types.push_back(std::move(type));
      table.ok.push_back(elem_bytes && count);
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
                         type.elem_spec(), type.name));
    return std::nullopt;
  };
  if (type.record) {
    error_at(diags, span_of(e, sources),
             fmt::format("initial value {} for the elements of '{}', of struct '{}': the initial "
                         "tokens of a struct type are zeros; leave out the value or fill them "
                         "with a member function (`= fill()`)",
                         to_text(e), type.name, type.record->name));
    return std::nullopt;
  }
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
