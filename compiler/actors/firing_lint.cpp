/// \file
/// The firing lint (actors/firing_lint.hpp).
#include "actors/firing_lint.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <fmt/format.h>

namespace dfgc::actors {

namespace {

/// The calls of dfg::Context's iteration(), warming_up() and firing() in a body, lambdas
/// included.
class ContextCalls : public clang::RecursiveASTVisitor<ContextCalls> {
 public:
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (!method || method->getParent()->getQualifiedNameAsString() != "dfg::Context") return true;
    const std::string name = method->getNameAsString();
    if (name == "iteration" && !iteration) iteration = call;
    if (name == "firing") firing = true;
    if (name == "warming_up") warming_up = true;
    return true;
  }

  const clang::CXXMemberCallExpr* iteration = nullptr;  ///< the first
  bool firing = false;
  bool warming_up = false;
};

}  // namespace

bool reads_iteration(const clang::CXXMethodDecl& fire) {
  if (!fire.getBody()) return false;
  ContextCalls calls;
  calls.TraverseStmt(fire.getBody());
  return calls.iteration != nullptr || calls.warming_up;
}

void lint_firing_count(const clang::CXXMethodDecl& fire, const ir::Program& program,
                       const ir::Actor& actor, const ir::Impl& impl, Locator& where,
                       DiagnosticEngine& diags) {
  if (impl.block || !fire.getBody()) return;
  const ir::Node* node = nullptr;
  std::uint32_t firings = 1;
  for (ir::NodeId n = 0; n < program.dfg.nodes.size() && !node; ++n) {
    const ir::Node& candidate = program.dfg.nodes[n];
    if (&program.dfg.actors[candidate.actor] != &actor ||
        program.arch.pes[program.mapping.pe_of[n]].kind != impl.kind)
      continue;
    const std::uint32_t per_iteration = candidate.repetitions / program.copy_batch();
    if (per_iteration > 1) {
      node = &candidate;
      firings = per_iteration;
    }
  }
  if (!node) return;
  ContextCalls calls;
  calls.TraverseStmt(fire.getBody());
  if (!calls.iteration || calls.firing) return;
  const Place at = where.token(calls.iteration->getExprLoc());
  const std::string& name = node->spec_name();
  auto d = diags.warning(
      at.loc,
      fmt::format("node '{}' fires {} times an iteration, and fire reads ctx.iteration() but never "
                  "ctx.firing(): its {} firings of one iteration see the same iteration() (a "
                  "source that makes its tokens from it repeats one block); number them with "
                  "ctx.iteration() * ctx.firings() + ctx.firing()",
                  name, firings, firings),
      at.length);
  d.note(node->loc, fmt::format("node '{}' is declared here", name),
         static_cast<std::uint32_t>(name.size()));
}

}  // namespace dfgc::actors
