/// \file
/// The lexer of the .dfg language: comments, identifiers (ASCII only, with a clear error for any
/// other character), integers (decimal or 0x hexadecimal, with '_' separators, checked against
/// int64), reals, strings with escapes (a raw control character, NUL included, is an error), and
/// punctuation. Lines end at LF, CRLF or a lone CR.
#include "spec/lexer.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "spec/reporter.hpp"
#include "support/utf8.hpp"

namespace dfgc::spec {

std::string_view spelling(Tok kind) {
  switch (kind) {
    case Tok::eof: return "end of file";
    case Tok::identifier: return "identifier";
    case Tok::integer: return "integer";
    case Tok::real: return "real";
    case Tok::string: return "string";
    case Tok::l_brace: return "{";
    case Tok::r_brace: return "}";
    case Tok::l_paren: return "(";
    case Tok::r_paren: return ")";
    case Tok::l_bracket: return "[";
    case Tok::r_bracket: return "]";
    case Tok::semi: return ";";
    case Tok::colon: return ":";
    case Tok::comma: return ",";
    case Tok::period: return ".";
    case Tok::at: return "@";
    case Tok::equal: return "=";
    case Tok::plus: return "+";
    case Tok::minus: return "-";
    case Tok::star: return "*";
    case Tok::slash: return "/";
    case Tok::percent: return "%";
    case Tok::arrow: return "->";
    case Tok::bidir_arrow: return "<->";
    case Tok::less_equal: return "<=";
    case Tok::unknown: return "unknown token";
  }
  return "token";
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_ascii_word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ascii_word(char c) { return is_ascii_word_start(c) || is_digit(c); }
bool is_non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }
bool is_line_end(char c) { return c == '\n' || c == '\r'; }
bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

/// "non-ASCII character U+00E9" or "invalid UTF-8 byte 0xFF" for the sequence starting `s`.
std::string describe_non_ascii(std::string_view s) {
  utf8::Char c = utf8::decode(s);
  if (c.valid)
    return fmt::format("non-ASCII character U+{:04X}", static_cast<std::uint32_t>(c.code));
  return fmt::format("invalid UTF-8 byte 0x{:02X}", static_cast<unsigned char>(s[0]));
}

/// The character an escape `\c` stands for in a string, or 0 for an unknown escape.
char unescape(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\'': return '\'';
    case 'n': return '\n';
    case 't': return '\t';
    default: return 0;
  }
}

}  // namespace

void Lexer::error(std::size_t offset, std::string message, std::uint32_t length) {
  report_error(*diags_, loc(offset), std::move(message), length);
}

bool Lexer::skip_trivia() {
  bool newline = false;
  while (!at_end()) {
    char c = peek();
    if (is_line_end(c)) {
      newline = true;
      ++pos_;
    } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && peek(1) == '/') {
      while (!at_end() && !is_line_end(peek())) ++pos_;
    } else if (c == '/' && peek(1) == '*') {
      std::size_t end = text_.find("*/", pos_ + 2);
      if (end == std::string_view::npos) {
        error(pos_, "unterminated block comment", 2);
        pos_ = text_.size();
      } else {
        if (text_.substr(pos_, end - pos_).find_first_of("\r\n") != std::string_view::npos)
          newline = true;
        pos_ = end + 2;
      }
    } else {
      break;
    }
  }
  return newline;
}

Token Lexer::next() {
  bool newline = skip_trivia() || first_;
  first_ = false;
  Token t;
  t.loc = loc(pos_);
  t.first_on_line = newline;
  if (at_end()) return t;
  std::size_t start = pos_;
  char c = peek();
  if (is_ascii_word_start(c) || is_non_ascii(c))
    lex_word(t);
  else if (is_digit(c))
    lex_number(t);
  else if (c == '"')
    lex_string(t);
  else
    lex_punctuation(t);
  t.length = static_cast<std::uint32_t>(pos_ - start);
  t.text = text_.substr(start, pos_ - start);
  return t;
}

void Lexer::lex_word(Token& t) {
  std::size_t start = pos_;
  std::size_t first_non_ascii = std::string_view::npos;
  bool has_ascii = false;
  while (!at_end() && (is_ascii_word(peek()) || is_non_ascii(peek()))) {
    if (is_non_ascii(peek())) {
      if (first_non_ascii == std::string_view::npos) first_non_ascii = pos_;
    } else {
      has_ascii = true;
    }
    ++pos_;
  }
  t.kind = Tok::identifier;
  if (first_non_ascii == std::string_view::npos) return;
  std::string what = describe_non_ascii(text_.substr(first_non_ascii));
  if (has_ascii) {
    error(first_non_ascii,
          what + " in identifier; dfgc names become C++ identifiers and must be ASCII");
    return;
  }
  error(start, what + "; outside comments and strings a spec must be ASCII");
  t.kind = Tok::unknown;
}

