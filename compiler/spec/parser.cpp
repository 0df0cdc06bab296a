/// \file
/// The recursive-descent parser of the .dfg language; the grammar rule of each construct is in the
/// comment above its parse function. Keywords are contextual identifiers. Errors are reported where
/// they are found; the parser then skips to the next `;` or past the matching `}` and carries on,
/// so that one run reports every independent mistake. Expressions are limited to kMaxNesting
/// levels so that no input can exhaust the stack.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "spec/lexer.hpp"
#include "spec/parser.hpp"
#include "spec/reporter.hpp"

namespace dfgc {

namespace {

using spec::Lexer;
using spec::Note;
using spec::report_error;
using spec::spelling;
using spec::Tok;
using spec::Token;
using spec::too_many_errors;

constexpr int kMaxNesting = 256;

/// A parsed expression and the height of its tree (a literal is 1); a null expr means an error
/// was reported.
struct Operand {
  ast::ExprPtr expr;
  int height = 0;
};

/// A unit: value * multiplier / divisor is in bytes per second or in seconds (dividing keeps
/// 5 us exactly the double nearest to 5e-6).
struct Unit {
  std::string_view name;
  double multiplier;
  double divisor;
};

constexpr Unit kBandwidthUnits[] = {
    {"B/s", 1, 1},     {"KB/s", 1e3, 1},     {"MB/s", 1e6, 1},        {"GB/s", 1e9, 1},
    {"TB/s", 1e12, 1}, {"KiB/s", 1024.0, 1}, {"MiB/s", 1048576.0, 1}, {"GiB/s", 1073741824.0, 1},
    {"Kb/s", 1e3, 8},  {"Mb/s", 1e6, 8},     {"Gb/s", 1e9, 8},
};

constexpr Unit kLatencyUnits[] = {{"ns", 1, 1e9}, {"us", 1, 1e6}, {"ms", 1, 1e3}, {"s", 1, 1}};

constexpr Unit kMemoryUnits[] = {
    {"B", 1, 1},           {"KB", 1e3, 1},           {"MB", 1e6, 1},
    {"GB", 1e9, 1},        {"TB", 1e12, 1},          {"KiB", 1024.0, 1},
    {"MiB", 1048576.0, 1}, {"GiB", 1073741824.0, 1}, {"TiB", 1099511627776.0, 1},
};

const Unit* find_unit(std::string_view name, const auto& units) {
  for (const Unit& u : units)
    if (u.name == name) return &u;
  return nullptr;
}

/// Words that start a top-level declaration; `param` also starts an item of an actor body.
bool is_declaration_word(std::string_view word, bool param_too) {
  return word == "import" || word == "runtime" || word == "type" || word == "actor" ||
         word == "arch" || word == "app" || (param_too && word == "param");
}

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
  bool parse_app();
  bool parse_app_item(ast::AppDecl& app);
  bool parse_batch(ast::AppDecl& app);
  bool parse_node(ast::AppDecl& app);
  bool parse_placement_item(ast::AppDecl& app);
  bool parse_node_tail(ast::AppDecl& app, ast::NodeDecl node);
  bool parse_replicas(ast::NodeDecl& node);
  bool parse_range(ast::ExprPtr& min, ast::ExprPtr& max, const std::string& after);
  bool parse_placement(ast::NodeDecl& node);
  bool parse_alternatives(ast::NodeDecl& node);
  bool parse_assign(ast::NodeDecl& node);
  bool parse_edge(ast::AppDecl& app);
  std::optional<ast::PeRef> parse_peref(std::string_view context);
  std::optional<ast::PortRef> parse_portref(std::string_view context);

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
  if (at_word("actor")) return parse_actor();
  if (at_word("arch")) return parse_arch();
  if (at_word("app")) return parse_app();
  error_here(fmt::format(
      "expected 'import', 'param', 'runtime param', 'type', 'actor', 'arch' or 'app', found {}",
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

// actor := 'actor' IDENT [ 'dynamic' ] '{' { port | aparam | impl | uses | ends } '}'
bool Parser::parse_actor() {
  ast::ActorDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("an actor name after 'actor'");
  if (!name) return false;
  d.name = std::move(*name);
  if (at_word("dynamic")) {
    d.dynamic = tok_.loc;
    advance();
  }
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after actor name '{}', found {}", d.name.name, found()));
    return false;
  }
  parse_block("actor body", [&] { return parse_actor_item(d); }, true);
  module_->actors.push_back(std::move(d));
  return true;
}

bool Parser::parse_actor_item(ast::ActorDecl& actor) {
  if (at_word("in") || at_word("out")) return parse_port(actor);
  if (at_word("param")) return parse_actor_param(actor);
  if (at_word("cpu") || at_word("gpu")) return parse_impl(actor);
  if (at_word("uses")) return parse_uses(actor);
  if (at_word("ends")) return parse_ends(actor);
  error_here(fmt::format(
      "expected 'in', 'out', 'param', 'cpu', 'gpu', 'uses' or 'ends' in actor body, found {}",
      found()));
  return false;
}

// ends := 'ends' 'stream' ';'
bool Parser::parse_ends(ast::ActorDecl& actor) {
  const SourceLoc loc = tok_.loc;
  advance();
  if (!at_word("stream")) {
    error_here(fmt::format("expected 'stream' after 'ends', found {}", found()));
    return false;
  }
  advance();
  if (actor.ends) {
    error(loc, fmt::format("actor '{}' says 'ends stream' twice", actor.name.name), 4);
  } else {
    actor.ends = loc;
  }
  return expect_semi("ends declaration");
}

// uses := 'uses' IDENT { ',' IDENT } ';'
bool Parser::parse_uses(ast::ActorDecl& actor) {
  advance();
  do {
    auto name = expect_ident(actor.uses.empty() ? "a library name after 'uses'"
                                                : "a library name after ','");
    if (!name) return false;
    actor.uses.push_back(std::move(*name));
  } while (at(Tok::comma) && (advance(), true));
  return expect_semi("uses declaration");
}

// port := ('in'|'out') IDENT IDENT [ 'rate' expr ] [ 'peek' expr [ '=' expr ] ] [ 'fifo' expr ]
//         [ 'mappable' ] ';'
bool Parser::parse_port(ast::ActorDecl& actor) {
  ast::PortDecl d;
  d.loc = tok_.loc;
  d.dir = at_word("in") ? ast::PortDecl::Dir::in : ast::PortDecl::Dir::out;
  std::string dir(tok_.text);
  advance();
  auto type = expect_ident(fmt::format("a type name after '{}'", dir));
  if (!type) return false;
  auto name = expect_ident(fmt::format("a port name after type '{}'", type->name));
  if (!name) return false;
  d.type = std::move(*type);
  d.name = std::move(*name);
  if (at_word("rate")) {
    advance();
    d.rate = parse_expr();
    if (!d.rate) return false;
  }
  if (at_word("peek")) {
    d.peek_loc = tok_.loc;
    advance();
    d.peek = parse_expr();
    if (!d.peek) return false;
    if (at(Tok::equal)) {
      advance();
      d.peek_value = parse_expr();
      if (!d.peek_value) return false;
    }
  }
  if (at_word("fifo")) {
    d.fifo_loc = tok_.loc;
    advance();
    d.fifo = parse_expr();
    if (!d.fifo) return false;
  }
  if (at_word("mappable")) {
    d.mappable = true;
    d.mappable_loc = tok_.loc;
    advance();
  }
  actor.ports.push_back(std::move(d));
  return expect_semi("port declaration");
}

// aparam := 'param' IDENT IDENT ['=' expr] ';'
bool Parser::parse_actor_param(ast::ActorDecl& actor) {
  ast::ActorParamDecl d;
  d.loc = tok_.loc;
  advance();
  auto type = expect_ident("a parameter type (int, int64, float, double or bool) after 'param'");
  if (!type) return false;
  auto name = expect_ident(fmt::format("a parameter name after type '{}'", type->name));
  if (!name) return false;
  if (at(Tok::equal)) {
    advance();
    d.default_value = parse_expr();
    if (!d.default_value) return false;
  } else if (!at(Tok::semi)) {
    error_here(fmt::format("expected '=' or ';' after parameter name '{}', found {}", name->name,
                           found()));
    return false;
  }
  d.type = std::move(*type);
  d.name = std::move(*name);
  actor.params.push_back(std::move(d));
  return expect_semi("parameter declaration");
}

// impl := ('cpu'|'gpu') STRING [IDENT] ['block' | parallel] ';'
// parallel := 'parallel' '(' IDENT expr { ',' IDENT expr } ')'
bool Parser::parse_impl(ast::ActorDecl& actor) {
  ast::ImplDecl d;
  d.loc = tok_.loc;
  d.kind = take_ident();
  if (!at(Tok::string)) {
    error_here(fmt::format("expected a header file name string after '{}', found {}", d.kind.name,
                           found()));
    return false;
  }
  d.header = tok_.string_value;
  d.header_loc = tok_.loc;
  advance();
  if (at(Tok::identifier)) d.class_name = take_ident();
  if (at_word("block")) {
    d.block = tok_.loc;
    advance();
  } else if (d.class_name && d.class_name->name == "block" && at(Tok::semi)) {
    // `cpu "h.hpp" block;`: the class is the actor's (a class named block is `... block block;`).
    d.block = d.class_name->loc;
    d.class_name.reset();
  } else if (at_word("parallel") ||
             (d.class_name && d.class_name->name == "parallel" && at(Tok::l_paren))) {
    // `gpu "h.cuh" parallel (...)`: the class is the actor's.
    if (at_word("parallel")) {
      d.parallel = tok_.loc;
      advance();
    } else {
      d.parallel = d.class_name->loc;
      d.class_name.reset();
    }
    if (!parse_parallel_counts(d)) return false;
  }
  actor.impls.push_back(std::move(d));
  return expect_semi("implementation declaration");
}

bool Parser::parse_parallel_counts(ast::ImplDecl& impl) {
  const SourceLoc open = tok_.loc;
  if (!expect(Tok::l_paren, "after 'parallel' (the elements a firing takes or gives per port)"))
    return false;
  do {
    auto port = expect_ident(impl.counts.empty() ? "a port name after 'parallel ('"
                                                 : "a port name after ','");
    if (!port) return false;
    ast::ExprPtr count = parse_expr();
    if (!count) return false;
    impl.counts.push_back({std::move(*port), std::move(count)});
  } while (at(Tok::comma) && (advance(), true));
  return expect_closing(Tok::r_paren, open, "after the parallel action's counts");
}

// arch := 'arch' IDENT '{' { host | link } '}'
bool Parser::parse_arch() {
  ast::ArchDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("an architecture name after 'arch'");
  if (!name) return false;
  d.name = std::move(*name);
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after arch name '{}', found {}", d.name.name, found()));
    return false;
  }
  parse_block("arch body", [&] { return parse_arch_item(d); });
  module_->archs.push_back(std::move(d));
  return true;
}

bool Parser::parse_arch_item(ast::ArchDecl& arch) {
  if (at_word("host")) return parse_host(arch);
  if (at_word("link")) return parse_link(arch);
  error_here(fmt::format("expected 'host' or 'link' in arch body, found {}", found()));
  return false;
}

// host := 'host' IDENT '{' { 'cpu' [IDENT [INTEGER]] ';' | 'gpu' IDENT '=' expr ';' } '}'
bool Parser::parse_host(ast::ArchDecl& arch) {
  ast::HostDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a host name after 'host'");
  if (!name) return false;
  d.name = std::move(*name);
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after host name '{}', found {}", d.name.name, found()));
    return false;
  }
  parse_block("host body", [&] { return parse_pe(d); });
  arch.hosts.push_back(std::move(d));
  return true;
}

bool Parser::parse_pe(ast::HostDecl& host) {
  ast::PeDecl d;
  d.loc = tok_.loc;
  if (at_word("cpu")) {
    d.kind = take_ident();
    d.name = d.kind;
    if (at(Tok::identifier)) d.name = take_ident();
    if (at(Tok::integer)) {
      d.count = tok_.int_value;
      d.count_loc = tok_.loc;
      advance();
    }
    std::string what = d.count ? "cpu count" : d.name.name == "cpu" ? "'cpu'" : "cpu name";
    host.pes.push_back(std::move(d));
    return expect_semi(what);
  }
  if (!at_word("gpu")) {
    error_here(fmt::format("expected 'cpu' or 'gpu' in host body, found {}", found()));
    return false;
  }
  d.kind = take_ident();
  auto name = expect_ident("a GPU name after 'gpu'");
  if (!name || !expect(Tok::equal, fmt::format("after GPU name '{}'", name->name))) return false;
  d.name = std::move(*name);
  d.ordinal = parse_expr();
  if (!d.ordinal) return false;
  if (at(Tok::l_paren) && !parse_memory(d)) return false;
  host.pes.push_back(std::move(d));
  return expect_semi("GPU declaration");
}

// memory := '(' 'memory' NUMBER UNIT ')', UNIT one of B, KB, MB, GB, TB, KiB, MiB, GiB, TiB
bool Parser::parse_memory(ast::PeDecl& gpu) {
  SourceLoc open = tok_.loc;
  advance();
  if (!at_word("memory")) {
    error_here(fmt::format("expected 'memory' after '(' in GPU declaration, found {}", found()));
    return false;
  }
  advance();
  if (!at(Tok::integer) && !at(Tok::real)) {
    error_here(fmt::format("expected a memory size (e.g. 24 GiB), found {}", found()));
    return false;
  }
  double value = at(Tok::integer) ? static_cast<double>(tok_.int_value) : tok_.real_value;
  gpu.memory_loc = tok_.loc;
  std::uint32_t number_length = tok_.length;
  advance();
  const Unit* factor = at(Tok::identifier) ? find_unit(tok_.text, kMemoryUnits) : nullptr;
  if (!factor) {
    error_here(fmt::format(
        "expected a memory unit (B, KB, MB, GB, TB, KiB, MiB, GiB or TiB), found {}", found()));
    return false;
  }
  advance();
  gpu.memory = value * factor->multiplier / factor->divisor;
  if (!(*gpu.memory >= 1) || !std::isfinite(*gpu.memory)) {
    error(gpu.memory_loc, "GPU memory must be at least one byte and finite", number_length);
    return false;
  }
  // Byte counts are 64-bit signed integers: 2^63 bytes (8 EiB) and more would wrap.
  if (*gpu.memory >= 0x1p63) {
    error(gpu.memory_loc, "GPU memory must be less than 2^63 bytes (8 EiB)", number_length);
    return false;
  }
  return expect_closing(Tok::r_paren, open, "after memory size");
}

// link := 'link' peref ('<->' | '->') peref IDENT '(' bandwidth [',' latency] ')' ';'
bool Parser::parse_link(ast::ArchDecl& arch) {
  ast::LinkDecl d;
  d.loc = tok_.loc;
  advance();
  auto a = parse_peref("after 'link'");
  if (!a) return false;
  if (!at(Tok::bidir_arrow) && !at(Tok::arrow)) {
    error_here(fmt::format("expected '<->' or '->' after '{}.{}', found {}", a->host.name,
                           a->pe.name, found()));
    return false;
  }
  d.bidirectional = at(Tok::bidir_arrow);
  std::string arrow(tok_.text);
  advance();
  auto b = parse_peref(fmt::format("after '{}'", arrow));
  if (!b) return false;
  auto kind = expect_ident(fmt::format("a link kind (pcie, nvlink, net or gpudirect) after '{}.{}'",
                                       b->host.name, b->pe.name));
  if (!kind) return false;
  SourceLoc open = tok_.loc;
  if (!expect(Tok::l_paren, fmt::format("after link kind '{}'", kind->name)) || !parse_bandwidth(d))
    return false;
  if (at(Tok::comma)) {
    advance();
    if (!parse_latency(d) || !expect_closing(Tok::r_paren, open, "after latency")) return false;
  } else if (!at(Tok::r_paren)) {
    error_here(fmt::format("expected ',' or ')' after bandwidth, found {}", found()),
               {{open, "to match this '('"}});
    return false;
  } else {
    advance();
  }
  d.a = std::move(*a);
  d.b = std::move(*b);
  d.kind = std::move(*kind);
  arch.links.push_back(std::move(d));
  return expect_semi("link declaration");
}

// bandwidth := NUMBER UNIT, UNIT := IDENT '/' 's' (B/s, GB/s, GiB/s, Gb/s, ...)
bool Parser::parse_bandwidth(ast::LinkDecl& link) {
  if (!at(Tok::integer) && !at(Tok::real)) {
    error_here(fmt::format("expected a bandwidth (e.g. 25 GB/s), found {}", found()));
    return false;
  }
  double value = at(Tok::integer) ? static_cast<double>(tok_.int_value) : tok_.real_value;
  link.bandwidth_loc = tok_.loc;
  std::uint32_t number_length = tok_.length;
  advance();
  if (!at(Tok::identifier)) {
    error_here(
        fmt::format("expected a bandwidth unit (e.g. GB/s) after the number, found {}", found()));
    return false;
  }
  Token prefix = tok_;
  advance();
  if (!at(Tok::slash) || !peek_next().is_word("s")) {
    error_here(
        fmt::format("expected '/s' after '{}' in bandwidth, found {}", prefix.text, found()));
    return false;
  }
  advance();
  std::uint32_t unit_length = tok_.loc.offset + tok_.length - prefix.loc.offset;
  advance();
  std::string unit = fmt::format("{}/s", prefix.text);
  const Unit* factor = find_unit(unit, kBandwidthUnits);
  if (!factor) {
    error(prefix.loc,
          fmt::format("unknown bandwidth unit '{}'; expected B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, "
                      "MiB/s, GiB/s, Kb/s, Mb/s or Gb/s",
                      unit),
          unit_length);
    return false;
  }
  link.bandwidth = value * factor->multiplier / factor->divisor;
  if (link.bandwidth <= 0) {
    error(link.bandwidth_loc, "link bandwidth must be greater than zero", number_length);
    return false;
  }
  if (!std::isfinite(link.bandwidth)) {
    error(link.bandwidth_loc, "link bandwidth is too large", number_length);
    return false;
  }
  return true;
}

// latency := NUMBER ('ns' | 'us' | 'ms' | 's')
bool Parser::parse_latency(ast::LinkDecl& link) {
  if (!at(Tok::integer) && !at(Tok::real)) {
    error_here(fmt::format("expected a latency (e.g. 5 us) after ',', found {}", found()));
    return false;
  }
  double value = at(Tok::integer) ? static_cast<double>(tok_.int_value) : tok_.real_value;
  link.latency_loc = tok_.loc;
  advance();
  const Unit* factor = at(Tok::identifier) ? find_unit(tok_.text, kLatencyUnits) : nullptr;
  if (!factor) {
    error_here(fmt::format("expected a latency unit (ns, us, ms or s), found {}", found()));
    return false;
  }
  advance();
  link.latency = value * factor->multiplier / factor->divisor;
  return true;
}

// app := 'app' IDENT [ ':' IDENT ] [ 'on' IDENT ] '{' { node | placement | edge | batch } '}'
// (a graph: no 'on'; a mapping of a graph: ':' GRAPH 'on' ARCH)
bool Parser::parse_app() {
  ast::AppDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("an app name after 'app'");
  if (!name) return false;
  d.name = std::move(*name);
  if (at(Tok::colon)) {
    advance();
    auto graph = expect_ident(
        fmt::format("the name of the graph that app '{}' maps after ':'", d.name.name));
    if (!graph) return false;
    d.graph = std::move(*graph);
    if (!at_word("on")) {
      error_here(
          fmt::format("expected 'on' after 'app {} : {}' (a mapping of a graph names its "
                      "architecture), found {}",
                      d.name.name, d.graph->name, found()));
      return false;
    }
  }
  if (at_word("on")) {
    advance();
    auto arch = expect_ident("an architecture name after 'on'");
    if (!arch) return false;
    d.arch = std::move(*arch);
  }
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected {}'{{' after 'app {}{}', found {}",
                           d.is_graph() ? "':', 'on' or " : "", d.name.name,
                           d.is_graph() ? "" : " on " + d.arch.name, found()));
    return false;
  }
  parse_block("app body", [&] { return parse_app_item(d); });
  module_->apps.push_back(std::move(d));
  return true;
}

