/// \file
/// Holds the C++ class of each struct of the spec (`struct Hit { float time; int32 channel; }`)
/// to what dfgc assumes of it when it moves its tokens as bytes: a trivially copyable,
/// standard-layout class whose data members are the spec's fields (names, types, order) at the
/// offsets of the spec's layout, and of its size.
#pragma once

#include <clang/AST/ASTContext.h>

#include "actors/locations.hpp"
#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::actors {

/// Checks the class that `s.cxx_name` names in `ast`; reports each difference at the class or
/// the member, with a note at the spec's struct or field. Returns false when the translation
/// unit declares no such class (the ports' parameters report it then).
bool check_struct_layout(clang::ASTContext& ast, const ir::StructType& s, Locator& where,
                         DiagnosticEngine& diags);

}  // namespace dfgc::actors
