/// \file
/// Composites and loops expanded into a flat app (sema/composites.hpp).
#include "sema/composites.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "sema/expr.hpp"
#include "sema/source_span.hpp"
#include "sema/suggest.hpp"

namespace dfgc::sema {

namespace {

using ast::clone;

/// The values of a composite's params and of the loop variables around an item, innermost last.
class Scope {
 public:
  explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
  void set(std::string name, Number value) { values_.emplace_back(std::move(name), value); }
  const Number* find(const std::string& name) const {
    for (auto it = values_.rbegin(); it != values_.rend(); ++it)
      if (it->first == name) return &it->second;
    return parent_ ? parent_->find(name) : nullptr;
  }

 private:
  const Scope* parent_;
  std::vector<std::pair<std::string, Number>> values_;
};

/// `e` with each name the scope holds replaced by its value, written where the name was.
ast::ExprPtr bind(const ast::Expr* e, const Scope& scope) {
  return bind_names(e, [&](const std::string& name) { return scope.find(name); });
}

/// Items of one body in source order: its nodes and loops merged (a loop's nodes come where the
/// loop was written), or its edges and loops.
template <typename T>
std::vector<std::variant<const T*, const ast::ForDecl*>> in_order(const std::vector<T>& items,
                                                                  const ast::Items& body) {
  std::vector<std::variant<const T*, const ast::ForDecl*>> out;
  auto offset = [](const auto* x) { return std::pair{x->loc.file, x->loc.offset}; };
  std::size_t i = 0, j = 0;
  while (i < items.size() || j < body.loops.size()) {
    if (j == body.loops.size() || (i < items.size() && offset(&items[i]) < offset(&body.loops[j])))
      out.emplace_back(&items[i++]);
    else
      out.emplace_back(&body.loops[j++]);
  }
  return out;
}

/// Whether the node (or placement item) names where it runs.
bool placed(const ast::NodeDecl& n) { return n.free || !n.pe.host.name.empty(); }

/// One instance of a composite being expanded (or the app itself, at the top).
struct Instance {
  std::string prefix;                        ///< "b_" for instance b; "" for the app
  const ast::CompositeDecl* decl = nullptr;  ///< null for the app
  const ast::NodeDecl* placement = nullptr;  ///< its nodes' placement (flat), if placed
  std::map<std::string, std::vector<ast::PortRef>> inputs;  ///< boundary in -> node inputs
  std::map<std::string, ast::PortRef> outputs;              ///< boundary out -> node output
  /// The nodes of its body by local name (f3): the flat name of a node of an actor, or the
  /// instance of a node of a composite.
  std::map<std::string, std::string> nodes;
  std::map<std::string, std::unique_ptr<Instance>> children;
  bool failed = false;  ///< its expansion reported errors: edges to and from it say nothing more
};

class Flattener {
 public:
  Flattener(const Spec& spec, const ParamTable& params,
            const std::map<std::string, const ast::NodeDecl*>& refined,
            const SourceManager& sources, DiagnosticEngine& diags)
      : params_(params), refined_(refined), sources_(sources), diags_(diags) {
    for (const auto& module : spec.modules)
      for (const ast::CompositeDecl& c : module->composites) composites_.emplace(c.name.name, &c);
  }

  std::optional<FlatApp> app(const ast::AppDecl& app);
  std::optional<std::vector<ast::NodeDecl>> placements(const ast::AppDecl& mapping);

 private:
  // Values.
  std::optional<Number> value(const ast::Expr& e, const Scope& scope, ExprMode mode);
  std::optional<std::int64_t> integer(const ast::Expr& e, const Scope& scope);
  std::optional<std::string> name(const ast::Ident& id, const std::vector<ast::Index>& indices,
                                  const Scope& scope);
  std::optional<ast::PeRef> pe(const ast::PeRef& ref, const Scope& scope);
  bool loop(const ast::ForDecl& f, const Scope& scope, const auto& each);
  bool place(const ast::NodeDecl& from, const Scope& scope, ast::NodeDecl& to);

