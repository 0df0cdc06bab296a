/// \file
/// Expressions, limited to kMaxNesting levels so that no input can exhaust the stack.
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "spec/parser_impl.hpp"

namespace dfgc::spec {

// ---------------------------------------------------------------------------------------------
// Expressions: primary, then unary '-' '+', then '*' '/' '%', then '+' '-' (left-associative).

ast::ExprPtr make_expr(ast::Expr::Kind kind, SourceLoc loc) {
  auto e = std::make_unique<ast::Expr>();
  e->kind = kind;
  e->loc = loc;
  return e;
}

ast::ExprPtr Parser::parse_expr() { return parse_binary(0).expr; }

Operand Parser::too_deep(SourceLoc loc) {
  error(loc, fmt::format("expression is too deeply nested (more than {} levels)", kMaxNesting));
  return {};
}

Operand Parser::parse_binary(int level) {
  auto is_operator = [&] {
    if (level == 0) return at(Tok::plus) || at(Tok::minus);
    return at(Tok::star) || at(Tok::slash) || at(Tok::percent);
  };
  auto operand = [&] { return level == 0 ? parse_binary(1) : parse_unary(); };
  Operand lhs = operand();
  while (lhs.expr && is_operator()) {
    auto e = make_expr(ast::Expr::Kind::binary, tok_.loc);
    e->op = tok_.text[0];
    advance();
    Operand rhs = operand();
    if (!rhs.expr) return {};
    int height = std::max(lhs.height, rhs.height) + 1;
    if (height > kMaxNesting) return too_deep(e->loc);
    e->operands.push_back(std::move(lhs.expr));
    e->operands.push_back(std::move(rhs.expr));
    lhs = {std::move(e), height};
  }
  return lhs;
}

Operand Parser::parse_unary() {
  if (!at(Tok::minus) && !at(Tok::plus)) return parse_primary();
  NestingScope scope(nesting_);
  if (scope.too_deep()) return too_deep(tok_.loc);
  auto e = make_expr(ast::Expr::Kind::unary, tok_.loc);
  e->op = tok_.text[0];
  advance();
  Operand operand = parse_unary();
  if (!operand.expr) return {};
  if (operand.height + 1 > kMaxNesting) return too_deep(e->loc);
  e->operands.push_back(std::move(operand.expr));
  return {std::move(e), operand.height + 1};
}

Operand Parser::parse_primary() {
  switch (tok_.kind) {
    case Tok::integer: {
      auto e = make_expr(ast::Expr::Kind::integer, tok_.loc);
      e->int_value = tok_.int_value;
      advance();
      return {std::move(e), 1};
    }
    case Tok::real: {
      auto e = make_expr(ast::Expr::Kind::real, tok_.loc);
      e->real_value = tok_.real_value;
      advance();
      return {std::move(e), 1};
    }
    case Tok::identifier: {
      if (peek_next().is(Tok::l_paren)) return parse_call();
      auto e = make_expr(ast::Expr::Kind::name, tok_.loc);
      e->name = tok_.text;
      advance();
      return {std::move(e), 1};
    }
    case Tok::l_paren: {
      NestingScope scope(nesting_);
      if (scope.too_deep()) return too_deep(tok_.loc);
      SourceLoc open = tok_.loc;
      advance();
      Operand inner = parse_binary(0);
      if (!inner.expr || !expect_closing(Tok::r_paren, open, "after expression")) return {};
      return inner;
    }
    default: error_here(fmt::format("expected an expression, found {}", found())); return {};
  }
}

// call := IDENT '(' expr { ',' expr } ')' with IDENT min or max
Operand Parser::parse_call() {
  NestingScope scope(nesting_);
  if (scope.too_deep()) return too_deep(tok_.loc);
  auto e = make_expr(ast::Expr::Kind::call, tok_.loc);
  e->name = tok_.text;
  if (e->name != "min" && e->name != "max")
    error_here(fmt::format("unknown function '{}'; expected 'min' or 'max'", e->name));
  advance();
  SourceLoc open = tok_.loc;
  advance();
  int height = 0;
  for (;;) {
    Operand arg = parse_binary(0);
    if (!arg.expr) return {};
    height = std::max(height, arg.height);
    e->operands.push_back(std::move(arg.expr));
    if (at(Tok::r_paren)) break;
    if (!at(Tok::comma)) {
      error_here(fmt::format("expected ',' or ')' in call to '{}', found {}", e->name, found()),
                 {{open, "to match this '('"}});
      return {};
    }
    advance();
  }
  advance();
  if (height + 1 > kMaxNesting) return too_deep(e->loc);
  return {std::move(e), height + 1};
}

}  // namespace dfgc::spec
