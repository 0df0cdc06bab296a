/// \file
/// Composites and loops expanded: `composite Bank { param N = 4; in x; out y; for i in [0, N - 1]
/// { node f[i] : Fir; ... } ... }` instantiated by `node b : Bank { N = 8; }`, and `for` loops in
/// apps, graphs and mappings. The result is the flat app (or graph) the rest of sema checks as if
/// it had been written so:
/// - a node of a loop is named with its indices' values appended (`f[i]` is f3 for i = 3), a node
///   of an instance with the instance's name and '_' before it (b_f3 in instance b), and a PE of a
///   placement likewise (`A.c[i]` is A.c3);
/// - an edge to or from an instance's port goes to or from the node ports that the composite's body
///   connects to it (`x -> f[i].i;` fans an input out; `g.o -> y;` gives an output its producer);
/// - an instance's placement places every node within it, unless a mapping places one itself;
/// - a composite's params and loop variables are replaced by their values in every expression, at
///   the place each name was written, so that diagnostics still point at the line the user wrote.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sema/params.hpp"
#include "spec/ast.hpp"
#include "spec/parser.hpp"
#include "support/diagnostics.hpp"

namespace dfgc::sema {

/// An app or graph whose loops are unrolled and whose composite instances are expanded.
struct FlatApp {
  ast::AppDecl app;
  /// The expanded names of its instances, outermost first (b, then b_sub for an instance sub of
  /// b's composite): a mapping's placement of an instance places the nodes named after it.
  std::vector<std::string> instances;
};

/// `app` (a whole app or a graph) flattened. `refined`: a mapping's placements by expanded name;
/// those that name an instance refine its composite's params (`b @ A.c1 { N = 8; }`). nullopt
/// after reporting: a composite that contains itself, an unknown or unset composite param, two
/// nodes of one expanded name, a port of an instance that its composite lacks or leaves
/// unconnected, an edge between a composite's own ports, a delay on an edge to or from a
/// composite's port, an expansion beyond kMaxExpandedNodes, an index or range that is not a
/// compile-time integer.
std::optional<FlatApp> flatten(const Spec& spec, const ast::AppDecl& app, const ParamTable& params,
                               const std::map<std::string, const ast::NodeDecl*>& refined,
                               const SourceManager& sources, DiagnosticEngine& diags);

/// A mapping's placements with its loops unrolled and each path (`b.f[i]`) and PE index
/// resolved into expanded names (b_f3, A.c3). nullopt after reporting.
std::optional<std::vector<ast::NodeDecl>> flatten_placements(const ast::AppDecl& mapping,
                                                             const ParamTable& params,
                                                             const SourceManager& sources,
                                                             DiagnosticEngine& diags);

/// Reports two composites of one name and a composite named like an actor; returns whether none.
bool check_composite_names(const Spec& spec, DiagnosticEngine& diags);

/// The most nodes an app may expand to.
inline constexpr std::size_t kMaxExpandedNodes = 1 << 20;

}  // namespace dfgc::sema
