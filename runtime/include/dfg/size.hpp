/// \file
/// dfg::Size and dfg::token_size_error: the token sizes that depend on runtime params, computed
/// when the program starts with the checked 64-bit arithmetic dfgc uses for the spec's size
/// expressions, and refused when a size is not positive or does not fit.
///
/// A generated app.hpp writes each such size as the spec does, over dfg::Size values:
///
///     /// Matrix = float[N * N]: elements per token, checked at start-up (kRuntimeSizes).
///     inline dfg::Size count_Matrix(const Params& params) {
///       const dfg::Size N = params.N;
///       return N * N;
///     }
///     inline constexpr std::array<dfg::TokenSize<Params>, 1> kRuntimeSizes = {{
///         {"Matrix", "float[N * N]", "N", sizeof(float), count_Matrix},
///     }};
///
/// and main refuses to start when token_size_error() is not empty, e.g.
///
///     error: type Matrix = float[N * N] with N = 4294967296: the element count overflows a 64-bit
///     integer error: type Matrix = float[N * N] with N = 0: a token size must be positive, N * N
///     is 0 error: type Row = float[N] with N = 4611686018427387905: 4611686018427387905 elements
///     of 4 bytes overflow a 64-bit byte count
///
/// Arithmetic: + - * / % and unary minus on int64, min and max; `/` and `%` truncate toward
/// zero as in C++. An operation that overflows, or divides by zero, makes the result invalid,
/// and every result computed from an invalid operand stays invalid with the first fault.
///
/// Guarantees: Size is a constexpr value type whose operations are noexcept, never allocate and
/// never have undefined behaviour (no signed overflow, no division by zero). token_size_error()
/// is a pure function of its arguments; it allocates its message (start-up only).
#pragma once

#include <complex>  // cfloat and cdouble tokens: std::complex<float>, std::complex<double>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "dfg/options.hpp"

namespace dfg {

class Size {
 public:
  enum class Fault : std::uint8_t { none, overflow, division_by_zero };

  /// Implicit, so that literals and compile-time params mix with runtime params: `N * 2`.
  constexpr Size(std::int64_t value) noexcept
      : value_(value) {}  // NOLINT(google-explicit-constructor)

  constexpr bool ok() const noexcept { return fault_ == Fault::none; }
  constexpr Fault fault() const noexcept { return fault_; }
  /// The value; 0 when !ok().
  constexpr std::int64_t value() const noexcept { return ok() ? value_ : 0; }

  friend constexpr Size operator+(Size a, Size b) noexcept {
    std::int64_t r = 0;
    const bool overflow = __builtin_add_overflow(a.value_, b.value_, &r);
    return combine(a, b, overflow, r);
  }
  friend constexpr Size operator-(Size a, Size b) noexcept {
    std::int64_t r = 0;
    const bool overflow = __builtin_sub_overflow(a.value_, b.value_, &r);
    return combine(a, b, overflow, r);
  }
  friend constexpr Size operator*(Size a, Size b) noexcept {
    std::int64_t r = 0;
    const bool overflow = __builtin_mul_overflow(a.value_, b.value_, &r);
    return combine(a, b, overflow, r);
  }
  friend constexpr Size operator/(Size a, Size b) noexcept {
    if (const Size f = first_fault(a, b); !f.ok()) return f;
    if (b.value_ == 0) return faulty(Fault::division_by_zero);
    if (a.value_ == std::numeric_limits<std::int64_t>::min() && b.value_ == -1)
      return faulty(Fault::overflow);
    return Size(a.value_ / b.value_);
  }
  friend constexpr Size operator%(Size a, Size b) noexcept {
    if (const Size f = first_fault(a, b); !f.ok()) return f;
    if (b.value_ == 0) return faulty(Fault::division_by_zero);
    return Size(b.value_ == -1 ? 0 : a.value_ % b.value_);
  }
  friend constexpr Size operator-(Size a) noexcept { return Size(0) - a; }

