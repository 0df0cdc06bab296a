/// \file
/// The actor contract, checked for one implementation: its class, `fire` (one pointer per port,
/// matched by name, an optional trailing dfg::Context&), `init`, and a public data member for
/// each actor param. See DESIGN.md, "The actor contract".
#pragma once

#include <optional>

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>

#include "actors/frontend.hpp"
#include "actors/locations.hpp"

namespace dfgc::actors {

struct ContractResult {
  std::optional<ActorSignature> signature;  ///< set when the implementation conforms
  /// `fire`'s definition when the class and its `fire` were found (the overlap lint reads it),
  /// even if other parts of the contract failed; null when `fire` has no body in the header.
  const clang::CXXMethodDecl* fire = nullptr;
};

/// Checks `impl` of `actor` against the AST of its batch, reporting every violation.
/// A const-qualified `fire` or `init` is accepted: dfgc calls them on a non-const object.
ContractResult check_contract(clang::ASTContext& ast, const ir::Program& program,
                              const ir::Actor& actor, const ir::Impl& impl, Locator& where,
                              DiagnosticEngine& diags);

}  // namespace dfgc::actors
