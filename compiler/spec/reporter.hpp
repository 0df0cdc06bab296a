/// \file
/// Error reporting shared by the lexer, the parser and the loader: one call that attaches its
/// notes, and the error limit. Once the engine holds kMaxErrors errors, the next one is replaced by
/// "too many errors; stopping" and everything after it is dropped; the parser then sees the end of
/// its input and the loader reads no more files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"

namespace dfgc::spec {

struct Note {
  SourceLoc loc;
  std::string message;
  std::uint32_t length = 1;
};

inline constexpr std::size_t kMaxErrors = 20;

/// True once "too many errors; stopping" has been reported (the engine holds more than
/// kMaxErrors errors).
bool too_many_errors(const DiagnosticEngine& diags);

/// Reports an error with its notes, unless the error limit was reached.
void report_error(DiagnosticEngine& diags, SourceLoc loc, std::string message,
                  std::uint32_t length = 1, std::vector<Note> notes = {});

}  // namespace dfgc::spec