bool Parser::parse_app_item(ast::AppDecl& app) {
  bool dotted = at(Tok::identifier) && peek_next().is(Tok::period);
  if (app.graph) {
    if (at(Tok::identifier) && peek_next().is(Tok::at)) return parse_placement_item(app);
    if (at_word("batch")) return parse_batch(app);
    error_here(
        fmt::format("expected a placement (node @ PE;) or 'batch' in app '{}', which maps "
                    "graph '{}' (its nodes and edges are the graph's), found {}",
                    app.name.name, app.graph->name, found()));
    return false;
  }
  if (at_word("node") && !dotted) return parse_node(app);
  if (at_word("batch") && !dotted) return parse_batch(app);
  if (dotted) return parse_edge(app);
  error_here(fmt::format(
      "expected 'node', 'batch' or an edge (node.port -> node.port) in app body, found {}",
      found()));
  return false;
}

// placement item (in a mapping of a graph) := IDENT '@' placement [ alternatives ]
//                                              ( '{' { IDENT '=' expr ';' } '}' [';'] | ';' )
bool Parser::parse_placement_item(ast::AppDecl& app) {
  ast::NodeDecl d;
  d.loc = tok_.loc;
  d.name = take_ident();
  advance();  // '@'
  if (!parse_placement(d)) return false;
  return parse_node_tail(app, std::move(d));
}

