#include "support/diagnostics.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <tuple>

#include <fmt/format.h>

#include "support/utf8.hpp"

namespace dfgc {

DiagnosticBuilder& DiagnosticBuilder::note(SourceLoc loc, std::string message,
                                           std::uint32_t length) {
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

DiagnosticBuilder DiagnosticEngine::error(SourceLoc loc, std::string message,
                                          std::uint32_t length) {
  return add(Severity::error, loc, std::move(message), length);
}

DiagnosticBuilder DiagnosticEngine::warning(SourceLoc loc, std::string message,
                                            std::uint32_t length) {
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

namespace {

/// A path as diagnostics show it: lexically normal ("/usr/bin/../lib/x.h" is "/usr/lib/x.h",
/// "./a.dfg" is "a.dfg").
std::string display_path(const std::string& path) {
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  return normal.empty() ? path : normal;
}

/// A quoted source line and the marker line (caret and tildes) under it.
struct EchoedLine {
  std::string text;
  std::string marker;
};

/// Whether a character may be printed as it is: not a control character (tab excepted), not
/// malformed UTF-8.
bool printable(const utf8::Char& c) {
  return c.valid && (c.code >= 0x20 || c.code == '\t') && c.code != 0x7F &&
         !(c.code >= 0x80 && c.code < 0xA0);
}

/// `line` as it is echoed under a diagnostic, marked at its characters [first, first + count).
/// Characters that are not printable are shown escaped, as Clang does: `<U+0000>`, `<FF>`; the
/// marker follows the escapes and keeps tabs, so that it lines up under the text.
EchoedLine echo(std::string_view line, std::size_t first, std::size_t count) {
  EchoedLine out;
  std::size_t column = 0;  // characters of `line` before the current one
  for (std::size_t i = 0; i < line.size(); ++column) {
    utf8::Char c = utf8::decode(line.substr(i));
    std::string shown(line.substr(i, c.length));
    std::size_t width = 1;
    if (!printable(c)) {
      shown = c.valid ? fmt::format("<U+{:04X}>", static_cast<std::uint32_t>(c.code))
                      : fmt::format("<{:02X}>", static_cast<unsigned char>(line[i]));
      width = shown.size();
    }
    if (column < first)
      out.marker.append(width, c.code == '\t' ? '\t' : ' ');
    else if (column == first)
      out.marker.append("^").append(width - 1, '~');
    else if (column < first + count)
      out.marker.append(width, '~');
    out.text += shown;
    i += c.length;
  }
  if (first >= column) out.marker += '^';  // at the end of the line
  return out;
}

}  // namespace

void DiagnosticEngine::render_one(std::string& out, const Diagnostic& d) const {
  if (!d.loc.valid()) {
    out += fmt::format("dfgc: {}: {}\n", severity_name(d.severity), d.message);
  } else if (!d.loc.has_position()) {
    out += fmt::format("{}: {}: {}\n", display_path(sources_->name(d.loc.file)),
                       severity_name(d.severity), d.message);
  } else {
    LineCol lc = sources_->line_col(d.loc);
    out += fmt::format("{}:{}:{}: {}: {}\n", display_path(sources_->name(d.loc.file)), lc.line,
                       lc.col, severity_name(d.severity), d.message);
    // The underlined characters: `length` bytes from the location, within the line.
    std::string_view line = sources_->line_text(d.loc.file, lc.line);
    std::size_t line_begin =
        static_cast<std::size_t>(line.data() - sources_->contents(d.loc.file).data());
    std::size_t start = std::min<std::size_t>(d.loc.offset - line_begin, line.size());
    std::size_t bytes =
        std::min<std::size_t>(std::max<std::uint32_t>(d.length, 1), line.size() - start);
    std::size_t count = std::max<std::size_t>(utf8::count(line.substr(start, bytes)), 1);
    EchoedLine echoed = echo(line, lc.col - 1, count);
    out += echoed.text;
    out += '\n';
    out += echoed.marker;
    out += '\n';
  }
  for (const Diagnostic& n : d.notes) render_one(out, n);
}

std::string DiagnosticEngine::render() const {
  std::vector<const Diagnostic*> sorted;
  sorted.reserve(diags_.size());
  for (const Diagnostic& d : diags_) sorted.push_back(&d);
  // Located diagnostics by file and offset, then those about a whole file, then those without a
  // file (the command line); each group keeps the order of emission among equals.
  auto key = [](const Diagnostic* d) {
    int group = d->loc.has_position() ? 0 : d->loc.valid() ? 1 : 2;
    return std::tuple(group, d->loc.file, d->loc.offset);
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const Diagnostic* a, const Diagnostic* b) { return key(a) < key(b); });
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
