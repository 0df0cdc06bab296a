/// \file
/// The .dfg front end: a hand-written lexer and a recursive-descent parser, and the loader that
/// follows `import` declarations.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spec/ast.hpp"
#include "support/diagnostics.hpp"

namespace dfgc {

/// Parses one loaded file. Errors go to `diags`; the parser recovers at the next `;` or `}` so that
/// several errors are reported in one run. Returns the (possibly partial) module; callers check
/// diags.has_errors() before using it.
std::unique_ptr<ast::Module> parse_module(std::uint32_t file, SourceManager& sources,
                                          DiagnosticEngine& diags);

/// A spec: the root module and everything it imports, transitively, each file once, in
/// dependency order (a module comes after every module it imports; the root is last).
struct Spec {
  std::vector<std::unique_ptr<ast::Module>> modules;
  const ast::Module& root() const { return *modules.back(); }
};

/// Loads and parses `path` and its imports. Reports a missing or unreadable file (at the import
/// that names it, or on the command line for the root) and import cycles (with the chain as
/// notes). Returns nullptr only when the root itself cannot be read.
std::unique_ptr<Spec> load_spec(const std::string& path, SourceManager& sources,
                                DiagnosticEngine& diags);

}  // namespace dfgc
