/// \file
/// ast::dump, the text of `dfgc dump-ast`: one item a line, indented by nesting, in source order,
/// each ending with its line:col. Literals are printed evaluated (16_777_216 as 16777216, 25 GB/s
/// as bytes per second) and binary sub-expressions are parenthesised, so the dump shows how the
/// parser grouped them.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "spec/ast.hpp"

namespace dfgc::ast {

namespace {

std::string format_real(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".ein") == std::string::npos) text += ".0";
  return text;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string expr_text(const Expr& e);

/// An operand, parenthesised when it is itself a binary expression.
std::string operand_text(const Expr& e) {
  return e.kind == Expr::Kind::binary ? "(" + expr_text(e) + ")" : expr_text(e);
}

std::string expr_text(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::integer: return std::to_string(e.int_value);
    case Expr::Kind::real: return format_real(e.real_value);
    case Expr::Kind::name: return e.name;
    case Expr::Kind::unary: return e.op + operand_text(*e.operands[0]);
    case Expr::Kind::binary:
      return fmt::format("{} {} {}", operand_text(*e.operands[0]), e.op,
                         operand_text(*e.operands[1]));
    case Expr::Kind::call: {
      std::vector<std::string> args;
      for (const ExprPtr& a : e.operands) args.push_back(expr_text(*a));
      return fmt::format("{}({})", e.name, fmt::join(args, ", "));
    }
  }
  return "?";
}

/// One line of the dump and the items nested under it (printed in source order).
struct Item {
  SourceLoc loc;
  std::string text;
  std::vector<Item> children;
};

void render(std::string& out, std::vector<Item>& items, int indent, const SourceManager& sources) {
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.loc.offset < b.loc.offset; });
  for (Item& item : items) {
    LineCol lc = sources.line_col(item.loc);
    out += fmt::format("{:{}}{} @{}:{}\n", "", indent * 2, item.text, lc.line, lc.col);
    render(out, item.children, indent + 1, sources);
  }
}

std::string pe_text(const PeRef& p) { return p.host.name + "." + p.pe.name; }

Item actor_item(const ActorDecl& a) {
  Item item{a.loc, "actor " + a.name.name + (a.dynamic ? " dynamic" : ""), {}};
  for (const PortDecl& p : a.ports) {
    const char* dir = p.dir == PortDecl::Dir::in ? "in" : "out";
    std::string text = fmt::format("{} {} {}", dir, p.type.name, p.name.name);
    if (p.count) text += "[" + expr_text(*p.count) + "]";
    if (p.rate) text += " rate " + expr_text(*p.rate);
    if (p.peek) text += " peek " + expr_text(*p.peek);
    if (p.peek_value) text += " = " + expr_text(*p.peek_value);
    if (p.fifo) text += " fifo " + expr_text(*p.fifo);
    if (p.mappable) text += " mappable";
    item.children.push_back({p.loc, text, {}});
  }
  for (const ActorParamDecl& p : a.params) {
    std::string text = fmt::format("param {} {}", p.type.name, p.name.name);
    if (p.default_value) text += " = " + expr_text(*p.default_value);
    item.children.push_back({p.loc, text, {}});
  }
  for (const ImplDecl& i : a.impls) {
    std::string text = i.kind.name + " " + quote(i.header);
    if (i.class_name) text += " " + i.class_name->name;
    if (i.block) text += " block";
    if (i.parallel) {
      std::vector<std::string> counts;
      for (const ParallelCount& c : i.counts)
        counts.push_back(c.port.name + " " + expr_text(*c.count));
      text += fmt::format(" parallel ({})", fmt::join(counts, ", "));
    }
    item.children.push_back({i.loc, text, {}});
  }
  for (const Ident& library : a.uses)
    item.children.push_back({library.loc, "uses " + library.name, {}});
  if (a.ends) item.children.push_back({*a.ends, "ends stream", {}});
  return item;
}

Item arch_item(const ArchDecl& a) {
  Item item{a.loc, "arch " + a.name.name, {}};
  for (const HostDecl& h : a.hosts) {
    Item host{h.loc, "host " + h.name.name, {}};
    for (const PeDecl& pe : h.pes) {
      std::string text = pe.kind.name;
      if (!pe.ordinal && pe.name.name != pe.kind.name) text += " " + pe.name.name;
      if (pe.count) text += fmt::format(" {}", *pe.count);
      if (pe.ordinal) text += fmt::format(" {} = {}", pe.name.name, expr_text(*pe.ordinal));
      if (pe.memory) text += fmt::format(" memory {} B", *pe.memory);
      host.children.push_back({pe.loc, text, {}});
    }
    item.children.push_back(std::move(host));
  }
  for (const LinkDecl& l : a.links) {
    std::string text =
        fmt::format("link {} {} {} {} {} B/s", pe_text(l.a), l.bidirectional ? "<->" : "->",
                    pe_text(l.b), l.kind.name, l.bandwidth);
    if (l.latency) text += fmt::format(" {} s", *l.latency);
    item.children.push_back({l.loc, text, {}});
  }
  return item;
}

/// `f[i + 1]`
std::string indexed(const std::string& name, const std::vector<Index>& indices) {
  std::string text = name;
  for (const Index& i : indices) text += "[" + expr_text(*i) + "]";
  return text;
}

std::string port_text(const PortRef& p) {
  std::string node = indexed(p.node.name, p.indices);
  return p.port.name.empty() ? node : node + "." + indexed(p.port.name, p.port_indices);
}

std::string indexed_pe(const PeRef& p) {
  return pe_text(p) + (p.index ? "[" + expr_text(*p.index) + "]" : std::string());
}