// batch := 'batch' expr ';'
bool Parser::parse_batch(ast::AppDecl& app) {
  if (app.batch) {
    error_here(fmt::format("app '{}' says 'batch' twice; one statement sets its iterations a cycle",
                           app.name.name));
    return false;
  }
  app.batch_loc = tok_.loc;
  advance();
  app.batch = parse_expr();
  if (!app.batch) return false;
  return expect_semi("batch");
}

// node := 'node' IDENT ':' IDENT '@' placement [ 'migrates' peref { ',' peref } ]
//         ( '{' { IDENT '=' expr ';' } '}' [';'] | ';' )
// In a graph: node := 'node' IDENT ':' IDENT ( '{' ... '}' [';'] | ';' )
bool Parser::parse_node(ast::AppDecl& app) {
  ast::NodeDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a node name after 'node'");
  if (!name || !expect(Tok::colon, fmt::format("after node name '{}'", name->name))) return false;
  auto actor = expect_ident("an actor name after ':'");
  if (!actor) return false;
  d.name = std::move(*name);
  d.actor = std::move(*actor);
  if (app.is_graph()) {
    if (at(Tok::at)) {
      error_here(
          fmt::format("node '{}' of graph '{}' has no placement: the apps that map the "
                      "graph place it ('app NAME : {} on ARCH {{ {} @ PE; }}')",
                      d.name.name, app.name.name, app.name.name, d.name.name));
      return false;
    }
    return parse_node_tail(app, std::move(d));
  }
  if (!expect(Tok::at, fmt::format("after actor name '{}'", d.actor.name))) return false;
  if (!parse_placement(d)) return false;
  return parse_node_tail(app, std::move(d));
}

