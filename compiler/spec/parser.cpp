/// \file
/// The recursive-descent parser of the .dfg language; the grammar rule of each construct is in the
/// comment above its parse function. Keywords are contextual identifiers. Errors are reported where
/// they are found; the parser then skips to the next `;` or past the matching `}` and carries on,
/// so that one run reports every independent mistake. Expressions are limited to kMaxNesting
/// levels so that no input can exhaust the stack.
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "spec/parser.hpp"
#include "spec/parser_impl.hpp"

namespace dfgc::spec {

namespace {

/// Words that start a top-level declaration; `param` also starts an item of an actor body.
bool is_declaration_word(std::string_view word, bool param_too) {
  return word == "import" || word == "runtime" || word == "type" || word == "struct" ||
         word == "actor" || word == "arch" || word == "app" || word == "composite" ||
         (param_too && word == "param");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Tokens

Token Parser::fetch() {
  if (!too_many_errors(diags_)) return lexer_.next();
  Token eof;
  eof.loc = tok_.loc;
  return eof;
}

const Token& Parser::peek_next() {
  if (!peeked_) peeked_ = fetch();
  return *peeked_;
}

void Parser::advance() {
  if (at(Tok::eof)) return;
  prev_end_ = {file_, tok_.loc.offset + tok_.length};
  if (peeked_) {
    tok_ = std::move(*peeked_);
    peeked_.reset();
  } else {
    tok_ = fetch();
  }
}

ast::Ident Parser::take_ident() {
  ast::Ident id{std::string(tok_.text), tok_.loc};
  advance();
  return id;
}

/// A word that begins a top-level declaration, first on its line: inside a body where it cannot
/// begin an item, it means the body's '}' is missing. `param_too` where `param` is no body item.
bool Parser::starts_declaration(bool param_too) {
  return tok_.first_on_line && at(Tok::identifier) && is_declaration_word(tok_.text, param_too) &&
         !peek_next().is(Tok::period);
}

// ---------------------------------------------------------------------------------------------
// Errors and recovery

/// Reports an error, except at an unknown token: the lexer has said what is wrong there.
void Parser::error(SourceLoc loc, std::string message, std::uint32_t length,
                   std::vector<Note> notes) {
  if (at(Tok::unknown)) return;
  report_error(diags_, loc, std::move(message), length, std::move(notes));
}

void Parser::error_here(std::string message, std::vector<Note> notes) {
  error(tok_.loc, std::move(message), tok_.length, std::move(notes));
}

/// How the current token reads in "..., found X".
std::string Parser::found() const {
  constexpr std::size_t kMaxShown = 32;
  switch (tok_.kind) {
    case Tok::eof: return "end of file";
    case Tok::string: return "a string";
    default:
      if (tok_.text.size() > kMaxShown)
        return fmt::format("'{}...'", tok_.text.substr(0, kMaxShown));
      return fmt::format("'{}'", tok_.text);
  }
}

bool Parser::expect(Tok kind, std::string_view context) {
  if (at(kind)) {
    advance();
    return true;
  }
  error_here(fmt::format("expected '{}' {}, found {}", spelling(kind), context, found()));
  return false;
}

bool Parser::expect_closing(Tok kind, SourceLoc open, std::string_view context) {
  if (at(kind)) {
    advance();
    return true;
  }
  std::string opening = kind == Tok::r_paren ? "(" : kind == Tok::r_bracket ? "[" : "{";
  error_here(fmt::format("expected '{}' {}, found {}", spelling(kind), context, found()),
             {{open, fmt::format("to match this '{}'", opening)}});
  return false;
}

std::optional<ast::Ident> Parser::expect_ident(std::string_view what) {
  if (at(Tok::identifier)) return take_ident();
  error_here(fmt::format("expected {}, found {}", what, found()));
  return std::nullopt;
}

/// A missing ';' is reported just after the previous token. When what follows starts a new line
/// (or closes the body) the statement is taken as complete and nothing is skipped.
bool Parser::expect_semi(std::string_view what) {
  if (at(Tok::semi)) {
    advance();
    return true;
  }
  error(prev_end_, fmt::format("expected ';' after {}", what));
  return tok_.first_on_line || at(Tok::r_brace) || at(Tok::eof);
}

/// Skips to just after the next ';' or past the matching '}' of a '{' met on the way; stops
/// before a '}' that closes the enclosing body and before a new top-level declaration.
void Parser::skip_statement() {
  int depth = 0;
  for (;;) {
    switch (tok_.kind) {
      case Tok::eof: return;
      case Tok::semi:
        advance();
        if (depth == 0) return;
        break;
      case Tok::l_brace:
        ++depth;
        advance();
        break;
      case Tok::r_brace:
        if (depth == 0) return;
        advance();
        if (--depth == 0) return;
        break;
      default:
        if (depth == 0 && starts_declaration(false)) return;
        advance();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Declarations

std::unique_ptr<ast::Module> Parser::parse() {
  auto module = std::make_unique<ast::Module>();
  module->file = file_;
  module_ = module.get();
  while (!at(Tok::eof)) {
    if (at(Tok::r_brace)) {
      error_here("extraneous closing brace ('}')");
      advance();
    } else if (!parse_declaration()) {
      skip_statement();
    }
  }
  return module;
}

bool Parser::parse_declaration() {
  if (at_word("import")) return parse_import();
  if (at_word("param") || at_word("runtime")) return parse_param();
  if (at_word("type")) return parse_type();
  if (at_word("struct")) return parse_struct();
  if (at_word("actor")) return parse_actor();
  if (at_word("arch")) return parse_arch();
  if (at_word("app")) return parse_app();
  if (at_word("composite")) return parse_composite();
  error_here(
      fmt::format("expected 'import', 'param', 'runtime param', 'struct', 'type', 'actor', 'arch', "
                  "'app' or 'composite', found {}",
                  found()));
  return false;
}

// import := 'import' STRING ';'
bool Parser::parse_import() {
  ast::ImportDecl d;
  d.loc = tok_.loc;
  advance();
  if (!at(Tok::string)) {
    error_here(fmt::format("expected a file name string after 'import', found {}", found()));
    return false;
  }
  d.path = tok_.string_value;
  d.path_loc = tok_.loc;
  advance();
  module_->imports.push_back(std::move(d));
  return expect_semi("import declaration");
}

// param := ['runtime'] 'param' IDENT '=' expr ['in' '[' expr ',' expr ']'] ';'
bool Parser::parse_param() {
  ast::ParamDecl d;
  d.loc = tok_.loc;
  if (at_word("runtime")) {
    d.runtime = true;
    advance();
    if (!at_word("param")) {
      error_here(fmt::format("expected 'param' after 'runtime', found {}", found()));
      return false;
    }
  }
  advance();
  auto name = expect_ident("a parameter name after 'param'");
  if (!name || !expect(Tok::equal, fmt::format("after parameter name '{}'", name->name)))
    return false;
  d.name = std::move(*name);
  d.value = parse_expr();
  if (!d.value) return false;
  if (at_word("in") && !parse_tune_range(d)) return false;
  module_->params.push_back(std::move(d));
  return expect_semi("param declaration");
}

// The range of a tunable param: 'in' '[' expr ',' expr ']'
bool Parser::parse_tune_range(ast::ParamDecl& param) {
  param.tune_loc = tok_.loc;
  advance();
  return parse_range(param.tune_min, param.tune_max,
                     fmt::format("after 'in' (the range of param '{}')", param.name.name));
}

// '[' expr ',' expr ']', the '[' expected `after`
bool Parser::parse_range(ast::ExprPtr& min, ast::ExprPtr& max, const std::string& after) {
  SourceLoc open = tok_.loc;
  if (!expect(Tok::l_bracket, after)) return false;
  min = parse_expr();
  if (!min) return false;
  if (!at(Tok::comma)) {
    error_here(fmt::format("expected ',' between the ends of the range, found {}", found()),
               {{open, "to match this '['"}});
    return false;
  }
  advance();
  max = parse_expr();
  return max && expect_closing(Tok::r_bracket, open, "after the range");
}

// type := 'type' IDENT '=' IDENT '[' [ '<=' ] expr ']' ';'
bool Parser::parse_type() {
  ast::TypeDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a type name after 'type'");
  if (!name || !expect(Tok::equal, fmt::format("after type name '{}'", name->name))) return false;
  auto elem = expect_ident("an element type name (float, int32, ...) after '='");
  if (!elem) return false;
  SourceLoc open = tok_.loc;
  if (!expect(Tok::l_bracket, fmt::format("after element type '{}'", elem->name))) return false;
  if (at(Tok::less_equal)) {
    d.bounded = true;
    advance();
  }
  d.count = parse_expr();
  if (!d.count || !expect_closing(Tok::r_bracket, open, "after element count")) return false;
  d.name = std::move(*name);
  d.elem = std::move(*elem);
  module_->types.push_back(std::move(d));
  return expect_semi("type declaration");
}

// struct := 'struct' IDENT ['=' STRING] '{' { field } '}'
bool Parser::parse_struct() {
  ast::StructDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a struct name after 'struct'");
  if (!name) return false;
  d.name = std::move(*name);
  if (at(Tok::equal)) {
    advance();
    if (!at(Tok::string)) {
      error_here(fmt::format("expected the C++ name of struct '{}' as a string after '=', found {}",
                             d.name.name, found()));
      return false;
    }
    d.cxx_name = tok_.string_value;
    d.cxx_loc = tok_.loc;
    advance();
  }
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after struct name '{}', found {}", d.name.name, found()));
    return false;
  }
  parse_block("struct body", [&] { return parse_field(d); }, false);
  module_->structs.push_back(std::move(d));
  return true;
}

// field := IDENT IDENT ['[' expr ']'] ';'
bool Parser::parse_field(ast::StructDecl& s) {
  auto type = expect_ident("a field's element type (float, int32, ...) in struct body");
  if (!type) return false;
  auto name = expect_ident(fmt::format("a field name after '{}'", type->name));
  if (!name) return false;
  ast::FieldDecl f{std::move(*type), std::move(*name), nullptr};
  if (at(Tok::l_bracket)) {
    SourceLoc open = tok_.loc;
    advance();
    f.count = parse_expr();
    if (!f.count || !expect_closing(Tok::r_bracket, open, "after the array's element count"))
      return false;
  }
  s.fields.push_back(std::move(f));
  return expect_semi("field declaration");
}

}  // namespace dfgc::spec

namespace dfgc {

std::unique_ptr<ast::Module> parse_module(std::uint32_t file, SourceManager& sources,
                                          DiagnosticEngine& diags) {
  return spec::Parser(file, sources, diags).parse();
}

}  // namespace dfgc
