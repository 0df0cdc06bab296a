/// \file
/// The port-name lint: ctx.elements("x") names a port of the node's actor by its spec name; a
/// literal name that is no port of the actor throws at run time (std::invalid_argument). dfgc
/// says so where it reads the call: in any member function of the implementation class.
#pragma once

#include <clang/AST/DeclCXX.h>

#include "actors/locations.hpp"
#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::actors {

/// An error at each ctx.elements("name") call with a string literal in a member function body
/// of `cls` or of a base (their lambdas included) whose name is no port of `actor`.
void lint_port_names(const clang::CXXRecordDecl& cls, const ir::Actor& actor, Locator& where,
                     DiagnosticEngine& diags);

}  // namespace dfgc::actors