// What follows a node's placement: [ alternatives ] ( '{' { IDENT '=' expr ';' } '}' [';'] | ';' )
bool Parser::parse_node_tail(ast::AppDecl& app, ast::NodeDecl d) {
  if (at_word("migrates")) {
    if (app.is_graph()) {
      error_here(
          fmt::format("node '{}' of graph '{}' names no processing element: its "
                      "alternatives ('migrates') belong to the apps that map the graph",
                      d.name.name, app.name.name));
      return false;
    }
    if (!parse_alternatives(d)) return false;
  }
  if (!at(Tok::l_brace)) {
    const bool placement = d.actor.name.empty();
    app.nodes.push_back(std::move(d));
    return expect_semi(placement ? "placement" : "node declaration");
  }
  parse_block("node parameter list", [&] { return parse_assign(d); });
  if (at(Tok::semi)) advance();
  app.nodes.push_back(std::move(d));
  return true;
}

// placement := peref | ( 'any' ['cpu' | 'gpu'] | IDENT '.' '*' ) [ 'replicas' 'in' range ]
//            | replicas
bool Parser::parse_placement(ast::NodeDecl& node) {
  node.placement_loc = tok_.loc;
  if (at(Tok::l_brace)) {
    if (!parse_replicas(node)) return false;
  } else if (at_word("any") && !peek_next().is(Tok::period)) {
    advance();
    ast::FreePlacement free;
    if (at_word("cpu") || at_word("gpu")) {
      free.kind =
          at_word("cpu") ? ast::FreePlacement::Kind::any_cpu : ast::FreePlacement::Kind::any_gpu;
      advance();
    }
    node.free = std::move(free);
  } else if (at(Tok::identifier)) {
    ast::Ident host = take_ident();
    if (!expect(Tok::period, fmt::format("after host name '{}'", host.name))) return false;
    if (at(Tok::star)) {
      advance();
      node.free = ast::FreePlacement{ast::FreePlacement::Kind::host, std::move(host)};
    } else {
      auto pe =
          expect_ident(fmt::format("a processing element name or '*' after '{}.'", host.name));
      if (!pe) return false;
      SourceLoc loc = host.loc;
      node.pe = ast::PeRef{std::move(host), std::move(*pe), loc};
    }
  } else {
    error_here(fmt::format(
        "expected a processing element (host.pe), 'any' or 'host.*' after '@', found {}", found()));
    return false;
  }
  if (!node.free && at_word("replicas")) {
    error_here(
        fmt::format("node '{}' is placed; a replica range ('replicas in [MIN, MAX]') "
                    "follows a free placement ('@ any cpu replicas in [1, 4]') for dfgc map "
                    "to choose; a set of PEs is written '@ {{A.c1, A.c2}}'",
                    node.name.name));
    return false;
  }
  if (node.free && at_word("replicas")) {
    ast::ReplicaRange range;
    range.loc = tok_.loc;
    advance();
    if (!at_word("in")) {
      error_here(
          fmt::format("expected 'in [MIN, MAX]' after 'replicas' (how many processing "
                      "elements dfgc map may deal node '{}' over), found {}",
                      node.name.name, found()));
      return false;
    }
    advance();
    if (!parse_range(range.min, range.max, "after 'replicas in'")) return false;
    node.replica_range = std::move(range);
  }
  node.placement_length = prev_end_.offset - node.placement_loc.offset;
  return true;
}

