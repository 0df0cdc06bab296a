/// \file
/// The portability lint of actor headers: dfgc reads them with Clang, but the generated project
/// is built by g++ and nvcc. Code that Clang alone compiles one way checks here and then builds
/// differently or not at all, so it is reported where it is written:
///  - Clang's own predefined macros (`__clang__`, `__clang_major__`, ...): an `#if
///    defined(__clang__)` branch is the one dfgc checked, and the other one is the one built;
///  - Clang's own builtins (`__builtin_elementwise_abs`, `__builtin_reduce_add`, ...), which
///    neither g++ nor nvcc knows.
#pragma once

#include <set>
#include <string>

#include <clang/Frontend/ASTUnit.h>

#include "actors/locations.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::actors {

/// Warns at each finding in the files of `unit` named in `user_files` (normal absolute paths:
/// the user's headers, as ActorFiles lists them).
void lint_portability(clang::ASTUnit& unit, const std::set<std::string>& user_files, Locator& where,
                      DiagnosticEngine& diags);

}  // namespace dfgc::actors
