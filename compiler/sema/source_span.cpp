/// \file
/// Measures names, references and expressions in the source text for diagnostics.
#include "sema/source_span.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace dfgc::sema {

namespace {

std::uint32_t clamp_length(std::uint64_t n) {
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(n, 1, UINT32_MAX));
}

/// The span from the start of `first` to the end of `last` (one line in practice).
Span join(SourceLoc first, SourceLoc last, std::size_t last_length) {
  if (!first.valid() || last.file != first.file || last.offset < first.offset)
    return {first, clamp_length(last_length)};
  return {first, clamp_length(std::uint64_t{last.offset} - first.offset + last_length)};
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The end of the number or name that starts at `at` (numbers: digits, '.', an exponent with its
/// sign, unit-less).
std::size_t token_end(std::string_view text, std::size_t at) {
  std::size_t i = at;
  bool number =
      i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.');
  while (i < text.size()) {
    char c = text[i];
    bool exponent_sign =
        number && (c == '+' || c == '-') && i > at && (text[i - 1] == 'e' || text[i - 1] == 'E');
    if (!(is_word_char(c) || (number && c == '.') || exponent_sign)) break;
    ++i;
  }
  return std::max(i, at + 1);
}

/// The offset just past the ')' matching the first '(' at or after `from`.
std::size_t after_matching_paren(std::string_view text, std::size_t from) {
  std::size_t open = text.find('(', from);
  if (open == std::string_view::npos) return from;
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i + 1;
  }
  return text.size();
}

std::size_t leftmost(const ast::Expr& e) {
  if (e.kind == ast::Expr::Kind::binary && !e.operands.empty() && e.operands.front())
    return leftmost(*e.operands.front());
  return e.loc.offset;
}

std::size_t rightmost_end(const ast::Expr& e, std::string_view text) {
  switch (e.kind) {
    case ast::Expr::Kind::unary:
    case ast::Expr::Kind::binary:
      if (!e.operands.empty() && e.operands.back()) return rightmost_end(*e.operands.back(), text);
      return e.loc.offset + 1;
    case ast::Expr::Kind::call: return after_matching_paren(text, e.loc.offset + e.name.size());
    case ast::Expr::Kind::name: return e.loc.offset + e.name.size();
    case ast::Expr::Kind::integer:
    case ast::Expr::Kind::real: return token_end(text, e.loc.offset);
  }
  return e.loc.offset + 1;
}

}  // namespace

Span span_of(const ast::Ident& id) { return {id.loc, clamp_length(id.name.size())}; }

Span span_of(const ast::PeRef& ref) { return join(ref.host.loc, ref.pe.loc, ref.pe.name.size()); }

Span span_of(const ast::PortRef& ref) {
  return join(ref.node.loc, ref.port.loc, ref.port.name.size());
}

Span span_of(const ast::Expr& e, const SourceManager& sources) {
  if (!e.loc.valid()) return {e.loc, 1};
  std::string_view text = sources.contents(e.loc.file);
  std::size_t begin = std::min(leftmost(e), text.size());
  std::size_t end = std::clamp(rightmost_end(e, text), begin, text.size());
  // Take in the parentheses that the operands' own spans leave out, as in `(W + 2) * H`.
  auto count = [&](char c) { return std::count(text.begin() + begin, text.begin() + end, c); };
  while (count('(') > count(')') && end < text.size()) {
    std::size_t close = text.find(')', end);
    if (close == std::string_view::npos) break;
    end = close + 1;
  }
  while (count(')') > count('(') && begin > 0) {
    std::size_t open = text.rfind('(', begin - 1);
    if (open == std::string_view::npos) break;
    begin = open;
  }
  return {{e.loc.file, static_cast<std::uint32_t>(begin)}, clamp_length(end - begin)};
}

std::string qualified(const ast::PeRef& ref) { return ref.host.name + "." + ref.pe.name; }
std::string qualified(const ast::PortRef& ref) { return ref.node.name + "." + ref.port.name; }

DiagnosticBuilder error_at(DiagnosticEngine& diags, Span s, std::string message) {
  return diags.error(s.loc, std::move(message), s.length);
}

DiagnosticBuilder& note_at(DiagnosticBuilder& b, Span s, std::string message) {
  return b.note(s.loc, std::move(message), s.length);
}

}  // namespace dfgc::sema