std::size_t Lexer::scan_digits(bool hex) {
  std::size_t digits = 0;
  while (!at_end()) {
    char c = peek();
    if (hex ? is_hex_digit(c) : is_digit(c)) {
      ++digits;
    } else if (c == '_') {
      bool between = digits != 0 && (hex ? is_hex_digit(peek(1)) : is_digit(peek(1)));
      if (!between && !bad_separator_) {
        error(pos_, "digit separator '_' must be between digits");
        bad_separator_ = true;
      }
    } else {
      break;
    }
    ++pos_;
  }
  return digits;
}

void Lexer::lex_number(Token& t) {
  std::size_t start = pos_;
  bad_separator_ = false;
  t.kind = Tok::integer;
  bool hex = peek() == '0' && (peek(1) == 'x' || peek(1) == 'X');
  if (hex) {
    pos_ += 2;
    if (scan_digits(true) == 0) {
      error(start, "expected hexadecimal digits after '0x'", 2);
      return;
    }
  } else {
    scan_digits(false);
    if (peek() == '.' && is_digit(peek(1))) {
      t.kind = Tok::real;
      ++pos_;
      scan_digits(false);
    }
    bool sign = peek(1) == '+' || peek(1) == '-';
    if ((peek() == 'e' || peek() == 'E') && is_digit(peek(sign ? 2 : 1))) {
      t.kind = Tok::real;
      pos_ += sign ? 2 : 1;
      scan_digits(false);
    }
  }
  std::string digits;
  for (char c : text_.substr(start, pos_ - start))
    if (c != '_') digits += c;
  if (t.kind == Tok::real) {
    t.real_value = std::strtod(digits.c_str(), nullptr);
    if (std::isinf(t.real_value)) {
      error(start, "real literal is too large", static_cast<std::uint32_t>(pos_ - start));
      t.real_value = std::numeric_limits<double>::max();
    }
    return;
  }
  errno = 0;
  unsigned long long value = std::strtoull(digits.c_str() + (hex ? 2 : 0), nullptr, hex ? 16 : 10);
  if (errno == ERANGE ||
      value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())) {
    error(start, "integer literal is too large", static_cast<std::uint32_t>(pos_ - start));
    value = std::numeric_limits<std::int64_t>::max();
  }
  t.int_value = static_cast<std::int64_t>(value);
}

void Lexer::lex_string(Token& t) {
  std::size_t open = pos_++;
  t.kind = Tok::string;
  for (;;) {
    if (at_end() || is_line_end(peek())) {
      error(open, "missing terminating '\"' character");
      t.kind = Tok::unknown;
      return;
    }
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      return;
    }
    if (is_control(c)) {
      // A NUL would cut the path short wherever it is used as a C string (#include "a\0b").
      error(pos_, fmt::format("control character U+{:04X} in string literal",
                              static_cast<unsigned char>(c)));
      t.kind = Tok::unknown;
      ++pos_;
      continue;
    }
    if (c != '\\') {
      t.string_value += c;
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= text_.size() || is_line_end(peek(1))) {
      ++pos_;  // a backslash ending the line: the string is unterminated
      continue;
    }
    char e = peek(1);
    if (char value = unescape(e)) {
      t.string_value += value;
    } else if (e > ' ' && e < 0x7F) {
      error(pos_, fmt::format("unknown escape sequence '\\{}'", e), 2);
    } else {
      error(pos_, "unknown escape sequence after '\\'");
    }
    pos_ += 2;
  }
}

void Lexer::lex_punctuation(Token& t) {
  static constexpr struct {
    char c;
    Tok kind;
  } kSingle[] = {
      {'{', Tok::l_brace},   {'}', Tok::r_brace},   {'(', Tok::l_paren}, {')', Tok::r_paren},
      {'[', Tok::l_bracket}, {']', Tok::r_bracket}, {';', Tok::semi},    {':', Tok::colon},
      {',', Tok::comma},     {'.', Tok::period},    {'@', Tok::at},      {'=', Tok::equal},
      {'+', Tok::plus},      {'*', Tok::star},      {'/', Tok::slash},   {'%', Tok::percent}};
  char c = peek();
  if (c == '-') {
    bool arrow = peek(1) == '>';
    t.kind = arrow ? Tok::arrow : Tok::minus;
    pos_ += arrow ? 2 : 1;
    return;
  }
  if (c == '<' && peek(1) == '-' && peek(2) == '>') {
    t.kind = Tok::bidir_arrow;
    pos_ += 3;
    return;
  }
  if (c == '<' && peek(1) == '=') {
    t.kind = Tok::less_equal;
    pos_ += 2;
    return;
  }
  for (const auto& p : kSingle) {
    if (p.c == c) {
      t.kind = p.kind;
      ++pos_;
      return;
    }
  }
  if (c >= ' ' && c < 0x7F)
    error(pos_, fmt::format("unexpected character '{}'", c));
  else
    error(pos_,
          fmt::format("unexpected control character U+{:04X}", static_cast<unsigned char>(c)));
  t.kind = Tok::unknown;
  ++pos_;
}

}  // namespace dfgc::spec
