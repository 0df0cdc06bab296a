/// \file
/// Token types: `type Matrix = float[N * N];` — element type, element count (positive, possibly
/// depending on runtime params) and a byte size that fits in 64 bits.
#pragma once

#include <vector>

#include "ir/ir.hpp"
#include "sema/names.hpp"
#include "sema/params.hpp"

namespace dfgc::sema {

struct TypeTable {
  std::vector<ir::TokenType> types;  ///< one per distinct name, in declaration order (TypeId)
  std::vector<bool> ok;              ///< false for a type with an error
  NameTable names{"type"};
};

TypeTable check_types(const Spec& spec, const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags);

/// Whether tokens of the two types may flow along one edge.
bool compatible(const ir::TokenType& a, const ir::TokenType& b);

}  // namespace dfgc::sema
