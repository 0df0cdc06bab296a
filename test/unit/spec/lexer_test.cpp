#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "spec/lexer.hpp"

using namespace dfgc;
using namespace dfgc::spec;

namespace {

/// Lexes `text` to the end; the diagnostics are left in `diags`.
struct Lexed {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::vector<Token> tokens;

  explicit Lexed(std::string text) {
    std::uint32_t file = sm.add_buffer("t.dfg", std::move(text));
    Lexer lexer(file, sm.contents(file), diags);
    for (Token t = lexer.next(); !t.is(Tok::eof); t = lexer.next()) tokens.push_back(t);
  }
  std::vector<Tok> kinds() const {
    std::vector<Tok> k;
    for (const Token& t : tokens) k.push_back(t.kind);
    return k;
  }
  std::string first_error() const {
    return diags.diagnostics().empty() ? "" : diags.diagnostics().front().message;
  }
  std::uint32_t first_error_offset() const { return diags.diagnostics().front().loc.offset; }
};

}  // namespace

TEST_CASE("every punctuation token", "[spec][lexer]") {
  Lexed l("{ } ( ) [ ] ; : , . @ = + - * / % -> <-> <=");
  CHECK(l.kinds() ==
        std::vector<Tok>{Tok::l_brace,   Tok::r_brace,   Tok::l_paren,     Tok::r_paren,
                         Tok::l_bracket, Tok::r_bracket, Tok::semi,        Tok::colon,
                         Tok::comma,     Tok::period,    Tok::at,          Tok::equal,
                         Tok::plus,      Tok::minus,     Tok::star,        Tok::slash,
                         Tok::percent,   Tok::arrow,     Tok::bidir_arrow, Tok::less_equal});
  CHECK_FALSE(l.diags.has_errors());
  for (const Token& t : l.tokens) CHECK(t.text == spelling(t.kind));
}

TEST_CASE("arrows are taken greedily, '<-' alone is not a token", "[spec][lexer]") {
  Lexed l("a->b<->c--d");
  CHECK(l.kinds() == std::vector<Tok>{Tok::identifier, Tok::arrow, Tok::identifier,
                                      Tok::bidir_arrow, Tok::identifier, Tok::minus, Tok::minus,
                                      Tok::identifier});
  Lexed bad("a <- b");
  CHECK(bad.first_error() == "unexpected character '<'");
  CHECK(bad.kinds() ==
        std::vector<Tok>{Tok::identifier, Tok::unknown, Tok::minus, Tok::identifier});
}

TEST_CASE("identifiers, keywords included, are identifiers", "[spec][lexer]") {
  Lexed l("in out _x9 A.cpu");
  REQUIRE(l.tokens.size() == 6);
  CHECK(l.tokens[0].is_word("in"));
  CHECK(l.tokens[2].is_word("_x9"));
  CHECK(l.tokens[5].is_word("cpu"));
  CHECK(l.tokens[5].loc.offset == 13);
  CHECK(l.tokens[5].length == 3);
}

