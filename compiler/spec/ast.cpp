/// \file
/// Copies of syntax trees (sema expands mappings, composites and loops into new trees).
#include "spec/ast.hpp"

namespace dfgc::ast {

ExprPtr clone(const Expr* e) {
  if (!e) return nullptr;
  auto copy = std::make_unique<Expr>();
  copy->kind = e->kind;
  copy->loc = e->loc;
  copy->int_value = e->int_value;
  copy->real_value = e->real_value;
  copy->name = e->name;
  copy->op = e->op;
  for (const ExprPtr& operand : e->operands) copy->operands.push_back(clone(operand));
  return copy;
}

}  // namespace dfgc::ast
