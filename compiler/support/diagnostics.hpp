/// \file
/// Clang-style diagnostics: `file:line:col: error: message` (the column in characters), the
/// source line (unprintable bytes escaped), a caret (and a `~` underline for a range), then notes
/// at related places; `file: error: message` for one about a whole file, `dfgc: error: message`
/// for one about the command line. Diagnostics are collected, then printed sorted (located ones
/// by location, then file-wide ones, then command-line ones; stable, so equals keep their
/// emission order), followed by the count ("2 errors generated."). Paths are shown lexically
/// normal.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "support/source_manager.hpp"

namespace dfgc {

enum class Severity { note, warning, error };

struct Diagnostic {
  Severity severity = Severity::error;
  SourceLoc loc;             ///< invalid: printed as `dfgc: error: ...` (no place to point at)
  std::uint32_t length = 1;  ///< bytes underlined from loc (caret, then '~')
  std::string message;
  std::vector<Diagnostic> notes;
};

class DiagnosticEngine;

/// Returned by DiagnosticEngine::error/warning so that notes can be chained:
///   diags.error(loc, "duplicate actor 'Inc'").note(prev, "previous definition is here");
class DiagnosticBuilder {
 public:
  DiagnosticBuilder& note(SourceLoc loc, std::string message, std::uint32_t length = 1);

 private:
  friend class DiagnosticEngine;
  DiagnosticBuilder(DiagnosticEngine& engine, std::size_t index)
      : engine_(&engine), index_(index) {}
  DiagnosticEngine* engine_;
  std::size_t index_;
};

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager& sources) : sources_(&sources) {}

  DiagnosticBuilder error(SourceLoc loc, std::string message, std::uint32_t length = 1);
  /// A warning; an error instead when warnings_as_errors() is set (it still reads "error").
  DiagnosticBuilder warning(SourceLoc loc, std::string message, std::uint32_t length = 1);

  void set_warnings_as_errors(bool on) { werror_ = on; }
  bool warnings_as_errors() const { return werror_; }

  std::size_t error_count() const { return errors_; }
  std::size_t warning_count() const { return warnings_; }
  bool has_errors() const { return errors_ != 0; }

  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

  /// Renders every diagnostic (sorted by location) and the summary line to a string.
  std::string render() const;
  /// Writes render() to `out`; the summary line is omitted when there is nothing to report.
  void print(std::ostream& out) const;
  /// Forgets what was reported (the REPL-like tests reuse one engine).
  void clear();

  const SourceManager& sources() const { return *sources_; }

 private:
  friend class DiagnosticBuilder;
  DiagnosticBuilder add(Severity severity, SourceLoc loc, std::string message,
                        std::uint32_t length);
  void render_one(std::string& out, const Diagnostic& d) const;

  const SourceManager* sources_;
  std::vector<Diagnostic> diags_;
  std::size_t errors_ = 0;
  std::size_t warnings_ = 0;
  bool werror_ = false;
};

}  // namespace dfgc
