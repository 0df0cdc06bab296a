/// \file
/// The hand-written lexer of the .dfg language. It yields one token at a time, skipping whitespace
/// and comments, and reports malformed tokens where they start. After an error it yields the best
/// token it can (an over-large integer, an identifier with a non-ASCII letter) or, where there is
/// none, an `unknown` token, at which the parser reports nothing more.
#pragma once

#include <cstdint>
#include <string_view>

#include "spec/token.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::spec {

class Lexer {
 public:
  Lexer(std::uint32_t file, std::string_view text, DiagnosticEngine& diags)
      : file_(file), text_(text), diags_(&diags) {}

  /// The next token; end of file forever once the text is exhausted.
  Token next();

 private:
  /// Skips whitespace and comments; returns whether a newline was among them.
  bool skip_trivia();
  void lex_word(Token& t);
  void lex_number(Token& t);
  void lex_string(Token& t);
  void lex_punctuation(Token& t);
  /// Scans digits (hexadecimal ones when `hex`) with '_' separators; returns how many digits.
  std::size_t scan_digits(bool hex);

  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool at_end() const { return pos_ >= text_.size(); }
  SourceLoc loc(std::size_t offset) const { return {file_, static_cast<std::uint32_t>(offset)}; }
  void error(std::size_t offset, std::string message, std::uint32_t length = 1);

  std::uint32_t file_;
  std::string_view text_;
  DiagnosticEngine* diags_;
  std::size_t pos_ = 0;
  bool first_ = true;           ///< no token was yielded yet
  bool bad_separator_ = false;  ///< a misplaced '_' was already reported in this literal
};

}  // namespace dfgc::spec