  // Nodes, then edges, of a body.
  bool nodes(const ast::Items& items, const Scope& scope, Instance& inst);
  bool node(const ast::NodeDecl& n, const Scope& scope, Instance& inst);
  bool instance(const ast::NodeDecl& n, const ast::CompositeDecl& c, const std::string& local,
                const Scope& scope, Instance& inst);
  bool expand(const ast::NodeDecl& n, const ast::CompositeDecl& c, const Scope& scope,
              const Instance& parent, Instance& child);
  bool params_of(const ast::NodeDecl& n, const ast::CompositeDecl& c, const std::string& flat,
                 const Scope& outer, Scope& scope);
  bool edges(const ast::Items& items, const Scope& scope, Instance& inst);
  bool edge(const ast::EdgeDecl& e, const Scope& scope, Instance& inst);
  bool boundary_complete(const Instance& child, const ast::NodeDecl& n);
  /// The node outputs an edge's source names (one), or its inputs its destination names.
  std::optional<std::vector<ast::PortRef>> endpoint(const ast::PortRef& ref, const Scope& scope,
                                                    Instance& inst, bool source);
  bool placement_items(const ast::Items& items, const Scope& scope,
                       std::vector<ast::NodeDecl>& out);

  const ParamTable& params_;
  const std::map<std::string, const ast::NodeDecl*>& refined_;
  const SourceManager& sources_;
  DiagnosticEngine& diags_;
  std::map<std::string, const ast::CompositeDecl*> composites_;
  std::vector<const ast::CompositeDecl*> open_;  ///< the composites being expanded, outermost first
  /// Composites whose body's expansion reported errors: their later instances are not expanded,
  /// so that one mistake in a body is reported once.
  std::set<const ast::CompositeDecl*> failed_;
  std::set<const ast::ForDecl*> bad_loops_;  ///< loops whose range was reported
  /// Flat node and instance names: where each was declared, and whether an instance or a name
  /// the expansion made (other than the one written).
  std::map<std::string, std::pair<SourceLoc, bool>> declared_;
  std::vector<std::unique_ptr<ast::NodeDecl>> placements_;  ///< instances' resolved placements
  FlatApp out_;
};

std::optional<Number> Flattener::value(const ast::Expr& e, const Scope& scope, ExprMode mode) {
  ast::ExprPtr bound = bind(&e, scope);
  Evaluator ev(params_, sources_, diags_, mode);
  std::optional<Number> n = ev.eval(bound.get());
  if (!n || !ev.require_fixed(*n, "an index, a loop's range or a composite's param")) return {};
  return n;
}

std::optional<std::int64_t> Flattener::integer(const ast::Expr& e, const Scope& scope) {
  auto n = value(e, scope, ExprMode::integer);
  if (!n) return std::nullopt;
  return n->integer;
}

std::optional<std::string> Flattener::name(const ast::Ident& id,
                                           const std::vector<ast::Index>& indices,
                                           const Scope& scope) {
  std::string text = id.name;
  for (const ast::Index& index : indices) {
    auto v = integer(*index, scope);
    if (!v) return std::nullopt;
    if (*v < 0) {
      error_at(diags_, span_of(*index, sources_),
               fmt::format("index {} of '{}' is negative; a node or PE is named by its indices' "
                           "values appended to its name ({}{} would not be a name)",
                           *v, id.name, id.name, *v));
      return std::nullopt;
    }
    text += std::to_string(*v);
  }
  return text;
}

std::optional<ast::PeRef> Flattener::pe(const ast::PeRef& ref, const Scope& scope) {
  ast::PeRef out{ref.host, ref.pe, ref.loc};
  if (!ref.index) return out;
  auto text = name(ref.pe, {ref.index}, scope);
  if (!text) return std::nullopt;
  out.pe.name = *text;
  return out;
}

/// Calls `each(scope)` for every value of the loop's variable, in order.
bool Flattener::loop(const ast::ForDecl& f, const Scope& scope, const auto& each) {
  if (bad_loops_.count(&f)) return false;  // reported when its nodes were expanded
  auto first = integer(*f.first, scope);
  auto last = integer(*f.last, scope);
  if (!first || !last) {
    bad_loops_.insert(&f);
    return false;
  }
  if (*last >= *first &&
      static_cast<std::uint64_t>(*last) - static_cast<std::uint64_t>(*first) >= kMaxExpandedNodes) {
    error_at(diags_, span_of(f.var),
             fmt::format("loop 'for {} in [{}, {}]' runs more than {} times", f.var.name, *first,
                         *last, kMaxExpandedNodes));
    bad_loops_.insert(&f);
    return false;
  }
  bool ok = true;
  for (std::int64_t i = *first; i <= *last && ok; ++i) {
    Scope inner(&scope);
    Number n;
    n.integer = i;
    inner.set(f.var.name, n);
    ok = each(inner);
  }
  return ok;
}

/// `from`'s placement (PE, free placement, replicas, alternatives), its indices resolved, on `to`.
bool Flattener::place(const ast::NodeDecl& from, const Scope& scope, ast::NodeDecl& to) {
  to.free = from.free;
  to.placement_loc = from.placement_loc;
  to.placement_length = from.placement_length;
  if (from.replica_range)
    to.replica_range =
        ast::ReplicaRange{bind(from.replica_range->min.get(), scope),
                          bind(from.replica_range->max.get(), scope), from.replica_range->loc};
  if (!from.free) {
    auto p = pe(from.pe, scope);
    if (!p) return false;
    to.pe = std::move(*p);
  }
  to.replicas.clear();
  for (const ast::ReplicaRef& r : from.replicas) {
    auto p = pe(r.pe, scope);
    if (!p) return false;
    to.replicas.push_back({std::move(*p), bind(r.weight.get(), scope)});
  }
  to.alternatives.clear();
  for (const ast::PeRef& a : from.alternatives) {
    auto p = pe(a, scope);
    if (!p) return false;
    to.alternatives.push_back(std::move(*p));
  }
  return true;
}

bool Flattener::nodes(const ast::Items& items, const Scope& scope, Instance& inst) {
  bool ok = true;
  for (const auto& item : in_order(items.nodes, items)) {
    if (const auto* n = std::get_if<const ast::NodeDecl*>(&item)) {
      ok = node(**n, scope, inst) && ok;
    } else {
      const ast::ForDecl& f = *std::get<const ast::ForDecl*>(item);
      ok = loop(f, scope, [&](const Scope& inner) { return nodes(f.body, inner, inst); }) && ok;
    }
    if (out_.app.nodes.size() > kMaxExpandedNodes) {
      error_at(diags_, span_of(inst.decl ? inst.decl->name : out_.app.name),
               fmt::format("the app expands to more than {} nodes", kMaxExpandedNodes));
      return false;
    }
  }
  return ok;
}

bool Flattener::node(const ast::NodeDecl& n, const Scope& scope, Instance& inst) {
  auto local = name(n.name, n.indices, scope);
  if (!local) return false;
  const std::string flat = inst.prefix + *local;
  auto composite = composites_.find(n.actor.name);
  // Two nodes of one name as written are left to the app's checks, which report them with the
  // other mistakes of the nodes; a name an instance or an expansion makes is reported here.
  const bool is_instance = composite != composites_.end();
  const bool made = is_instance || flat != n.name.name;
  auto [it, fresh] = declared_.try_emplace(flat, n.name.loc, made);
  if (!fresh && it->second.first == n.name.loc) {
    error_at(diags_, span_of(n.name),
             fmt::format("node '{}' is declared once for each value of the loop around it; give "
                         "its name the loop's variable as an index ('{}[i]')",
                         flat, n.name.name));
    return false;
  }
  if (!fresh && (made || it->second.second)) {
    auto b = error_at(diags_, span_of(n.name), fmt::format("duplicate node '{}'", flat));
    note_at(b, {it->second.first, 1}, "previous definition is here");
    return false;
  }
  if (is_instance) return instance(n, *composite->second, *local, scope, inst);
  ast::NodeDecl d;
  d.name = ast::Ident{flat, n.name.loc};
  d.actor = n.actor;
  d.loc = n.loc;
  const ast::NodeDecl* placement = placed(n) ? &n : inst.placement;
  if (placement && !place(*placement, placement == &n ? scope : Scope(), d)) return false;
  for (const ast::ParamAssign& p : n.params)
    d.params.push_back({p.name, bind(p.value.get(), scope)});
  inst.nodes[*local] = flat;
  out_.app.nodes.push_back(std::move(d));
  return true;
}

bool Flattener::instance(const ast::NodeDecl& n, const ast::CompositeDecl& c,
                         const std::string& local, const Scope& scope, Instance& inst) {
  auto child = std::make_unique<Instance>();
  child->prefix = inst.prefix + local + "_";
  child->decl = &c;
  Instance& i = *child;
  inst.children[local] = std::move(child);
  i.failed = !expand(n, c, scope, inst, i);
  return !i.failed;
}

bool Flattener::expand(const ast::NodeDecl& n, const ast::CompositeDecl& c, const Scope& scope,
                       const Instance& parent, Instance& child) {
  if (failed_.count(&c)) return false;
  if (std::find(open_.begin(), open_.end(), &c) != open_.end()) {
    std::string chain;
    for (const ast::CompositeDecl* o : open_) chain += o->name.name + " -> ";
    auto b = error_at(
        diags_, span_of(n.actor),
        fmt::format("composite '{}' contains itself: {}{}", c.name.name, chain, c.name.name));
    note_at(b, span_of(c.name), fmt::format("'{}' is declared here", c.name.name));
    failed_.insert(&c);
    return false;
  }
  // Its nodes' placement: its own (resolved here), else the enclosing instance's.
  child.placement = parent.placement;
  if (placed(n)) {
    auto own = std::make_unique<ast::NodeDecl>();
    if (!place(n, scope, *own)) return false;
    child.placement = own.get();
    placements_.push_back(std::move(own));
  }
  const std::string flat = child.prefix.substr(0, child.prefix.size() - 1);
  Scope values;
  if (!params_of(n, c, flat, scope, values)) return false;
  out_.instances.push_back(flat);
  open_.push_back(&c);
  const bool ok = nodes(c, values, child) && edges(c, values, child) && boundary_complete(child, n);
  open_.pop_back();
  if (!ok) failed_.insert(&c);  // a mistake in its body: reported once
  return ok;
}

bool Flattener::params_of(const ast::NodeDecl& n, const ast::CompositeDecl& c,
                          const std::string& flat, const Scope& outer, Scope& scope) {
  static const Scope kNone;
  // The node's assignments, then a mapping's refinements in place of those of the same name.
  std::vector<std::pair<const ast::ParamAssign*, const Scope*>> given;
  for (const ast::ParamAssign& p : n.params) given.emplace_back(&p, &outer);
  if (auto r = refined_.find(flat); r != refined_.end())
    for (const ast::ParamAssign& p : r->second->params) {
      std::erase_if(given, [&](const auto& g) { return g.first->name.name == p.name.name; });
      given.emplace_back(&p, &kNone);
    }
  std::vector<std::string> names;
  for (const ast::CompositeParam& p : c.params) names.push_back(p.name.name);
  bool ok = true;
  for (const auto& [assign, where] : given)
    if (std::find(names.begin(), names.end(), assign->name.name) == names.end()) {
      auto b = error_at(diags_, span_of(assign->name),
                        fmt::format("composite '{}' has no param '{}'{}", c.name.name,
                                    assign->name.name, did_you_mean(assign->name.name, names)));
      note_at(b, span_of(c.name), fmt::format("'{}' is declared here", c.name.name));
      ok = false;
    }
  if (!ok) return false;
  for (const ast::CompositeParam& p : c.params) {
    auto g = std::find_if(given.begin(), given.end(),
                          [&](const auto& x) { return x.first->name.name == p.name.name; });
    std::optional<Number> v;
    if (g != given.end()) {
      v = value(*g->first->value, *g->second, ExprMode::value);
    } else if (p.default_value) {
      v = value(*p.default_value, scope, ExprMode::value);
    } else {
      auto b = error_at(diags_, span_of(n.name),
                        fmt::format("node '{}' does not set param '{}' of composite '{}', which "
                                    "has no default (add '{{ {} = ...; }}')",
                                    flat, p.name.name, c.name.name, p.name.name));
      note_at(b, span_of(p.name), fmt::format("'{}' is declared here", p.name.name));
      return false;
    }
    if (!v) return false;
    scope.set(p.name.name, *v);
  }
  return true;
}

bool Flattener::edges(const ast::Items& items, const Scope& scope, Instance& inst) {
  bool ok = true;
  for (const auto& item : in_order(items.edges, items)) {
    if (const auto* e = std::get_if<const ast::EdgeDecl*>(&item)) {
      ok = edge(**e, scope, inst) && ok;
    } else {
      const ast::ForDecl& f = *std::get<const ast::ForDecl*>(item);
      ok = loop(f, scope, [&](const Scope& inner) { return edges(f.body, inner, inst); }) && ok;
    }
  }
  return ok;
}

bool Flattener::edge(const ast::EdgeDecl& e, const Scope& scope, Instance& inst) {
  // A port named alone is the composite's (the parser allows it in composites only).
  const bool from_boundary = inst.decl && e.src.port.name.empty();
  const bool to_boundary = inst.decl && e.dst.port.name.empty();
  if (from_boundary || to_boundary) {
    const ast::CompositeDecl& c = *inst.decl;
    auto port = [&](const ast::PortRef& ref, ast::PortDecl::Dir dir) -> bool {
      std::vector<std::string> names;
      for (const ast::BoundaryPort& p : c.ports) {
        if (p.name.name == ref.node.name && p.dir == dir) return true;
        if (p.dir == dir) names.push_back(p.name.name);
      }
      const bool in = dir == ast::PortDecl::Dir::in;
      error_at(diags_, span_of(ref.node),
               fmt::format("composite '{}' has no {} '{}'{} (an edge takes an input of the "
                           "composite to its nodes' inputs, 'x -> f.i;', and a node's output to an "
                           "output of the composite, 'g.o -> y;')",
                           c.name.name, in ? "input" : "output", ref.node.name,
                           did_you_mean(ref.node.name, names)));
      return false;
    };
    if (from_boundary && to_boundary) {
      error_at(diags_, {e.loc, 2},
               fmt::format("edge {} -> {} joins two ports of composite '{}'; an edge of a "
                           "composite has a node at one end at least",
                           e.src.node.name, e.dst.node.name, c.name.name));
      return false;
    }
    if (e.delay) {
      error_at(diags_, {e.delay_loc, 5},
               fmt::format("an edge to or from a port of composite '{}' carries no delay; put "
                           "it on the edge between the nodes, inside the composite or outside",
                           c.name.name));
      return false;
    }
    if (from_boundary) {
      if (!port(e.src, ast::PortDecl::Dir::in)) return false;
      auto dsts = endpoint(e.dst, scope, inst, false);
      if (!dsts) return false;
      auto& list = inst.inputs[e.src.node.name];
      list.insert(list.end(), dsts->begin(), dsts->end());
      return true;
    }
    if (!port(e.dst, ast::PortDecl::Dir::out)) return false;
    auto src = endpoint(e.src, scope, inst, true);
    if (!src) return false;
    auto [it, fresh] = inst.outputs.try_emplace(e.dst.node.name, src->front());
    if (!fresh) {
      auto b = error_at(diags_, span_of(e.dst.node),
                        fmt::format("output '{}' of composite '{}' has two producers",
                                    e.dst.node.name, c.name.name));
      note_at(b, span_of(it->second), "the first");
      return false;
    }
    return true;
  }
  auto src = endpoint(e.src, scope, inst, true);
  auto dsts = endpoint(e.dst, scope, inst, false);
  if (!src || !dsts) return false;
  for (const ast::PortRef& dst : *dsts) {
    ast::EdgeDecl d;
    d.src = src->front();
    d.dst = dst;
    d.loc = e.loc;
    d.delay = bind(e.delay.get(), scope);
    d.delay_loc = e.delay_loc;
    d.delay_in_tokens = e.delay_in_tokens;
    d.initial = bind(e.initial.get(), scope);
    d.initial_method = e.initial_method;
    out_.app.edges.push_back(std::move(d));
  }
  return true;
}

std::optional<std::vector<ast::PortRef>> Flattener::endpoint(const ast::PortRef& ref,
                                                             const Scope& scope, Instance& inst,
                                                             bool source) {
  auto local = name(ref.node, ref.indices, scope);
  auto port_name = name(ref.port, ref.port_indices, scope);
  if (!local || !port_name) return std::nullopt;
  const ast::Ident port{*port_name, ref.port.loc};
  if (auto child = inst.children.find(*local); child != inst.children.end()) {
    const Instance& c = *child->second;
    if (c.failed) return std::nullopt;
    if (source) {
      if (auto o = c.outputs.find(port.name); o != c.outputs.end())
        return std::vector<ast::PortRef>{o->second};
    } else if (auto i = c.inputs.find(port.name); i != c.inputs.end()) {
      return i->second;
    }
    std::vector<std::string> names;
    for (const ast::BoundaryPort& p : c.decl->ports)
      if ((p.dir == ast::PortDecl::Dir::out) == source) names.push_back(p.name.name);
    auto b = error_at(
        diags_, span_of(ref.port),
        fmt::format("node '{}' is an instance of composite '{}', which has no {} "
                    "'{}'{}",
                    c.prefix.substr(0, c.prefix.size() - 1), c.decl->name.name,
                    source ? "output" : "input", port.name, did_you_mean(port.name, names)));
    note_at(b, span_of(c.decl->name), fmt::format("'{}' is declared here", c.decl->name.name));
    return std::nullopt;
  }
  auto node = inst.nodes.find(*local);
  if (node == inst.nodes.end() && inst.decl) {
    std::vector<std::string> names;
    for (const auto& [n, flat] : inst.nodes) names.push_back(n);
    for (const auto& [n, c] : inst.children) names.push_back(n);
    error_at(diags_, span_of(ref.node),
             fmt::format("composite '{}' has no node '{}'{}", inst.decl->name.name, *local,
                         did_you_mean(*local, names)));
    return std::nullopt;
  }
  // A node of the app that is not declared is left to the app's checks, which report it.
  const std::string flat = node != inst.nodes.end() ? node->second : *local;
  return std::vector<ast::PortRef>{ast::PortRef{ast::Ident{flat, ref.node.loc}, port, ref.loc}};
}

bool Flattener::boundary_complete(const Instance& child, const ast::NodeDecl& n) {
  bool ok = true;
  for (const ast::BoundaryPort& p : child.decl->ports) {
    const bool in = p.dir == ast::PortDecl::Dir::in;
    if (in ? child.inputs.count(p.name.name) > 0 : child.outputs.count(p.name.name) > 0) continue;
    auto b = error_at(
        diags_, span_of(p.name),
        in ? fmt::format("input '{}' of composite '{}' feeds no node: connect it in the body "
                         "('{} -> node.port;')",
                         p.name.name, child.decl->name.name, p.name.name)
           : fmt::format("output '{}' of composite '{}' has no producer: connect it in the body "
                         "('node.port -> {};')",
                         p.name.name, child.decl->name.name, p.name.name));
    note_at(b, span_of(n.name), "in this instance");
    ok = false;
  }
  return ok;
}

std::optional<FlatApp> Flattener::app(const ast::AppDecl& app) {
  out_.app.name = app.name;
  out_.app.arch = app.arch;
  out_.app.graph = app.graph;
  out_.app.loc = app.loc;
  out_.app.batch = clone(app.batch);
  out_.app.batch_loc = app.batch_loc;
  Instance top;
  const Scope none;
  const bool ok = nodes(app, none, top);
  if (!edges(app, none, top) || !ok) return std::nullopt;
  return std::move(out_);
}

bool Flattener::placement_items(const ast::Items& items, const Scope& scope,
                                std::vector<ast::NodeDecl>& out) {
  bool ok = true;
  for (const auto& item : in_order(items.nodes, items)) {
    if (const auto* f = std::get_if<const ast::ForDecl*>(&item)) {
      ok = loop(**f, scope,
                [&](const Scope& inner) { return placement_items((*f)->body, inner, out); }) &&
           ok;
      continue;
    }
    const ast::NodeDecl& n = *std::get<const ast::NodeDecl*>(item);
    auto text = name(n.name, n.indices, scope);
    for (const ast::IndexedName& part : n.path) {
      if (!text) break;
      auto more = name(part.name, part.indices, scope);
      text = more ? std::optional(*text + "_" + *more) : std::nullopt;
    }
    ast::NodeDecl d;
    if (!text || !place(n, scope, d)) {
      ok = false;
      continue;
    }
    d.name = ast::Ident{*text, n.name.loc};
    d.loc = n.loc;
    for (const ast::ParamAssign& p : n.params)
      d.params.push_back({p.name, bind(p.value.get(), scope)});
    out.push_back(std::move(d));
  }
  return ok;
}

std::optional<std::vector<ast::NodeDecl>> Flattener::placements(const ast::AppDecl& mapping) {
  std::vector<ast::NodeDecl> out;
  if (!placement_items(mapping, Scope(), out)) return std::nullopt;
  return out;
}

}  // namespace

std::optional<FlatApp> flatten(const Spec& spec, const ast::AppDecl& app, const ParamTable& params,
                               const std::map<std::string, const ast::NodeDecl*>& refined,
                               const SourceManager& sources, DiagnosticEngine& diags) {
  return Flattener(spec, params, refined, sources, diags).app(app);
}

std::optional<std::vector<ast::NodeDecl>> flatten_placements(const ast::AppDecl& mapping,
                                                             const ParamTable& params,
                                                             const SourceManager& sources,
                                                             DiagnosticEngine& diags) {
  static const Spec kNoSpec;
  static const std::map<std::string, const ast::NodeDecl*> kNone;
  return Flattener(kNoSpec, params, kNone, sources, diags).placements(mapping);
}

bool check_composite_names(const Spec& spec, DiagnosticEngine& diags) {
  std::map<std::string, const ast::Ident*> actors, composites;
  for (const auto& module : spec.modules)
    for (const ast::ActorDecl& a : module->actors) actors.emplace(a.name.name, &a.name);
  bool ok = true;
  for (const auto& module : spec.modules)
    for (const ast::CompositeDecl& c : module->composites) {
      const ast::Ident* other = nullptr;
      std::string message;
      if (auto [it, fresh] = composites.emplace(c.name.name, &c.name); !fresh) {
        other = it->second;
        message = fmt::format("duplicate composite '{}'", c.name.name);
      } else if (auto a = actors.find(c.name.name); a != actors.end()) {
        other = a->second;
        message = fmt::format(
            "composite '{}' has the name of an actor: a node's ':' names one "
            "or the other",
            c.name.name);
      }
      if (!other) continue;
      auto b = error_at(diags, span_of(c.name), message);
      note_at(b, span_of(*other), "previous declaration is here");
      ok = false;
    }
  return ok;
}

}  // namespace dfgc::sema
