/// \file
/// The port-name lint (actors/port_lint.hpp).
#include "actors/port_lint.hpp"

#include <set>
#include <string>
#include <vector>

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <fmt/format.h>

namespace dfgc::actors {

namespace {

/// The string literal an argument spells, through the conversions to std::string_view.
const clang::StringLiteral* literal_of(const clang::Expr* e) {
  while (e) {
    e = e->IgnoreImplicit();
    if (const auto* s = clang::dyn_cast<clang::StringLiteral>(e)) return s;
    if (const auto* c = clang::dyn_cast<clang::CXXConstructExpr>(e)) {
      if (c->getNumArgs() == 0) return nullptr;
      e = c->getArg(0);
      continue;
    }
    if (const auto* c = clang::dyn_cast<clang::CastExpr>(e)) {
      e = c->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// The calls of dfg::Context::elements with a string literal in a body, lambdas included.
class NamedElements : public clang::RecursiveASTVisitor<NamedElements> {
 public:
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (!method || method->getNameAsString() != "elements" || call->getNumArgs() != 1 ||
        method->getParent()->getQualifiedNameAsString() != "dfg::Context")
      return true;
    if (const clang::StringLiteral* s = literal_of(call->getArg(0))) found.push_back({call, s});
    return true;
  }

  struct Found {
    const clang::CXXMemberCallExpr* call;
    const clang::StringLiteral* name;
  };
  std::vector<Found> found;
};

}  // namespace

void lint_port_names(const clang::CXXRecordDecl& cls, const ir::Actor& actor, Locator& where,
                     DiagnosticEngine& diags) {
  NamedElements calls;
  std::set<const clang::Stmt*> seen;  // a body once, whichever declaration reaches it
  std::vector<const clang::CXXRecordDecl*> classes{&cls};  // the class and its bases
  for (std::size_t i = 0; i < classes.size(); ++i) {
    for (const clang::CXXMethodDecl* m : classes[i]->methods()) {
      const clang::Stmt* body = m->getBody();
      if (body && seen.insert(body).second) calls.TraverseStmt(const_cast<clang::Stmt*>(body));
    }
    if (!classes[i]->hasDefinition()) continue;
    for (const clang::CXXBaseSpecifier& base : classes[i]->bases())
      if (const clang::CXXRecordDecl* b = base.getType()->getAsCXXRecordDecl())
        if (b->hasDefinition()) classes.push_back(b->getDefinition());
  }
  std::vector<std::string> ports;
  for (const ir::Port& p : actor.ports) ports.push_back(p.name);
  for (const NamedElements::Found& f : calls.found) {
    if (!f.name->isOrdinary()) continue;
    const std::string name = f.name->getString().str();
    if (actor.port_index(name)) continue;
    const Place at = where.range(f.call->getSourceRange());
    const std::size_t group = actor.group_ports(name).size();
    diags.error(at.loc,
                group > 0 ? fmt::format("ctx.elements(\"{}\"): '{}' is a port group of actor '{}'; "
                                        "name one of its ports, \"{}0\" .. \"{}{}\"",
                                        name, name, actor.name, name, name, group - 1)
                          : fmt::format("ctx.elements(\"{}\"): actor '{}' has no port '{}' (its "
                                        "ports: {})",
                                        name, actor.name, name, fmt::join(ports, ", ")),
                at.length);
  }
}

}  // namespace dfgc::actors