// replicas := '{' peref [ ':' expr ] { ',' peref [ ':' expr ] } '}'
bool Parser::parse_replicas(ast::NodeDecl& node) {
  advance();
  do {
    if (!node.replicas.empty()) advance();
    auto pe = parse_peref(node.replicas.empty() ? "after '{'" : "after ','");
    if (!pe) return false;
    ast::ReplicaRef replica{std::move(*pe)};
    if (at(Tok::colon)) {
      advance();
      replica.weight = parse_expr();
      if (!replica.weight) return false;
    }
    node.replicas.push_back(std::move(replica));
  } while (at(Tok::comma));
  if (!expect(Tok::r_brace, "after the processing elements of a replica set")) return false;
  const ast::PeRef& first = node.replicas.front().pe;
  node.pe = ast::PeRef{first.host, first.pe, first.loc};
  return true;
}

// alternatives := 'migrates' peref { ',' peref }
bool Parser::parse_alternatives(ast::NodeDecl& node) {
  advance();
  do {
    if (!node.alternatives.empty()) advance();
    auto pe = parse_peref(node.alternatives.empty() ? "after 'migrates'" : "after ','");
    if (!pe) return false;
    node.alternatives.push_back(std::move(*pe));
  } while (at(Tok::comma));
  return true;
}

