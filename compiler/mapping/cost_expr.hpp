/// \file
/// The firing-time formulas of a costs file: "0.4 + 0.0125 * (last * (last + 1) - first * first)".
/// Numbers, names of the actor's params, + - * /, unary minus, parentheses, min(a, b), max(a, b).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dfgc::mapping {

class CostExpr {
 public:
  /// Parses `text`; on a syntax error returns nullopt and sets `error` and `error_at` (the byte
  /// index in `text`).
  static std::optional<CostExpr> parse(std::string_view text, std::string& error,
                                       std::size_t& error_at);

  /// A constant.
  static CostExpr constant(double value);

  /// The names it reads, in order of first use, with their byte index in the text.
  const std::vector<std::pair<std::string, std::size_t>>& names() const { return names_; }

  /// Its value, reading each name through `lookup`.
  double eval(const std::function<double(const std::string&)>& lookup) const;

 private:
  struct Op {
    enum class Kind : std::uint8_t { number, name, neg, add, sub, mul, div, min, max };
    Kind kind = Kind::number;
    double number = 0;
    std::uint32_t name = 0;  ///< index into names_
  };
  friend class CostExprParser;
  std::vector<Op> ops_;  ///< postfix
  std::vector<std::pair<std::string, std::size_t>> names_;
};

}  // namespace dfgc::mapping
