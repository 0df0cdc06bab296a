/// \file
/// Apps: graphs, whole apps and mappings; their nodes, placements and edges.
#include <string>
#include <utility>

#include <fmt/format.h>

#include "spec/parser_impl.hpp"

namespace dfgc::spec {

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
  const Body body{d.graph        ? Body::Kind::mapping
                  : d.is_graph() ? Body::Kind::graph
                                 : Body::Kind::app,
                  &d.name, d.graph ? d.graph->name : std::string(), &d, nullptr};
  parse_block("app body", [&] { return parse_item(d, body); });
  module_->apps.push_back(std::move(d));
  return true;
}

/// The body an item is parsed in: an app's (a whole app, a graph or a mapping), a composite's, or
/// a loop's within either (which takes what its enclosing body takes, but for `batch`, `param`,
/// `in` and `out`).
bool Parser::parse_item(ast::Items& items, const Body& body) {
  const bool top = body.app || body.composite;
  if (at_word("for") && peek_next().is(Tok::identifier)) return parse_for(items, body);
  if (body.kind == Body::Kind::mapping) {
    if (at(Tok::identifier) &&
        (peek_next().is(Tok::at) || peek_next().is(Tok::l_bracket) || peek_next().is(Tok::period)))
      return parse_placement_item(items, body);
    if (at_word("batch") && body.app) return parse_batch(*body.app);
    error_here(fmt::format(
        "expected a placement (node @ PE;){} in app '{}', which maps graph '{}' (its "
        "nodes and edges are the graph's), found {}",
        top ? ", 'for' or 'batch'" : " or 'for'", body.owner->name, body.graph, found()));
    return false;
  }
  // An edge starts with a node (`f.`, `f[i].`) or, in a composite, one of its ports (`x ->`).
  const bool edge =
      at(Tok::identifier) && (peek_next().is(Tok::period) || peek_next().is(Tok::l_bracket) ||
                              (body.kind == Body::Kind::composite && peek_next().is(Tok::arrow)));
  if (!edge) {
    if (at_word("node")) return parse_node(items, body);
    if (at_word("batch") && body.app) return parse_batch(*body.app);
    if (body.composite && at_word("param")) return parse_composite_param(*body.composite);
    if (body.composite && (at_word("in") || at_word("out"))) return parse_boundary(*body.composite);
  }
  if (edge) return parse_edge(items, body);
  if (body.kind == Body::Kind::composite)
    error_here(
        fmt::format("expected {}'node', 'for' or an edge (node.port -> node.port, or a "
                    "port of the composite: x -> node.port) in composite '{}', found {}",
                    top ? "'param', 'in', 'out', " : "", body.owner->name, found()));
  else
    error_here(
        fmt::format("expected 'node', {}'for' or an edge (node.port -> node.port) in app "
                    "body, found {}",
                    top ? "'batch', " : "", found()));
  return false;
}

// for := 'for' IDENT 'in' '[' expr ',' expr ']' '{' { item } '}'
bool Parser::parse_for(ast::Items& items, const Body& body) {
  ast::ForDecl d;
  d.loc = tok_.loc;
  advance();
  d.var = take_ident();
  if (!at_word("in")) {
    error_here(
        fmt::format("expected 'in [FIRST, LAST]' after 'for {}', found {}", d.var.name, found()));
    return false;
  }
  advance();
  if (!parse_range(d.first, d.last, fmt::format("after 'for {} in'", d.var.name))) return false;
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after 'for {} in [...]', found {}", d.var.name, found()));
    return false;
  }
  Body inner = body;
  inner.app = nullptr;
  inner.composite = nullptr;
  parse_block("loop body", [&] { return parse_item(d.body, inner); });
  items.loops.push_back(std::move(d));
  return true;
}

// indices := { '[' expr ']' }
bool Parser::parse_indices(std::vector<ast::Index>& indices) {
  while (at(Tok::l_bracket)) {
    SourceLoc open = tok_.loc;
    advance();
    ast::ExprPtr e = parse_expr();
    if (!e || !expect_closing(Tok::r_bracket, open, "after an index")) return false;
    indices.push_back(std::move(e));
  }
  return true;
}

