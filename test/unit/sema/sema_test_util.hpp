/// \file
/// Helpers for sema's tests: analyze spec text held in memory and print the diagnostics one a
/// line as "line:col: severity: message" (with "-endcol" when more than one column is
/// underlined), notes indented under their diagnostic.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ir/ir.hpp"
#include "sema/sema.hpp"
#include "spec/parser.hpp"

namespace dfgc::test {

struct Analysis {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::unique_ptr<Spec> spec = std::make_unique<Spec>();
  std::optional<ir::Program> program;

  /// The diagnostics sorted by location as the renderer sorts them, in the compact form above.
  std::string summary() const;
};

/// Parses `text` as the file "t.dfg" (the parse must succeed) without analysing it yet.
std::unique_ptr<Analysis> parse(const std::string& text);
/// Runs analyze() on what parse() produced.
void analyze(Analysis& a, SemaOptions options = {});
/// parse() then analyze().
std::unique_ptr<Analysis> analyze(const std::string& text, SemaOptions options = {});
/// The summary of analyzing `text`.
std::string diagnose(const std::string& text, SemaOptions options = {});
/// The IR dump of app `app` of `text`, which must analyze without error.
std::string dump_of(const std::string& text, const char* app);

}  // namespace dfgc::test
