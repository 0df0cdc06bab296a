#include "support/diagnostics.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

namespace dfgc {

DiagnosticBuilder& DiagnosticBuilder::note(SourceLoc loc, std::string message, std::uint32_t length) {
  Diagnostic n;
  n.severity = Severity::note;
  n.loc = loc;
  n.length = length;
  n.message = std::move(message);
  engine_->diags_[index_].notes.push_back(std::move(n));
  return *this;
}

DiagnosticBuilder DiagnosticEngine::add(Severity severity, SourceLoc loc, std::string message,
                                        std::uint32_t length) {
  Diagnostic d;
  d.severity = severity;
  d.loc = loc;
  d.length = length;
  d.message = std::move(message);
  diags_.push_back(std::move(d));
  (severity == Severity::error ? errors_ : warnings_)++;
  return DiagnosticBuilder(*this, diags_.size() - 1);
}

DiagnosticBuilder DiagnosticEngine::error(SourceLoc loc, std::string message, std::uint32_t length) {
  return add(Severity::error, loc, std::move(message), length);
}

DiagnosticBuilder DiagnosticEngine::warning(SourceLoc loc, std::string message, std::uint32_t length) {
  if (werror_) return add(Severity::error, loc, std::move(message) + " [-Werror]", length);
  return add(Severity::warning, loc, std::move(message), length);
}

void DiagnosticEngine::clear() {
  diags_.clear();
  errors_ = warnings_ = 0;
}

static const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

void DiagnosticEngine::render_one(std::string& out, const Diagnostic& d) const {
  if (!d.loc.valid()) {
    out += fmt::format("dfgc: {}: {}\n", severity_name(d.severity), d.message);
  } else {
    LineCol lc = sources_->line_col(d.loc);
    out += fmt::format("{}:{}:{}: {}: {}\n", sources_->name(d.loc.file), lc.line, lc.col,
                       severity_name(d.severity), d.message);
    std::string_view line = sources_->line_text(d.loc.file, lc.line);
    out += line;
    out += '\n';
    // Reproduce tabs so that the caret lines up under the source text.
    std::string marker;
    for (std::uint32_t i = 1; i < lc.col && i - 1 < line.size(); ++i)
      marker += line[i - 1] == '\t' ? '\t' : ' ';
    marker += '^';
    std::size_t rest = line.size() >= lc.col ? line.size() - lc.col : 0;
    std::size_t tildes = std::min<std::size_t>(d.length > 0 ? d.length - 1 : 0, rest);
    marker.append(tildes, '~');
    out += marker;
    out += '\n';
  }
  for (const Diagnostic& n : d.notes) render_one(out, n);
}

std::string DiagnosticEngine::render() const {
  std::vector<const Diagnostic*> sorted;
  sorted.reserve(diags_.size());
  for (const Diagnostic& d : diags_) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->loc.file != b->loc.file) return a->loc.file < b->loc.file;
    return a->loc.offset < b->loc.offset;
  });
  std::string out;
  for (const Diagnostic* d : sorted) render_one(out, *d);
  auto plural = [](std::size_t n, const char* word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
  };
  if (warnings_ && errors_)
    out += plural(warnings_, "warning") + " and " + plural(errors_, "error") + " generated.\n";
  else if (errors_)
    out += plural(errors_, "error") + " generated.\n";
  else if (warnings_)
    out += plural(warnings_, "warning") + " generated.\n";
  return out;
}

void DiagnosticEngine::print(std::ostream& out) const { out << render(); }

}  // namespace dfgc