bool Parser::parse_assign(ast::NodeDecl& node) {
  auto name = expect_ident("a parameter name in node parameter list");
  if (!name || !expect(Tok::equal, fmt::format("after parameter name '{}'", name->name)))
    return false;
  ast::ParamAssign a{std::move(*name), parse_expr()};
  if (!a.value) return false;
  node.params.push_back(std::move(a));
  return expect_semi("parameter value");
}

// edge := portref '->' portref [ 'delay' expr [ 'tokens' | 'token' ]
//                                [ '=' ( expr | IDENT '(' ')' ) ] ] ';'
bool Parser::parse_edge(ast::AppDecl& app) {
  ast::EdgeDecl d;
  auto src = parse_portref("before '->'");
  if (!src) return false;
  if (!at(Tok::arrow)) {
    error_here(fmt::format("expected '->' after '{}.{}', found {}", src->node.name, src->port.name,
                           found()));
    return false;
  }
  d.loc = tok_.loc;
  advance();
  auto dst = parse_portref("after '->'");
  if (!dst) return false;
  d.src = std::move(*src);
  d.dst = std::move(*dst);
  if (at_word("delay")) {
    d.delay_loc = tok_.loc;
    advance();
    d.delay = parse_expr();
    if (!d.delay) return false;
    if (at_word("tokens") || at_word("token")) {
      d.delay_in_tokens = true;
      advance();
    }
    if (at(Tok::equal)) {
      advance();
      // `= fill()`: a name other than the functions of expressions (min, max) called names the
      // consumer's member function that fills the initial tokens.
      if (at(Tok::identifier) && !at_word("min") && !at_word("max") &&
          peek_next().is(Tok::l_paren)) {
        d.initial_method = take_ident();
        advance();
        if (!expect(Tok::r_paren,
                    fmt::format("after '{}(': the member function that fills the initial "
                                "tokens takes no argument in the spec",
                                d.initial_method->name)))
          return false;
      } else {
        d.initial = parse_expr();
        if (!d.initial) return false;
      }
    }
  }
  app.edges.push_back(std::move(d));
  return expect_semi("edge");
}

