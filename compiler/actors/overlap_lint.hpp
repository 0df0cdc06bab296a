/// \file
/// The overlap lint of GPU actors: in the body of `fire` (its lambdas included, and the member
/// functions of the same class that it calls, one level deep) it warns about what serialises a
/// firing with the transfers dfgc overlaps: synchronous CUDA calls, and asynchronous calls or
/// kernel launches on any stream other than ctx.stream().
#pragma once

#include <clang/AST/DeclCXX.h>

#include "actors/locations.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::actors {

/// Reports each finding as a warning at the call (a note shows the call from `fire` when the
/// finding is in a member function it calls). `fire` must have a body.
void lint_overlap(const clang::CXXMethodDecl& fire, Locator& where, DiagnosticEngine& diags);

}  // namespace dfgc::actors