// placement item (in a mapping of a graph) := path '@' placement [ alternatives ]
//                                              ( '{' { IDENT '=' expr ';' } '}' [';'] | ';' )
// path := IDENT indices { '.' IDENT indices }  (a node of a composite: bank.f[i])
bool Parser::parse_placement_item(ast::Items& items, const Body& body) {
  ast::NodeDecl d;
  d.loc = tok_.loc;
  d.name = take_ident();
  if (!parse_indices(d.indices)) return false;
  while (at(Tok::period)) {
    advance();
    auto part = expect_ident("a node name after '.' (a node of a composite: bank.f)");
    if (!part) return false;
    d.path.push_back({std::move(*part)});
    if (!parse_indices(d.path.back().indices)) return false;
  }
  if (at(Tok::arrow)) {  // an edge: the graph's
    error_here(
        fmt::format("expected a placement (node @ PE;) in app '{}', which maps graph '{}' "
                    "(its nodes and edges are the graph's), found {}",
                    body.owner->name, body.graph, found()));
    return false;
  }
  if (!expect(Tok::at, "after the node a placement names")) return false;
  if (!parse_placement(d)) return false;
  return parse_node_tail(items, body, std::move(d));
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

// node := 'node' IDENT indices ':' IDENT '@' placement [ 'migrates' peref { ',' peref } ]
//         ( '{' { IDENT '=' expr ';' } '}' [';'] | ';' )
// In a graph or a composite: node := 'node' IDENT indices ':' IDENT ( '{' ... '}' [';'] | ';' )
bool Parser::parse_node(ast::Items& items, const Body& body) {
  ast::NodeDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a node name after 'node'");
  if (!name) return false;
  d.name = std::move(*name);
  if (!parse_indices(d.indices) ||
      !expect(Tok::colon, fmt::format("after node name '{}'", d.name.name)))
    return false;
  auto actor = expect_ident("an actor or composite name after ':'");
  if (!actor) return false;
  d.actor = std::move(*actor);
  if (body.kind == Body::Kind::graph || body.kind == Body::Kind::composite) {
    if (at(Tok::at)) {
      if (body.kind == Body::Kind::graph)
        error_here(
            fmt::format("node '{}' of graph '{}' has no placement: the apps that map the "
                        "graph place it ('app NAME : {} on ARCH {{ {} @ PE; }}')",
                        d.name.name, body.owner->name, body.owner->name, d.name.name));
      else
        error_here(fmt::format(
            "node '{}' of composite '{}' has no placement: an app places the composite's nodes "
            "through the instance ('node b : {} @ A.c1;', all on one PE) or one by one in a "
            "mapping ('b.{} @ A.c1;')",
            d.name.name, body.owner->name, body.owner->name, d.name.name));
      return false;
    }
    return parse_node_tail(items, body, std::move(d));
  }
  if (!expect(Tok::at, fmt::format("after actor name '{}'", d.actor.name))) return false;
  if (!parse_placement(d)) return false;
  return parse_node_tail(items, body, std::move(d));
}

// What follows a node's placement: [ alternatives ] ( '{' { IDENT '=' expr ';' } '}' [';'] | ';' )
bool Parser::parse_node_tail(ast::Items& items, const Body& body, ast::NodeDecl d) {
  if (at_word("migrates")) {
    if (body.kind == Body::Kind::graph || body.kind == Body::Kind::composite) {
      error_here(fmt::format(
          "node '{}' of {} '{}' names no processing element: its alternatives ('migrates') "
          "belong to the apps that {}",
          d.name.name, body.kind == Body::Kind::graph ? "graph" : "composite", body.owner->name,
          body.kind == Body::Kind::graph ? "map the graph" : "place its instances"));
      return false;
    }
    if (!parse_alternatives(d)) return false;
  }
  if (!at(Tok::l_brace)) {
    const bool placement = d.actor.name.empty();
    items.nodes.push_back(std::move(d));
    return expect_semi(placement ? "placement" : "node declaration");
  }
  parse_block("node parameter list", [&] { return parse_assign(d); });
  if (at(Tok::semi)) advance();
  items.nodes.push_back(std::move(d));
  return true;
}

// placement := peref [ '[' expr ']' ] | ( 'any' ['cpu' | 'gpu'] | IDENT '.' '*' ) [ 'replicas' 'in'
// range ]
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
      if (!parse_pe_index(node.pe)) return false;
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
    auto pe = parse_peref(node.replicas.empty() ? "after '{'" : "after ','", true);
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
    auto pe = parse_peref(node.alternatives.empty() ? "after 'migrates'" : "after ','", true);
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
bool Parser::parse_edge(ast::Items& items, const Body& body) {
  ast::EdgeDecl d;
  auto src = parse_portref("before '->'", body);
  if (!src) return false;
  if (!at(Tok::arrow)) {
    error_here(fmt::format("expected '->' after '{}{}{}', found {}", src->node.name,
                           src->port.name.empty() ? "" : ".", src->port.name, found()));
    return false;
  }
  d.loc = tok_.loc;
  advance();
  auto dst = parse_portref("after '->'", body);
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
  items.edges.push_back(std::move(d));
  return expect_semi("edge");
}

// peref := IDENT '.' IDENT [ '[' expr ']' ]  (the index where `indexed`: a node's placement)
std::optional<ast::PeRef> Parser::parse_peref(std::string_view context, bool indexed) {
  auto host = expect_ident(fmt::format("a processing element (host.pe) {}", context));
  if (!host || !expect(Tok::period, fmt::format("after host name '{}'", host->name)))
    return std::nullopt;
  auto pe = expect_ident(fmt::format("a processing element name after '{}.'", host->name));
  if (!pe) return std::nullopt;
  SourceLoc loc = host->loc;
  ast::PeRef ref{std::move(*host), std::move(*pe), loc};
  if (indexed && !parse_pe_index(ref)) return std::nullopt;
  return ref;
}

// '[' expr ']' after a PE's name: `A.c[i]` is the PE c<i>.
bool Parser::parse_pe_index(ast::PeRef& ref) {
  if (!at(Tok::l_bracket)) return true;
  std::vector<ast::Index> indices;
  if (!parse_indices(indices)) return false;
  if (indices.size() > 1) {
    error(indices[1]->loc,
          fmt::format("processing element '{}.{}' takes one index ('{}.{}[i]' is {}<i>)",
                      ref.host.name, ref.pe.name, ref.host.name, ref.pe.name, ref.pe.name));
    return false;
  }
  ref.index = std::move(indices.front());
  return true;
}

// portref := IDENT indices '.' IDENT indices, or in a composite a port of its own: IDENT
std::optional<ast::PortRef> Parser::parse_portref(std::string_view context, const Body& body) {
  auto node = expect_ident(fmt::format("a port reference (node.port) {}", context));
  if (!node) return std::nullopt;
  SourceLoc loc = node->loc;
  std::vector<ast::Index> indices;
  if (!parse_indices(indices)) return std::nullopt;
  if (body.kind == Body::Kind::composite && indices.empty() && !at(Tok::period))
    return ast::PortRef{std::move(*node), {}, loc};
  if (!expect(Tok::period, fmt::format("after node name '{}'", node->name))) return std::nullopt;
  auto port = expect_ident(fmt::format("a port name after '{}.'", node->name));
  if (!port) return std::nullopt;
  ast::PortRef ref{std::move(*node), std::move(*port), loc, std::move(indices)};
  if (!parse_indices(ref.port_indices)) return std::nullopt;
  return ref;
}

// composite := 'composite' IDENT '{' { cparam | boundary | node | edge | for } '}'
bool Parser::parse_composite() {
  ast::CompositeDecl d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a composite name after 'composite'");
  if (!name) return false;
  d.name = std::move(*name);
  if (!at(Tok::l_brace)) {
    error_here(fmt::format("expected '{{' after 'composite {}', found {}", d.name.name, found()));
    return false;
  }
  const Body body{Body::Kind::composite, &d.name, {}, nullptr, &d};
  parse_block("composite body", [&] { return parse_item(d, body); }, true);
  module_->composites.push_back(std::move(d));
  return true;
}

// cparam := 'param' IDENT [ '=' expr ] ';'
bool Parser::parse_composite_param(ast::CompositeDecl& composite) {
  ast::CompositeParam d;
  d.loc = tok_.loc;
  advance();
  auto name = expect_ident("a param name after 'param'");
  if (!name) return false;
  d.name = std::move(*name);
  if (at(Tok::equal)) {
    advance();
    d.default_value = parse_expr();
    if (!d.default_value) return false;
  }
  composite.params.push_back(std::move(d));
  return expect_semi("composite param");
}

// boundary := ( 'in' | 'out' ) IDENT ';'
bool Parser::parse_boundary(ast::CompositeDecl& composite) {
  ast::BoundaryPort d;
  d.loc = tok_.loc;
  d.dir = at_word("in") ? ast::PortDecl::Dir::in : ast::PortDecl::Dir::out;
  advance();
  auto name =
      expect_ident(fmt::format("a port name after '{}' (the composite's ports name no "
                               "type: they take their nodes' ports' types)",
                               d.dir == ast::PortDecl::Dir::in ? "in" : "out"));
  if (!name) return false;
  d.name = std::move(*name);
  composite.ports.push_back(std::move(d));
  return expect_semi("composite port");
}

}  // namespace dfgc::spec