// peref := IDENT '.' IDENT
std::optional<ast::PeRef> Parser::parse_peref(std::string_view context) {
  auto host = expect_ident(fmt::format("a processing element (host.pe) {}", context));
  if (!host || !expect(Tok::period, fmt::format("after host name '{}'", host->name)))
    return std::nullopt;
  auto pe = expect_ident(fmt::format("a processing element name after '{}.'", host->name));
  if (!pe) return std::nullopt;
  SourceLoc loc = host->loc;
  return ast::PeRef{std::move(*host), std::move(*pe), loc};
}

// portref := IDENT '.' IDENT
std::optional<ast::PortRef> Parser::parse_portref(std::string_view context) {
  auto node = expect_ident(fmt::format("a port reference (node.port) {}", context));
  if (!node || !expect(Tok::period, fmt::format("after node name '{}'", node->name)))
    return std::nullopt;
  auto port = expect_ident(fmt::format("a port name after '{}.'", node->name));
  if (!port) return std::nullopt;
  SourceLoc loc = node->loc;
  return ast::PortRef{std::move(*node), std::move(*port), loc};
}

// ---------------------------------------------------------------------------------------------
// Expressions: primary, then unary '-' '+', then '*' '/' '%', then '+' '-' (left-associative).

ast::ExprPtr make_expr(ast::Expr::Kind kind, SourceLoc loc) {
  auto e = std::make_unique<ast::Expr>();
  e->kind = kind;
  e->loc = loc;
  return e;
}

