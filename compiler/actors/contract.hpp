/// \file
/// The actor contract, checked for one implementation: its class, `fire` (one pointer per port,
/// matched by name, an optional trailing dfg::Context&), `init`, and a public data member for
/// each actor param. See DESIGN.md, "The actor contract".
#pragma once

#include <optional>

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Sema/Sema.h>

#include "actors/frontend.hpp"
#include "actors/locations.hpp"

namespace dfgc::actors {

struct ContractResult {
  std::optional<ActorSignature> signature;  ///< set when the implementation conforms
  /// `fire`'s definition when the class and its `fire` were found (the overlap lint reads it),
  /// even if other parts of the contract failed; null when `fire` has no body in the header.
  const clang::CXXMethodDecl* fire = nullptr;
  /// The implementation class when it was found.
  const clang::CXXRecordDecl* cls = nullptr;
};

/// Checks `impl` of `actor` against the AST of its batch, reporting every violation: the class
/// must be default-constructible, destructible and not abstract; `fire` and `init` callable
/// (public, not static, not deleted, not `&&`-qualified) and defined in the headers, inline;
/// every value the nodes give an actor param must fit in its data member. A const-qualified
/// `fire` or `init` is accepted: dfgc calls them on a non-const object. `sema` (the batch's) is
/// asked for the default constructor and the destructor, which Clang declares on demand.
ContractResult check_contract(clang::ASTContext& ast, clang::Sema& sema, const ir::Program& program,
                              const ir::Actor& actor, const ir::Impl& impl, Locator& where,
                              DiagnosticEngine& diags);

}  // namespace dfgc::actors