/// The nodes, edges and loops of a body, each loop with its own.
void add_items(Item& item, const Items& items, bool graph, bool mapping) {
  for (const NodeDecl& n : items.nodes) {
    std::string name = indexed(n.name.name, n.indices);
    for (const IndexedName& part : n.path) name += "." + indexed(part.name.name, part.indices);
    std::string text =
        graph     ? fmt::format("node {} : {}", name, n.actor.name)
        : mapping ? fmt::format("place {} @ {}", name, placement_text(n))
                  : fmt::format("node {} : {} @ {}", name, n.actor.name, placement_text(n));
    for (std::size_t i = 0; i < n.alternatives.size(); ++i)
      text += (i == 0 ? " migrates " : ", ") + indexed_pe(n.alternatives[i]);
    Item node{n.loc, std::move(text), {}};
    for (const ParamAssign& p : n.params)
      node.children.push_back(
          {p.name.loc, fmt::format("{} = {}", p.name.name, expr_text(*p.value)), {}});
    item.children.push_back(std::move(node));
  }
  for (const EdgeDecl& e : items.edges) {
    std::string text = fmt::format("edge {} -> {}", port_text(e.src), port_text(e.dst));
    if (e.delay) text += " delay " + expr_text(*e.delay) + (e.delay_in_tokens ? " tokens" : "");
    if (e.initial) text += " = " + expr_text(*e.initial);
    if (e.initial_method) text += " = " + e.initial_method->name + "()";
    item.children.push_back({e.loc, text, {}});
  }
  for (const ForDecl& f : items.loops) {
    Item loop{
        f.loc,
        fmt::format("for {} in [{}, {}]", f.var.name, expr_text(*f.first), expr_text(*f.last)),
        {}};
    add_items(loop, f.body, graph, mapping);
    item.children.push_back(std::move(loop));
  }
}

Item app_item(const AppDecl& a) {
  std::string head = a.is_graph() ? fmt::format("app {} (graph)", a.name.name)
                     : a.graph
                         ? fmt::format("app {} : {} on {}", a.name.name, a.graph->name, a.arch.name)
                         : fmt::format("app {} on {}", a.name.name, a.arch.name);
  Item item{a.loc, std::move(head), {}};
  if (a.batch) item.children.push_back({a.batch_loc, "batch " + expr_text(*a.batch), {}});
  add_items(item, a, a.is_graph(), a.graph.has_value());
  return item;
}

Item composite_item(const CompositeDecl& c) {
  Item item{c.loc, "composite " + c.name.name, {}};
  for (const CompositeParam& p : c.params)
    item.children.push_back(
        {p.loc,
         "param " + p.name.name + (p.default_value ? " = " + expr_text(*p.default_value) : ""),
         {}});
  for (const BoundaryPort& p : c.ports)
    item.children.push_back(
        {p.loc, (p.dir == PortDecl::Dir::in ? "in " : "out ") + p.name.name, {}});
  add_items(item, c, true, false);
  return item;
}

}  // namespace

std::string placement_text(const NodeDecl& n) {
  if (!n.replicas.empty()) {
    std::string text = "{";
    for (const ReplicaRef& r : n.replicas)
      text += (text.size() > 1 ? ", " : "") + indexed_pe(r.pe) +
              (r.weight ? ": " + expr_text(*r.weight) : std::string());
    return text + "}";
  }
  if (!n.free) return indexed_pe(n.pe);
  std::string text = "?";
  switch (n.free->kind) {
    case FreePlacement::Kind::any: text = "any"; break;
    case FreePlacement::Kind::any_cpu: text = "any cpu"; break;
    case FreePlacement::Kind::any_gpu: text = "any gpu"; break;
    case FreePlacement::Kind::host: text = n.free->host.name + ".*"; break;
  }
  if (n.replica_range)
    text += fmt::format(" replicas in [{}, {}]", expr_text(*n.replica_range->min),
                        expr_text(*n.replica_range->max));
  return text;
}

std::string dump(const Module& module, const SourceManager& sources) {
  std::vector<Item> items;
  for (const ImportDecl& i : module.imports)
    items.push_back({i.loc, "import " + quote(i.path), {}});
  for (const ParamDecl& p : module.params) {
    std::string text = fmt::format("{}param {} = {}", p.runtime ? "runtime " : "", p.name.name,
                                   expr_text(*p.value));
    if (p.tune_min)
      text += fmt::format(" in [{}, {}]", expr_text(*p.tune_min), expr_text(*p.tune_max));
    items.push_back({p.loc, text, {}});
  }
  for (const StructDecl& s : module.structs) {
    std::string text = "struct " + s.name.name;
    if (s.cxx_name) text += " = " + quote(*s.cxx_name);
    std::vector<Item> fields;
    for (const FieldDecl& f : s.fields)
      fields.push_back({f.type.loc,
                        fmt::format("{} {}{}", f.type.name, f.name.name,
                                    f.count ? "[" + expr_text(*f.count) + "]" : ""),
                        {}});
    items.push_back({s.loc, text, std::move(fields)});
  }
  for (const TypeDecl& t : module.types)
    items.push_back({t.loc,
                     fmt::format("type {} = {}[{}{}]", t.name.name, t.elem.name,
                                 t.bounded ? "<= " : "", expr_text(*t.count)),
                     {}});
  for (const ActorDecl& a : module.actors) items.push_back(actor_item(a));
  for (const ArchDecl& a : module.archs) items.push_back(arch_item(a));
  for (const AppDecl& a : module.apps) items.push_back(app_item(a));
  for (const CompositeDecl& c : module.composites) items.push_back(composite_item(c));
  std::string out = fmt::format("module {}\n", sources.name(module.file));
  render(out, items, 0, sources);
  return out;
}

}  // namespace dfgc::ast