 private:
  static constexpr Size faulty(Fault fault) noexcept {
    Size s(0);
    s.fault_ = fault;
    return s;
  }
  /// The first faulty operand, else a valid Size.
  static constexpr Size first_fault(Size a, Size b) noexcept { return !a.ok() ? a : b; }
  static constexpr Size combine(Size a, Size b, bool overflow, std::int64_t result) noexcept {
    if (!a.ok() || !b.ok()) return first_fault(a, b);
    return overflow ? faulty(Fault::overflow) : Size(result);
  }

  std::int64_t value_ = 0;
  Fault fault_ = Fault::none;
};

/// The spec's min and max. Found by argument-dependent lookup when an operand is a Size; a
/// generated app.hpp declares its own for two compile-time operands.
constexpr Size min(Size a, Size b) noexcept {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  return a.value() < b.value() ? a : b;
}
constexpr Size max(Size a, Size b) noexcept {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  return a.value() < b.value() ? b : a;
}

/// A token type whose size depends on runtime params, as the generated program lists it.
template <class Params>
struct TokenSize {
  const char* type;          ///< "Matrix"
  const char* spelling;      ///< the type as the spec writes it: "float[N * N]"
  const char* params;        ///< the runtime params its size uses, ", "-separated: "W, H"
  std::size_t element_size;  ///< sizeof the element type
  Size (*count)(const Params&);
};

namespace detail {

/// "N = 0" or "W = 640, H = 480": the values of `names` (", "-separated) in `table` order.
inline std::string param_values(std::string_view names, std::span<const RuntimeParam> table,
                                std::span<const std::int64_t> values) {
  std::string out;
  while (!names.empty()) {
    const auto comma = names.find(", ");
    const std::string_view name = names.substr(0, comma);
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 2);
    for (std::size_t i = 0; i < table.size() && i < values.size(); ++i) {
      if (table[i].name != name) continue;
      out += (out.empty() ? "" : ", ") + std::string(name) + " = " + std::to_string(values[i]);
    }
  }
  return out;
}

}  // namespace detail

/// "" when every size of `sizes` (TokenSize<Params> rows) is positive and its byte count fits in
/// an int64 (and so in a size_t) at `params`, else the one-line error naming the first bad type
/// and the values of the params it uses (`table` and `values` are the runtime params' table and
/// values, as parse_flags gives them).
template <class Sizes, class Params>
std::string token_size_error(const Sizes& sizes, const Params& params,
                             std::span<const RuntimeParam> table,
                             std::span<const std::int64_t> values) {
  for (const auto& t : sizes) {
    const Size count = t.count(params);
    std::string why;
    if (count.fault() == Size::Fault::overflow) {
      why = "the element count overflows a 64-bit integer";
    } else if (count.fault() == Size::Fault::division_by_zero) {
      why = "the element count divides by zero";
    } else if (count.value() <= 0) {
      std::string_view expr = t.spelling;
      if (const auto open = expr.find('['); open != std::string_view::npos && expr.back() == ']')
        expr = expr.substr(open + 1, expr.size() - open - 2);
      why = "a token size must be positive, " + std::string(expr) + " is " +
            std::to_string(count.value());
    } else if (!(count * Size(static_cast<std::int64_t>(t.element_size))).ok() ||
               static_cast<std::uint64_t>(count.value()) * t.element_size >
                   static_cast<std::uint64_t>(std::numeric_limits<std::size_t>::max())) {
      why = std::to_string(count.value()) + " elements of " + std::to_string(t.element_size) +
            " bytes overflow a 64-bit byte count";
    } else {
      continue;
    }
    std::string message = "error: type " + std::string(t.type) + " = " + t.spelling;
    if (const std::string with = detail::param_values(t.params, table, values); !with.empty())
      message += " with " + with;
    return message + ": " + why;
  }
  return {};
}

}  // namespace dfg
