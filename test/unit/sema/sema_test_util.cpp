/// \file
/// Implements the sema test helpers.
#include "sema_test_util.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <catch2/catch.hpp>

namespace dfgc::test {

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}

void print(std::string& out, const SourceManager& sources, const Diagnostic& d, bool is_note) {
  out += is_note ? "  " : "";
  if (d.loc.has_position()) {
    LineCol lc = sources.line_col(d.loc);
    out += fmt::format("{}:{}", lc.line, lc.col);
    if (d.length > 1) out += fmt::format("-{}", lc.col + d.length - 1);
    out += ": ";
  }
  out += fmt::format("{}: {}\n", severity_name(d.severity), d.message);
  for (const Diagnostic& n : d.notes) print(out, sources, n, true);
}

}  // namespace

std::string Analysis::summary() const {
  std::vector<const Diagnostic*> sorted;
  for (const Diagnostic& d : diags.diagnostics()) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    return std::pair(a->loc.file, a->loc.offset) < std::pair(b->loc.file, b->loc.offset);
  });
  std::string out;
  for (const Diagnostic* d : sorted) print(out, sources, *d, false);
  return out;
}

std::unique_ptr<Analysis> parse(const std::string& text) {
  auto a = std::make_unique<Analysis>();
  std::uint32_t file = a->sources.add_buffer("t.dfg", text);
  a->spec->modules.push_back(parse_module(file, a->sources, a->diags));
  INFO(a->diags.render());
  REQUIRE_FALSE(a->diags.has_errors());
  return a;
}

void analyze(Analysis& a, SemaOptions options) {
  a.program = dfgc::analyze(*a.spec, options, a.sources, a.diags);
  CHECK(a.program.has_value() == !a.diags.has_errors());
}

std::unique_ptr<Analysis> analyze(const std::string& text, SemaOptions options) {
  auto a = parse(text);
  analyze(*a, std::move(options));
  return a;
}

std::string diagnose(const std::string& text, SemaOptions options) {
  return analyze(text, std::move(options))->summary();
}

std::string dump_of(const std::string& text, const char* app) {
  SemaOptions options;
  options.app = app;
  auto a = analyze(text, options);
  INFO(a->summary());
  REQUIRE(a->program);
  return ir::dump(*a->program);
}

}  // namespace dfgc::test