ast::ExprPtr Parser::parse_expr() { return parse_binary(0).expr; }

Operand Parser::too_deep(SourceLoc loc) {
  error(loc, fmt::format("expression is too deeply nested (more than {} levels)", kMaxNesting));
  return {};
}

Operand Parser::parse_binary(int level) {
  auto is_operator = [&] {
    if (level == 0) return at(Tok::plus) || at(Tok::minus);
    return at(Tok::star) || at(Tok::slash) || at(Tok::percent);
  };
  auto operand = [&] { return level == 0 ? parse_binary(1) : parse_unary(); };
  Operand lhs = operand();
  while (lhs.expr && is_operator()) {
    auto e = make_expr(ast::Expr::Kind::binary, tok_.loc);
    e->op = tok_.text[0];
    advance();
    Operand rhs = operand();
    if (!rhs.expr) return {};
    int height = std::max(lhs.height, rhs.height) + 1;
    if (height > kMaxNesting) return too_deep(e->loc);
    e->operands.push_back(std::move(lhs.expr));
    e->operands.push_back(std::move(rhs.expr));
    lhs = {std::move(e), height};
  }
  return lhs;
}

Operand Parser::parse_unary() {
  if (!at(Tok::minus) && !at(Tok::plus)) return parse_primary();
  NestingScope scope(nesting_);
  if (scope.too_deep()) return too_deep(tok_.loc);
  auto e = make_expr(ast::Expr::Kind::unary, tok_.loc);
  e->op = tok_.text[0];
  advance();
  Operand operand = parse_unary();
  if (!operand.expr) return {};
  if (operand.height + 1 > kMaxNesting) return too_deep(e->loc);
  e->operands.push_back(std::move(operand.expr));
  return {std::move(e), operand.height + 1};
}

Operand Parser::parse_primary() {
  switch (tok_.kind) {
    case Tok::integer: {
      auto e = make_expr(ast::Expr::Kind::integer, tok_.loc);
      e->int_value = tok_.int_value;
      advance();
      return {std::move(e), 1};
    }
    case Tok::real: {
      auto e = make_expr(ast::Expr::Kind::real, tok_.loc);
      e->real_value = tok_.real_value;
      advance();
      return {std::move(e), 1};
    }
    case Tok::identifier: {
      if (peek_next().is(Tok::l_paren)) return parse_call();
      auto e = make_expr(ast::Expr::Kind::name, tok_.loc);
      e->name = tok_.text;
      advance();
      return {std::move(e), 1};
    }
    case Tok::l_paren: {
      NestingScope scope(nesting_);
      if (scope.too_deep()) return too_deep(tok_.loc);
      SourceLoc open = tok_.loc;
      advance();
      Operand inner = parse_binary(0);
      if (!inner.expr || !expect_closing(Tok::r_paren, open, "after expression")) return {};
      return inner;
    }
    default: error_here(fmt::format("expected an expression, found {}", found())); return {};
  }
}

// call := IDENT '(' expr { ',' expr } ')' with IDENT min or max
Operand Parser::parse_call() {
  NestingScope scope(nesting_);
  if (scope.too_deep()) return too_deep(tok_.loc);
  auto e = make_expr(ast::Expr::Kind::call, tok_.loc);
  e->name = tok_.text;
  if (e->name != "min" && e->name != "max")
    error_here(fmt::format("unknown function '{}'; expected 'min' or 'max'", e->name));
  advance();
  SourceLoc open = tok_.loc;
  advance();
  int height = 0;
  for (;;) {
    Operand arg = parse_binary(0);
    if (!arg.expr) return {};
    height = std::max(height, arg.height);
    e->operands.push_back(std::move(arg.expr));
    if (at(Tok::r_paren)) break;
    if (!at(Tok::comma)) {
      error_here(fmt::format("expected ',' or ')' in call to '{}', found {}", e->name, found()),
                 {{open, "to match this '('"}});
      return {};
    }
    advance();
  }
  advance();
  if (height + 1 > kMaxNesting) return too_deep(e->loc);
  return {std::move(e), height + 1};
}

}  // namespace

std::unique_ptr<ast::Module> parse_module(std::uint32_t file, SourceManager& sources,
                                          DiagnosticEngine& diags) {
  return Parser(file, sources, diags).parse();
}

}  // namespace dfgc
