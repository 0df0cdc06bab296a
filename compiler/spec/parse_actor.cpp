/// \file
/// Actor declarations: ports, params, implementations, `uses`, `ends stream`.
#include <string>
#include <utility>

#include <fmt/format.h>

#include "spec/parser_impl.hpp"

namespace dfgc::spec {

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

// port := ('in'|'out') IDENT IDENT [ '[' expr ']' ] [ 'rate' expr ] [ 'peek' expr [ '=' expr ] ] [
// 'fifo' expr ]
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
  if (at(Tok::l_bracket)) {
    SourceLoc open = tok_.loc;
    advance();
    d.count = parse_expr();
    if (!d.count || !expect_closing(Tok::r_bracket, open, "after a port group's size"))
      return false;
  }
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

}  // namespace dfgc::spec
