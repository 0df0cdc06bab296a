/// \file
/// Evaluation of the spec's expressions with checked 64-bit arithmetic, and their canonical text.
/// Sizes, params and GPU ordinals are integer expressions over params; actor parameter values
/// may also be reals (mixed with integers, the arithmetic is done in double) or `true`/`false`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sema/params.hpp"
#include "spec/ast.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

struct Number {
  enum class Kind { integer, real, boolean };
  Kind kind = Kind::integer;
  std::int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  /// A use of a runtime param that the value depends on (the first one met), else null.
  const ast::Expr* runtime_use = nullptr;
};

enum class ExprMode {
  integer,  ///< sizes, params, ordinals: reals are errors, `true`/`false` are param names
  value,    ///< actor parameter values: integers, reals, `true` and `false`
};

class Evaluator {
 public:
  Evaluator(const ParamTable& params, const SourceManager& sources, DiagnosticEngine& diags,
            ExprMode mode)
      : params_(params), sources_(sources), diags_(diags), mode_(mode) {}

  /// While evaluating the param declared at position `seq` of the spec: params declared at or
  /// after it are not visible yet.
  void restrict_to_params_before(std::size_t seq) { visible_before_ = seq; }

  /// The value, or nullopt after reporting an error (or when an operand already had one).
  std::optional<Number> eval(const ast::Expr* e);

  /// Reports "<what> depends on runtime param 'W'; ..." when `n` does; returns whether it is
  /// fixed at compile time.
  bool require_fixed(const Number& n, std::string_view what);

 private:
  std::optional<Number> name(const ast::Expr& e);
  std::optional<Number> unary(const ast::Expr& e);
  std::optional<Number> binary(const ast::Expr& e);
  std::optional<Number> call(const ast::Expr& e);
  std::optional<Number> integer_op(const ast::Expr& e, std::int64_t a, std::int64_t b);
  std::optional<Number> real_op(const ast::Expr& e, double a, double b);
  /// Rejects a bool used as an arithmetic operand.
  bool is_arithmetic(const Number& n, const ast::Expr& operand);

  const ParamTable& params_;
  const SourceManager& sources_;
  DiagnosticEngine& diags_;
  ExprMode mode_;
  std::optional<std::size_t> visible_before_;
};

/// `e` (null for null) with each name `lookup` knows replaced by its value, written where the name
/// was (an integer or real literal, or `true`/`false`): composites' params and loop variables,
/// actors' params in rates.
ast::ExprPtr bind_names(const ast::Expr* e,
                        const std::function<const Number*(const std::string&)>& lookup);

/// Whether `e` names one of `names`.
bool uses_names(const ast::Expr* e, const std::vector<std::string>& names);

/// An actor param's value as a number of the expressions.
Number to_number(const ir::ParamScalar& v);

/// The tree of a size expression that evaluated without error (`params` resolves its names).
ir::SizeTerm size_term(const ast::Expr& e, const ParamTable& params);

/// The expression re-printed canonically with the fewest parentheses that keep its structure:
/// "N * N", "(W + 2) * H", "N - (M - 1)", "-(-N)", "min(a, b)".
std::string to_text(const ast::Expr& e);

/// The shortest decimal text that reads back as exactly `v`, always with a '.' or an exponent:
/// "2.5", "100.0", "1e+300".
std::string real_text(double v);

}  // namespace dfgc::sema
