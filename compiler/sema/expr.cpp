/// \file
/// Checked evaluation of expressions and their canonical printing.
#include "sema/expr.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "sema/source_span.hpp"

namespace dfgc::sema {

namespace {

using Kind = ast::Expr::Kind;

Number integer(std::int64_t v, const ast::Expr* runtime_use) {
  Number n;
  n.integer = v;
  n.runtime_use = runtime_use;
  return n;
}

Number real(double v, const ast::Expr* runtime_use) {
  Number n;
  n.kind = Number::Kind::real;
  n.real = v;
  n.runtime_use = runtime_use;
  return n;
}

double as_real(const Number& n) {
  return n.kind == Number::Kind::real ? n.real : static_cast<double>(n.integer);
}

/// Binding strength: + - bind loosest, then * / %, then unary minus, then atoms.
int precedence(const ast::Expr& e) {
  switch (e.kind) {
    case Kind::binary: return e.op == '+' || e.op == '-' ? 1 : 2;
    case Kind::unary: return 3;
    case Kind::integer: return e.int_value < 0 ? 3 : 4;
    case Kind::real: return e.real_value < 0 ? 3 : 4;
    case Kind::name:
    case Kind::call: return 4;
  }
  return 4;
}

std::string operand_text(const ast::Expr* e, bool parenthesize) {
  if (!e) return "?";
  return parenthesize ? "(" + to_text(*e) + ")" : to_text(*e);
}

}  // namespace

std::string real_text(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string text(buf, ec == std::errc() ? end : buf);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string to_text(const ast::Expr& e) {
  switch (e.kind) {
    case Kind::integer: return std::to_string(e.int_value);
    case Kind::real: return real_text(e.real_value);
    case Kind::name: return e.name;
    case Kind::unary: {
      // A unary operand is parenthesized too, so that `-(-N)` never prints as `--N`.
      bool parens = e.operands.empty() || !e.operands[0] || precedence(*e.operands[0]) <= 3;
      return std::string(1, e.op) +
             operand_text(e.operands.empty() ? nullptr : e.operands[0].get(), parens);
    }
    case Kind::binary: {
      if (e.operands.size() != 2) return "?";
      int p = precedence(e);
      // Operators associate to the left: a right operand of equal strength keeps its parentheses.
      bool left = e.operands[0] && precedence(*e.operands[0]) < p;
      bool right = e.operands[1] && precedence(*e.operands[1]) <= p;
      return fmt::format("{} {} {}", operand_text(e.operands[0].get(), left), e.op,
                         operand_text(e.operands[1].get(), right));
    }
    case Kind::call: {
      std::string args;
      for (const auto& a : e.operands)
        args += (args.empty() ? "" : ", ") + operand_text(a.get(), false);
      return fmt::format("{}({})", e.name, args);
    }
  }
  return "?";
}

ir::SizeTerm size_term(const ast::Expr& e, const ParamTable& params) {
  using T = ir::SizeTerm::Kind;
  ir::SizeTerm t;
  for (const auto& operand : e.operands)
    if (operand) t.operands.push_back(size_term(*operand, params));
  switch (e.kind) {
    case Kind::integer: t.value = e.int_value; break;
    case Kind::real: break;  // not in a size: the evaluation refused it
    case Kind::name: {
      t.kind = T::param;
      t.param = e.name;
      const ParamEntry* p = params.find(e.name);
      t.runtime = p && p->decl->runtime;
      break;
    }
    case Kind::unary:
      if (e.op != '-' && t.operands.size() == 1) return std::move(t.operands.front());
      t.kind = T::negate;
      break;
    case Kind::binary:
      t.kind = e.op == '+'   ? T::add
               : e.op == '-' ? T::subtract
               : e.op == '*' ? T::multiply
               : e.op == '/' ? T::divide
                             : T::modulo;
      break;
    case Kind::call: t.kind = e.name == "min" ? T::min : T::max; break;
  }
  return t;
}

std::optional<Number> Evaluator::eval(const ast::Expr* e) {
  if (!e) return std::nullopt;
  switch (e->kind) {
    case Kind::integer: return integer(e->int_value, nullptr);
    case Kind::real: {
      if (mode_ == ExprMode::value) return real(e->real_value, nullptr);
      Span s = span_of(*e, sources_);
      std::string_view written = sources_.contents(s.loc.file).substr(s.loc.offset, s.length);
      error_at(diags_, s,
               fmt::format("real number {} in an integer expression; sizes, params and gpu "
                           "ordinals are integers",
                           written));
      return std::nullopt;
    }
    case Kind::name: return name(*e);
    case Kind::unary: return unary(*e);
    case Kind::binary: return binary(*e);
    case Kind::call: return call(*e);
  }
  return std::nullopt;
}

std::optional<Number> Evaluator::name(const ast::Expr& e) {
  if (mode_ == ExprMode::value && (e.name == "true" || e.name == "false")) {
    Number n;
    n.kind = Number::Kind::boolean;
    n.boolean = e.name == "true";
    return n;
  }
  if (e.name.empty()) return std::nullopt;
  const ast::Ident use{e.name, e.loc};
  auto index = params_.names.resolve(use, diags_);
  if (!index) return std::nullopt;
  const ParamEntry& p = params_.entries[*index];
  if (visible_before_ && p.seq >= *visible_before_) {
    if (p.seq == *visible_before_) {
      error_at(diags_, span_of(use),
               fmt::format("param '{}' is used in its own definition", e.name));
    } else {
      auto b = error_at(diags_, span_of(use),
                        fmt::format("param '{}' is used before its declaration", e.name));
      note_at(b, span_of(p.decl->name), fmt::format("'{}' is declared here", e.name));
    }
    return std::nullopt;
  }
  if (!p.value) return std::nullopt;
  return integer(*p.value, p.decl->runtime ? &e : nullptr);
}

bool Evaluator::is_arithmetic(const Number& n, const ast::Expr& operand) {
  if (n.kind != Number::Kind::boolean) return true;
  error_at(diags_, span_of(operand, sources_), "a bool cannot be used in arithmetic");
  return false;
}

std::optional<Number> Evaluator::unary(const ast::Expr& e) {
  if (e.operands.size() != 1 || !e.operands[0]) return std::nullopt;
  auto v = eval(e.operands[0].get());
  if (!v || !is_arithmetic(*v, *e.operands[0])) return std::nullopt;
  if (e.op != '-') return v;
  if (v->kind == Number::Kind::real) return real(-v->real, v->runtime_use);
  std::int64_t r = 0;
  if (__builtin_sub_overflow(std::int64_t{0}, v->integer, &r)) {
    diags_.error(e.loc, "integer overflow in expression");
    return std::nullopt;
  }
  return integer(r, v->runtime_use);
}

std::optional<Number> Evaluator::binary(const ast::Expr& e) {
  if (e.operands.size() != 2 || !e.operands[0] || !e.operands[1]) return std::nullopt;
  auto a = eval(e.operands[0].get());
  auto b = eval(e.operands[1].get());
  if (!a || !b) return std::nullopt;
  bool ok_a = is_arithmetic(*a, *e.operands[0]);
  bool ok_b = is_arithmetic(*b, *e.operands[1]);
  if (!ok_a || !ok_b) return std::nullopt;
  auto result = a->kind == Number::Kind::integer && b->kind == Number::Kind::integer
                    ? integer_op(e, a->integer, b->integer)
                    : real_op(e, as_real(*a), as_real(*b));
  if (result) result->runtime_use = a->runtime_use ? a->runtime_use : b->runtime_use;
  return result;
}

std::optional<Number> Evaluator::integer_op(const ast::Expr& e, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  bool overflow = false;
  switch (e.op) {
    case '+': overflow = __builtin_add_overflow(a, b, &r); break;
    case '-': overflow = __builtin_sub_overflow(a, b, &r); break;
    case '*': overflow = __builtin_mul_overflow(a, b, &r); break;
    case '/':
    case '%':
      if (b == 0) {
        auto d = diags_.error(e.loc, e.op == '/' ? "division by zero" : "modulo by zero");
        const ast::Expr& divisor = *e.operands[1];
        if (divisor.kind != Kind::integer)
          note_at(d, span_of(divisor, sources_), fmt::format("'{}' is 0", to_text(divisor)));
        return std::nullopt;
      }
      // INT64_MIN / -1 is the one quotient that does not fit; its remainder is 0.
      overflow = e.op == '/' && a == INT64_MIN && b == -1;
      r = e.op == '/' ? (overflow ? 0 : a / b) : (b == -1 ? 0 : a % b);
      break;
    default: return std::nullopt;
  }
  if (overflow) {
    diags_.error(e.loc, "integer overflow in expression");
    return std::nullopt;
  }
  return integer(r, nullptr);
}

std::optional<Number> Evaluator::real_op(const ast::Expr& e, double a, double b) {
  double r = 0;
  switch (e.op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/':
      if (b == 0) {
        diags_.error(e.loc, "division by zero");
        return std::nullopt;
      }
      r = a / b;
      break;
    case '%': diags_.error(e.loc, "'%' needs integer operands"); return std::nullopt;
    default: return std::nullopt;
  }
  if (!std::isfinite(r)) {
    diags_.error(e.loc, "overflow in real expression");
    return std::nullopt;
  }
  return real(r, nullptr);
}

std::optional<Number> Evaluator::call(const ast::Expr& e) {
  // The parser accepts only min and max and reports any other name.
  if (e.name != "min" && e.name != "max") return std::nullopt;
  const ast::Ident callee{e.name, e.loc};
  if (e.operands.size() != 2) {
    error_at(diags_, span_of(callee),
             fmt::format("'{}' takes 2 arguments, not {}", e.name, e.operands.size()));
    return std::nullopt;
  }
  auto a = eval(e.operands[0].get());
  auto b = eval(e.operands[1].get());
  if (!a || !b) return std::nullopt;
  bool ok_a = is_arithmetic(*a, *e.operands[0]);
  bool ok_b = is_arithmetic(*b, *e.operands[1]);
  if (!ok_a || !ok_b) return std::nullopt;
  bool is_min = e.name == "min";
  const ast::Expr* runtime_use = a->runtime_use ? a->runtime_use : b->runtime_use;
  if (a->kind == Number::Kind::integer && b->kind == Number::Kind::integer)
    return integer(is_min ? std::min(a->integer, b->integer) : std::max(a->integer, b->integer),
                   runtime_use);
  double x = as_real(*a), y = as_real(*b);
  return real(is_min ? std::min(x, y) : std::max(x, y), runtime_use);
}

bool Evaluator::require_fixed(const Number& n, std::string_view what) {
  if (!n.runtime_use) return true;
  const ast::Ident use{n.runtime_use->name, n.runtime_use->loc};
  auto b = error_at(diags_, span_of(use),
                    fmt::format("{} depends on runtime param '{}'; only token sizes may depend on "
                                "runtime params",
                                what, use.name));
  if (const ParamEntry* p = params_.find(use.name))
    note_at(b, span_of(p->decl->name), fmt::format("'{}' is declared here", use.name));
  return false;
}

ast::ExprPtr bind_names(const ast::Expr* e,
                        const std::function<const Number*(const std::string&)>& lookup) {
  if (!e) return nullptr;
  ast::ExprPtr copy = ast::clone(e);
  if (copy->kind != ast::Expr::Kind::name) {
    for (ast::ExprPtr& operand : copy->operands) operand = bind_names(operand.get(), lookup);
    return copy;
  }
  const Number* n = lookup(copy->name);
  if (!n) return copy;
  switch (n->kind) {
    case Number::Kind::integer:
      copy->kind = ast::Expr::Kind::integer;
      copy->int_value = n->integer;
      copy->name.clear();
      break;
    case Number::Kind::real:
      copy->kind = ast::Expr::Kind::real;
      copy->real_value = n->real;
      copy->name.clear();
      break;
    case Number::Kind::boolean: copy->name = n->boolean ? "true" : "false"; break;
  }
  return copy;
}

bool uses_names(const ast::Expr* e, const std::vector<std::string>& names) {
  if (!e) return false;
  if (e->kind == ast::Expr::Kind::name &&
      std::find(names.begin(), names.end(), e->name) != names.end())
    return true;
  for (const ast::ExprPtr& operand : e->operands)
    if (uses_names(operand.get(), names)) return true;
  return false;
}

Number to_number(const ir::ParamScalar& v) {
  Number n;
  if (const auto* i = std::get_if<std::int64_t>(&v)) {
    n.integer = *i;
  } else if (const auto* b = std::get_if<bool>(&v)) {
    n.kind = Number::Kind::boolean;
    n.boolean = *b;
  } else {
    n.kind = Number::Kind::real;
    n.real = ir::to_double(v);
  }
  return n;
}

}  // namespace dfgc::sema
