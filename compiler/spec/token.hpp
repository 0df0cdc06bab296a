/// \file
/// The tokens of the .dfg language. Keywords are contextual: the lexer yields identifiers and the
/// parser checks their spelling where a keyword may appear, so `in Matrix in;` declares a port
/// named `in`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "support/source_manager.hpp"

namespace dfgc::spec {

enum class Tok {
  eof,
  identifier,
  integer,
  real,
  string,
  l_brace,      // {
  r_brace,      // }
  l_paren,      // (
  r_paren,      // )
  l_bracket,    // [
  r_bracket,    // ]
  semi,         // ;
  colon,        // :
  comma,        // ,
  period,       // .
  at,           // @
  equal,        // =
  plus,         // +
  minus,        // -
  star,         // *
  slash,        // /
  percent,      // %
  arrow,        // ->
  bidir_arrow,  // <->
  less_equal,   // <=
  unknown,      // text the lexer reported as an error (a stray character, an unterminated string)
};

/// The spelling of a punctuation token, or a word for the others ("identifier", "end of file").
std::string_view spelling(Tok kind);

struct Token {
  Tok kind = Tok::eof;
  SourceLoc loc;
  std::uint32_t length = 1;    ///< bytes of source text (1 for end of file)
  std::string_view text;       ///< the source text, valid while the file is loaded
  bool first_on_line = false;  ///< nothing but whitespace and comments before it on its line
  std::int64_t int_value = 0;
  double real_value = 0;
  std::string string_value;  ///< a string literal's contents, escapes processed

  bool is(Tok k) const { return kind == k; }
  bool is_word(std::string_view word) const { return kind == Tok::identifier && text == word; }
};

}  // namespace dfgc::spec
