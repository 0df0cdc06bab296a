/// \file
/// Parses a batch of actor headers as one Clang translation unit: C++20 for CPU actors, the host
/// side of CUDA for GPU actors. The AST is kept for the checks that follow, with Clang's own
/// diagnostics in the order Clang gave them. Safe to run for two batches on two threads at once.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/ASTUnit.h>

#include "actors/frontend.hpp"

namespace dfgc::actors {

/// One diagnostic as Clang reported it; `loc` points into the unit's SourceManager.
struct ClangDiagnostic {
  clang::DiagnosticsEngine::Level level = clang::DiagnosticsEngine::Error;
  clang::SourceLocation loc;
  std::string message;
};

/// Keeps Clang's diagnostics instead of printing them.
class DiagnosticCollector : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;
  const std::vector<ClangDiagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<ClangDiagnostic> diagnostics_;
};

struct ParsedUnit {
  /// Declared first so that it outlives `ast`, whose DiagnosticsEngine points to it.
  std::unique_ptr<DiagnosticCollector> collector;
  std::unique_ptr<clang::ASTUnit> ast;  ///< null when Clang could not even start
};

/// Clang's arguments for a batch of `kind`: language, include directories (dfgc's runtime, then
/// `header_dirs`), CUDA's host-only mode for GPUs, then `options.extra_args`.
std::vector<std::string> clang_args(ir::PeKind kind, const ActorFrontendOptions& options,
                                    const std::vector<std::string>& header_dirs);

/// Adds to `files.text` every file `unit` read that is the user's: not a system header, not under
/// dfgc's runtime include directory nor `options`' CUDA include directory, not one of dfgc's
/// in-memory files. Each under its normal_absolute_path(), with the text Clang read. The files
/// of dfgc's runtime it read go to `files.runtime`, those reached through an #include of an
/// absolute path (and not in one of `header_dirs`, the actor headers' directories) to
/// `files.external`: inputs of the project, neither copied into it.
void add_files_read(const clang::ASTUnit& unit, const ActorFrontendOptions& options,
                    const std::vector<std::string>& header_dirs, ActorFiles& files);

/// Parses one translation unit that includes each of `headers` (absolute paths) once, in order.
ParsedUnit parse_headers(ir::PeKind kind, const std::vector<std::string>& headers,
                         const std::vector<std::string>& args);

}  // namespace dfgc::actors
