/// \file
/// Token types: `type Matrix = float[N * N];` — element type, element count (positive, possibly
/// depending on runtime params) and a byte size that fits in 64 bits; and the structs a token
/// type may hold (`struct Hit { float time; int32 channel; }`), laid out as C does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/ir.hpp"
#include "sema/names.hpp"
#include "sema/params.hpp"

namespace dfgc::sema {
class Evaluator;
}

namespace dfgc::sema {

struct TypeTable {
  std::vector<ir::StructType> structs;  ///< one per distinct name, in declaration order (StructId)
  NameTable struct_names{"struct"};
  std::vector<ir::TokenType> types;  ///< one per distinct name, in declaration order (TypeId)
  std::vector<bool> ok;              ///< false for a type with an error
  NameTable names{"type"};
};

TypeTable check_types(const Spec& spec, const ParamTable& params, const SourceManager& sources,
                      DiagnosticEngine& diags);

/// The C++ literal that sets an element of `type` to the value of `e` (`delay 2 = 0.5`,
/// `peek 64 = -1`): an integer, or a real for float and double; nullopt after an error at `e`.
std::optional<std::string> element_literal(const ast::Expr& e, const ir::TokenType& type,
                                           Evaluator& value, const SourceManager& sources,
                                           DiagnosticEngine& diags);

/// Whether tokens of the two types may flow along one edge.
bool compatible(const ir::TokenType& a, const ir::TokenType& b);

}  // namespace dfgc::sema
