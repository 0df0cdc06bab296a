#include "mapping/cost_expr.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace dfgc::mapping {

/// Recursive descent into postfix: expr := term {('+'|'-') term}, term := unary {('*'|'/')
/// unary}, unary := '-' unary | primary, primary := NUMBER | NAME | NAME '(' expr ',' expr ')' |
/// '(' expr ')'. Nesting is limited so that no formula can exhaust the stack.
class CostExprParser {
 public:
  explicit CostExprParser(std::string_view text) : text_(text) {}

  std::optional<CostExpr> run(std::string& error, std::size_t& error_at) {
    expr(0);
    skip_space();
    if (error_.empty() && pos_ < text_.size())
      fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (!error_.empty()) {
      error = error_;
      error_at = error_at_;
      return std::nullopt;
    }
    return std::move(out_);
  }

 private:
  static constexpr int kMaxDepth = 64;
  using Kind = CostExpr::Op::Kind;

  void fail(std::string message) {
    if (!error_.empty()) return;
    error_ = std::move(message);
    error_at_ = std::min(pos_, text_.size());
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void emit(Kind kind, double number = 0, std::uint32_t name = 0) {
    out_.ops_.push_back({kind, number, name});
  }

  void expr(int depth) {
    if (depth > kMaxDepth) return fail("formula is nested too deeply");
    term(depth);
    while (error_.empty()) {
      if (eat('+')) {
        term(depth);
        emit(Kind::add);
      } else if (eat('-')) {
        term(depth);
        emit(Kind::sub);
      } else {
        return;
      }
    }
  }
  void term(int depth) {
    unary(depth);
    while (error_.empty()) {
      if (eat('*')) {
        unary(depth);
        emit(Kind::mul);
      } else if (eat('/')) {
        unary(depth);
        emit(Kind::div);
      } else {
        return;
      }
    }
  }
  void unary(int depth) {
    if (depth > kMaxDepth) return fail("formula is nested too deeply");
    if (eat('-')) {
      unary(depth + 1);
      emit(Kind::neg);
      return;
    }
    primary(depth);
  }
  void primary(int depth) {
    skip_space();
    if (pos_ >= text_.size()) return fail("expected a number, a param name or '('");
    char c = text_[pos_];
    if (eat('(')) {
      expr(depth + 1);
      if (error_.empty() && !eat(')')) fail("expected ')'");
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(depth);
    fail("expected a number, a param name or '('");
  }
  void number() {
    double v = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (ec != std::errc()) return fail("bad number");
    pos_ = static_cast<std::size_t>(end - text_.data());
    emit(Kind::number, v);
  }
  void name(int depth) {
    std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    std::string id(text_.substr(start, pos_ - start));
    if (eat('(')) {
      if (id != "min" && id != "max") {
        pos_ = start;
        return fail("unknown function '" + id + "'; expected min or max");
      }
      expr(depth + 1);
      if (error_.empty() && !eat(',')) return fail("expected ',' in call to " + id);
      expr(depth + 1);
      if (error_.empty() && !eat(')')) return fail("expected ')' after the arguments of " + id);
      emit(id == "min" ? Kind::min : Kind::max);
      return;
    }
    auto& names = out_.names_;
    auto it =
        std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == id; });
    if (it == names.end()) {
      names.emplace_back(id, start);
      it = names.end() - 1;
    }
    emit(Kind::name, 0, static_cast<std::uint32_t>(it - names.begin()));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  CostExpr out_;
  std::string error_;
  std::size_t error_at_ = 0;
};

std::optional<CostExpr> CostExpr::parse(std::string_view text, std::string& error,
                                        std::size_t& error_at) {
  return CostExprParser(text).run(error, error_at);
}

CostExpr CostExpr::constant(double value) {
  CostExpr e;
  e.ops_.push_back({Op::Kind::number, value, 0});
  return e;
}

double CostExpr::eval(const std::function<double(const std::string&)>& lookup) const {
  std::vector<double> stack;
  for (const Op& op : ops_) {
    if (op.kind == Op::Kind::number) {
      stack.push_back(op.number);
      continue;
    }
    if (op.kind == Op::Kind::name) {
      stack.push_back(lookup(names_[op.name].first));
      continue;
    }
    if (op.kind == Op::Kind::neg) {
      stack.back() = -stack.back();
      continue;
    }
    double b = stack.back();
    stack.pop_back();
    double& a = stack.back();
    switch (op.kind) {
      case Op::Kind::add: a += b; break;
      case Op::Kind::sub: a -= b; break;
      case Op::Kind::mul: a *= b; break;
      case Op::Kind::div: a /= b; break;
      case Op::Kind::min: a = std::min(a, b); break;
      case Op::Kind::max: a = std::max(a, b); break;
      default: break;
    }
  }
  return stack.empty() ? 0 : stack.back();
}

}  // namespace dfgc::mapping
