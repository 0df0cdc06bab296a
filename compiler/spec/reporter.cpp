/// \file
/// The error limit of the spec front end (see reporter.hpp).
#include "spec/reporter.hpp"

namespace dfgc::spec {

bool too_many_errors(const DiagnosticEngine& diags) { return diags.error_count() > kMaxErrors; }

void report_error(DiagnosticEngine& diags, SourceLoc loc, std::string message, std::uint32_t length,
                  std::vector<Note> notes) {
  if (too_many_errors(diags)) return;
  if (diags.error_count() == kMaxErrors) {
    diags.error(loc, "too many errors; stopping");
    return;
  }
  DiagnosticBuilder builder = diags.error(loc, std::move(message), length);
  for (Note& n : notes) builder.note(n.loc, std::move(n.message), n.length);
}

}  // namespace dfgc::spec
