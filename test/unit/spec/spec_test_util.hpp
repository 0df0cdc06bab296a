/// \file
/// Helpers for the spec tests: parse a string, look at its diagnostics.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spec/parser.hpp"

namespace dfgc::test {

/// One string parsed as the file "t.dfg".
struct Parsed {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::unique_ptr<ast::Module> module;

  explicit Parsed(std::string text) {
    std::uint32_t file = sm.add_buffer("t.dfg", std::move(text));
    module = parse_module(file, sm, diags);
  }
  /// The error messages in the order they were reported.
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diags.diagnostics())
      if (d.severity == Severity::error) out.push_back(d.message);
    return out;
  }
  /// "line:col" of the i-th diagnostic.
  std::string where(std::size_t i = 0) const {
    LineCol lc = sm.line_col(diags.diagnostics().at(i).loc);
    return std::to_string(lc.line) + ":" + std::to_string(lc.col);
  }
};

}  // namespace dfgc::test
