/// \file
/// Semantic analysis: resolves names, evaluates parameter and size expressions (checked 64-bit
/// arithmetic), checks ports, edges, types, the architecture and the mapping, and builds the IR.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/ir.hpp"
#include "spec/parser.hpp"
#include "support/diagnostics.hpp"

namespace dfgc {

struct Define {
  std::string name;
  std::string value;  ///< as given after '=': an integer literal
};

struct SemaOptions {
  std::vector<Define> defines;     ///< -D NAME=VALUE, in command-line order
  std::optional<std::string> app;  ///< --app NAME; required when the spec has several apps
  std::string spec_file;           ///< the root spec path as given (copied into the Program)
  /// For `dfgc map`: a free node (`@ any`, `@ B.*`) gets its candidate PEs instead of the error
  /// "node 'x' is not mapped".
  bool allow_free_nodes = false;
  /// `--fifos=copied`: a fifo edge between an island on a CPU and one on a GPU of one host is a
  /// counted token copied each iteration, not a ring in mapped memory (sema/islands.hpp).
  bool copied_fifos = false;
};

/// Returns the program when there is no error; every problem found is reported to `diags`
/// (several per run where they are independent).
std::optional<ir::Program> analyze(const Spec& spec, const SemaOptions& options,
                                   const SourceManager& sources, DiagnosticEngine& diags);

}  // namespace dfgc
