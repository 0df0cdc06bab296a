/// \file
/// Actor parameters (`param int nb_loop = 100;`): their types, the values defaults and nodes give
/// them, and the C++ literal text that generated code assigns to the actor's field.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/ir.hpp"
#include "sema/expr.hpp"

namespace dfgc::sema {

enum class ParamType { int32, int64, f32, f64, boolean };

/// int, int64, float, double, bool; reports anything else at `type`.
std::optional<ParamType> check_param_type(const ast::Ident& type, DiagnosticEngine& diags);

/// A value given to an actor param, checked against its type.
struct CheckedParamValue {
  /// The C++ literal:
  ///   int, int64: decimal ("-3");  float: shortest text that reads back as the same float, with
  ///   an 'f' suffix ("2.5f", "100.0f");  double: shortest round-trip text ("0.1", "100.0");
  ///   bool: "true" / "false".
  std::string literal;
  ir::ParamScalar value;  ///< the value the literal spells, in the param's type
};

/// Evaluates the value given to `param` (declared with type `type`); reports a value of the wrong
/// kind, out of the type's range, or depending on a runtime param (with a note at `param` when
/// the value is a node's, far from the declaration).
std::optional<CheckedParamValue> check_param_value(const ast::Expr* value, ParamType type,
                                                   const ast::ActorParamDecl& param,
                                                   bool note_declaration, Evaluator& eval,
                                                   const SourceManager& sources,
                                                   DiagnosticEngine& diags);

}  // namespace dfgc::sema
