/// \file
/// The firing lint: a node that fires several times an iteration (a consumer's rate makes a
/// source fire q times; `batch K` does not count, since each of its firings has an iteration of
/// its own) gives all q firings of one iteration the same ctx.iteration(). A fire that reads
/// ctx.iteration() and never ctx.firing() cannot tell them apart: a source that makes its tokens
/// from the iteration repeats one block q times, silently. The lint says so at the call.
#pragma once

#include <clang/AST/DeclCXX.h>

#include "actors/locations.hpp"
#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::actors {

/// Whether `fire`'s body (its lambdas included) calls ctx.iteration() or ctx.warming_up(): a value
/// of the cycle, which a GPU firing captured into a CUDA graph would freeze.
bool reads_iteration(const clang::CXXMethodDecl& fire);

/// Warns at the first ctx.iteration() call in `fire`'s body (its lambdas included) when that body
/// never calls ctx.firing() and a node of `actor` that runs `impl` fires more than once an
/// iteration; a note at the node. Nothing for a `block` implementation (one call makes the
/// cycle's firings, and iteration() is the first of its iterations). `fire` must have a body.
void lint_firing_count(const clang::CXXMethodDecl& fire, const ir::Program& program,
                       const ir::Actor& actor, const ir::Impl& impl, Locator& where,
                       DiagnosticEngine& diags);

}  // namespace dfgc::actors
