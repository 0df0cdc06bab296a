/// \file
/// The parser's class, shared by its files: parser.cpp (tokens, errors, recovery, top-level
/// declarations, params, types), parse_actor.cpp, parse_arch.cpp, parse_app.cpp (apps, composites
/// and loops) and parse_expr.cpp. Not part of the front end's interface (spec/parser.hpp is).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ast.hpp"
#include "spec/lexer.hpp"
#include "spec/reporter.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::spec {

constexpr int kMaxNesting = 256;

/// A parsed expression and the height of its tree (a literal is 1); a null expr means an error
/// was reported.
struct Operand {
  ast::ExprPtr expr;
  int height = 0;
};

/// Keeps the nesting depth of an expression while one level is being parsed.
class NestingScope {
 public:
  explicit NestingScope(int& depth) : depth_(depth) { ++depth_; }
  ~NestingScope() { --depth_; }
  NestingScope(const NestingScope&) = delete;
  NestingScope& operator=(const NestingScope&) = delete;
  bool too_deep() const { return depth_ > kMaxNesting; }

 private:
  int& depth_;
};

class Parser {
 public:
  Parser(std::uint32_t file, const SourceManager& sources, DiagnosticEngine& diags)
      : lexer_(file, sources.contents(file), diags), diags_(diags), file_(file) {
    tok_ = lexer_.next();
  }

  std::unique_ptr<ast::Module> parse();

 private:
  // Tokens.
  bool at(Tok kind) const { return tok_.is(kind); }
  bool at_word(std::string_view word) const { return tok_.is_word(word); }
  const Token& peek_next();
  Token fetch();
  void advance();
  ast::Ident take_ident();
  bool starts_declaration(bool param_too);

  // Errors and recovery.
  void error(SourceLoc loc, std::string message, std::uint32_t length = 1,
             std::vector<Note> notes = {});
  void error_here(std::string message, std::vector<Note> notes = {});
  std::string found() const;
  bool expect(Tok kind, std::string_view context);
  bool expect_closing(Tok kind, SourceLoc open, std::string_view context);
  std::optional<ast::Ident> expect_ident(std::string_view what);
  bool expect_semi(std::string_view what);
  void skip_statement();
  template <typename Item>
  void parse_block(std::string_view what, Item&& item, bool param_is_item = false);

  // Declarations.
  bool parse_declaration();
  bool parse_import();
  bool parse_param();
  bool parse_tune_range(ast::ParamDecl& param);
  bool parse_type();
  bool parse_struct();
  bool parse_field(ast::StructDecl& s);
  bool parse_actor();
  bool parse_actor_item(ast::ActorDecl& actor);
  bool parse_port(ast::ActorDecl& actor);
  bool parse_actor_param(ast::ActorDecl& actor);
  bool parse_impl(ast::ActorDecl& actor);
  bool parse_parallel_counts(ast::ImplDecl& impl);
  bool parse_uses(ast::ActorDecl& actor);
  bool parse_ends(ast::ActorDecl& actor);
  bool parse_arch();
  bool parse_arch_item(ast::ArchDecl& arch);
  bool parse_host(ast::ArchDecl& arch);
  bool parse_pe(ast::HostDecl& host);
  bool parse_memory(ast::PeDecl& gpu);
  bool parse_link(ast::ArchDecl& arch);
  bool parse_bandwidth(ast::LinkDecl& link);
  bool parse_latency(ast::LinkDecl& link);
  /// The body whose items are being parsed: what it may hold, and names for messages.
  struct Body {
    enum class Kind { app, graph, mapping, composite };
    Kind kind = Kind::app;
    const ast::Ident* owner = nullptr;        ///< the app or composite
    std::string graph;                        ///< the graph a mapping maps
    ast::AppDecl* app = nullptr;              ///< at an app's top level (`batch`)
    ast::CompositeDecl* composite = nullptr;  ///< at a composite's top level (`param`, ports)
  };
  bool parse_app();
  bool parse_item(ast::Items& items, const Body& body);
  bool parse_for(ast::Items& items, const Body& body);
  bool parse_indices(std::vector<ast::Index>& indices);
  bool parse_batch(ast::AppDecl& app);
  bool parse_node(ast::Items& items, const Body& body);
  bool parse_placement_item(ast::Items& items, const Body& body);
  bool parse_node_tail(ast::Items& items, const Body& body, ast::NodeDecl node);
  bool parse_composite();
  bool parse_composite_param(ast::CompositeDecl& composite);
  bool parse_boundary(ast::CompositeDecl& composite);
  bool parse_replicas(ast::NodeDecl& node);
  bool parse_range(ast::ExprPtr& min, ast::ExprPtr& max, const std::string& after);
  bool parse_placement(ast::NodeDecl& node);
  bool parse_alternatives(ast::NodeDecl& node);
  bool parse_assign(ast::NodeDecl& node);
  bool parse_edge(ast::Items& items, const Body& body);
  std::optional<ast::PeRef> parse_peref(std::string_view context, bool indexed = false);
  bool parse_pe_index(ast::PeRef& ref);
  std::optional<ast::PortRef> parse_portref(std::string_view context, const Body& body);

  // Expressions.
  ast::ExprPtr parse_expr();
  Operand parse_binary(int level);
  Operand parse_unary();
  Operand parse_primary();
  Operand parse_call();
  Operand too_deep(SourceLoc loc);

  Lexer lexer_;
  DiagnosticEngine& diags_;
  std::uint32_t file_;
  Token tok_;
  std::optional<Token> peeked_;
  SourceLoc prev_end_;  ///< just past the last consumed token
  int nesting_ = 0;
  ast::Module* module_ = nullptr;
};

/// `'{' { item } '}'` with the current token on the '{'.
template <typename Item>
void Parser::parse_block(std::string_view what, Item&& item, bool param_is_item) {
  SourceLoc open = tok_.loc;
  advance();
  while (!at(Tok::r_brace)) {
    if (at(Tok::eof) || starts_declaration(!param_is_item)) {
      error(tok_.loc, fmt::format("expected '}}' at end of {}", what), 1,
            {{open, "to match this '{'"}});
      return;
    }
    if (!item()) skip_statement();
  }
  advance();
}

/// A new expression node of `kind` at `loc`.
ast::ExprPtr make_expr(ast::Expr::Kind kind, SourceLoc loc);

}  // namespace dfgc::spec