TEST_CASE("comments are skipped and newlines are noticed", "[spec][lexer]") {
  Lexed l("  a // b c\n/* d\n e */ f /* g */ h");
  REQUIRE(l.tokens.size() == 3);
  CHECK(l.tokens[0].first_on_line);
  CHECK(l.tokens[1].text == "f");
  CHECK(l.tokens[1].first_on_line);
  CHECK(l.tokens[2].text == "h");
  CHECK_FALSE(l.tokens[2].first_on_line);
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("an unterminated block comment is reported at its start", "[spec][lexer]") {
  Lexed l("a /* b\n c");
  CHECK(l.first_error() == "unterminated block comment");
  CHECK(l.first_error_offset() == 2);
  CHECK(l.tokens.size() == 1);
}

TEST_CASE("integers: decimal, hexadecimal, digit separators", "[spec][lexer]") {
  Lexed l("0 42 16_777_216 0x10 0XfF 0x1_0000 9223372036854775807");
  REQUIRE(l.tokens.size() == 7);
  std::vector<std::int64_t> values;
  for (const Token& t : l.tokens) {
    CHECK(t.is(Tok::integer));
    values.push_back(t.int_value);
  }
  CHECK(values == std::vector<std::int64_t>{0, 42, 16777216, 16, 255, 65536, 9223372036854775807});
  CHECK(l.tokens[2].text == "16_777_216");
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("an integer beyond int64 is a located error", "[spec][lexer]") {
  Lexed l("x 9223372036854775808");
  CHECK(l.first_error() == "integer literal is too large");
  CHECK(l.first_error_offset() == 2);
  CHECK(l.diags.diagnostics().front().length == 19);
  Lexed hex("0x8000000000000000");
  CHECK(hex.first_error() == "integer literal is too large");
  Lexed huge("123456789012345678901234567890");
  CHECK(huge.first_error() == "integer literal is too large");
  REQUIRE(huge.tokens.size() == 1);
  CHECK(huge.tokens[0].int_value == 9223372036854775807);
}

TEST_CASE("misplaced digit separators and empty hex literals", "[spec][lexer]") {
  for (const char* text : {"1__0", "1_", "0x_1", "2.5_", "1e1_"}) {
    Lexed l(text);
    INFO(text);
    CHECK(l.first_error() == "digit separator '_' must be between digits");
    CHECK(l.diags.error_count() == 1);
  }
  Lexed l("0x;");
  CHECK(l.first_error() == "expected hexadecimal digits after '0x'");
  CHECK(l.kinds() == std::vector<Tok>{Tok::integer, Tok::semi});
}

TEST_CASE("reals", "[spec][lexer]") {
  Lexed l("2.6 1e9 2.5e-3 1E+2 3.0");
  REQUIRE(l.tokens.size() == 5);
  for (const Token& t : l.tokens) CHECK(t.is(Tok::real));
  CHECK(l.tokens[0].real_value == 2.6);
  CHECK(l.tokens[1].real_value == 1e9);
  CHECK(l.tokens[2].real_value == 2.5e-3);
  CHECK(l.tokens[3].real_value == 100.0);
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("numbers end where a unit or a member access begins", "[spec][lexer]") {
  Lexed l("25GB 5us 2.x 1e");
  CHECK(l.kinds() == std::vector<Tok>{Tok::integer, Tok::identifier, Tok::integer, Tok::identifier,
                                      Tok::integer, Tok::period, Tok::identifier, Tok::integer,
                                      Tok::identifier});
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("a real beyond double is a located error", "[spec][lexer]") {
  Lexed l("1e999");
  CHECK(l.first_error() == "real literal is too large");
  CHECK(l.tokens.size() == 1);
  Lexed tiny("1e-999");
  CHECK_FALSE(tiny.diags.has_errors());
}

TEST_CASE("strings and their escapes", "[spec][lexer]") {
  Lexed l(R"("a/b.hpp" "q\"b\\n\n\t\'" "" "é")");
  REQUIRE(l.tokens.size() == 4);
  CHECK(l.tokens[0].string_value == "a/b.hpp");
  CHECK(l.tokens[1].string_value == "q\"b\\n\n\t'");
  CHECK(l.tokens[2].string_value.empty());
  CHECK(l.tokens[3].string_value == "é");
  CHECK(l.tokens[0].length == 9);
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("string errors", "[spec][lexer]") {
  Lexed unknown(R"(x "a\qb" y)");
  CHECK(unknown.first_error() == "unknown escape sequence '\\q'");
  CHECK(unknown.first_error_offset() == 4);
  CHECK(unknown.kinds() == std::vector<Tok>{Tok::identifier, Tok::string, Tok::identifier});

  Lexed control("\"a\\\tb\"");
  CHECK(control.first_error() == "unknown escape sequence after '\\'");

  Lexed newline("x \"abc\ny");
  CHECK(newline.first_error() == "missing terminating '\"' character");
  CHECK(newline.first_error_offset() == 2);
  CHECK(newline.kinds() == std::vector<Tok>{Tok::identifier, Tok::unknown, Tok::identifier});
  CHECK(newline.tokens[1].text == "\"abc");

  Lexed eof("\"abc");
  CHECK(eof.first_error() == "missing terminating '\"' character");
  Lexed backslash_eof("\"abc\\");
  CHECK(backslash_eof.first_error() == "missing terminating '\"' character");
  CHECK(backslash_eof.diags.error_count() == 1);
}

TEST_CASE("non-ASCII is reported once per identifier or run, with its code point",
          "[spec][lexer]") {
  Lexed l("caf\xC3\xA9\xC3\xA9 x");
  CHECK(l.first_error() ==
        "non-ASCII character U+00E9 in identifier; dfgc names become C++ identifiers and must be "
        "ASCII");
  CHECK(l.first_error_offset() == 3);
  CHECK(l.diags.error_count() == 1);
  CHECK(l.kinds() == std::vector<Tok>{Tok::identifier, Tok::identifier});

  Lexed arrow("a \xE2\x86\x92 b");
  CHECK(arrow.first_error() ==
        "non-ASCII character U+2192; outside comments and strings a spec must be ASCII");
  CHECK(arrow.kinds() == std::vector<Tok>{Tok::identifier, Tok::unknown, Tok::identifier});

  Lexed emoji("x\xF0\x9F\x98\x80");
  CHECK(emoji.first_error().starts_with("non-ASCII character U+1F600 in identifier"));

  Lexed invalid("ab\xFF");
  CHECK(invalid.first_error().starts_with("invalid UTF-8 byte 0xFF in identifier"));
  Lexed overlong("\xC0\x80");
  CHECK(overlong.first_error().starts_with("invalid UTF-8 byte 0xC0;"));
  Lexed truncated("\xE2\x86");
  CHECK(truncated.first_error().starts_with("invalid UTF-8 byte 0xE2;"));

  Lexed comment("// caf\xC3\xA9\n/* \xFF */ x");
  CHECK_FALSE(comment.diags.has_errors());
}

TEST_CASE("stray characters", "[spec][lexer]") {
  Lexed l("a $ b # c");
  CHECK(l.first_error() == "unexpected character '$'");
  CHECK(l.diags.error_count() == 2);
  CHECK(l.kinds() == std::vector<Tok>{Tok::identifier, Tok::unknown, Tok::identifier, Tok::unknown,
                                      Tok::identifier});
  Lexed control(std::string("a\0b", 3));
  CHECK(control.first_error() == "unexpected control character U+0000");
}

TEST_CASE("spelling names the non-punctuation tokens", "[spec][lexer]") {
  CHECK(spelling(Tok::eof) == "end of file");
  CHECK(spelling(Tok::identifier) == "identifier");
  CHECK(spelling(Tok::integer) == "integer");
  CHECK(spelling(Tok::real) == "real");
  CHECK(spelling(Tok::string) == "string");
  CHECK(spelling(Tok::unknown) == "unknown token");
}

TEST_CASE("a lone CR ends a line and a line comment", "[spec][lexer]") {
  Lexed l("a // b\rc\r\nd");
  REQUIRE(l.tokens.size() == 3);
  CHECK(l.tokens[1].text == "c");
  CHECK(l.tokens[1].first_on_line);
  CHECK(l.tokens[2].first_on_line);
  CHECK_FALSE(l.diags.has_errors());
}

TEST_CASE("control characters in a string are refused where they stand", "[spec][lexer]") {
  Lexed nul(std::string("\"a.hpp\0b\" x", 11));
  CHECK(nul.first_error() == "control character U+0000 in string literal");
  CHECK(nul.first_error_offset() == 6);
  CHECK(nul.kinds() == std::vector<Tok>{Tok::unknown, Tok::identifier});
  Lexed escape("\"a\x1b\"");
  CHECK(escape.first_error() == "control character U+001B in string literal");
  Lexed cr("\"a\rb\"");
  CHECK(cr.first_error() == "missing terminating '\"' character");
}
