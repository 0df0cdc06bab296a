/// \file
/// Semantic analysis: resolves names, evaluates parameter and size expressions (checked 64-bit
/// arithmetic), checks ports, edges, types, the architecture and the mapping, and builds the IR.
#pragma once

#include <map>
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
  /// For `dfgc map`: free nodes with a replica range (`@ any cpu replicas in [1, 4]`) dealt over
  /// this many shares each (ir::Node::shares); a node absent, or 1, runs on one PE.
  std::map<std::string, std::uint32_t> replica_shares{};
  /// For `dfgc map`'s choice: free nodes placed as `--apply` writes them, on one PE or on a
  /// replica set with weights (as if the spec said `@ A.c1` or `@ {A.c1, A.c2: 2}`).
  std::map<std::string, std::vector<ir::Replica>> placements{};
  /// `--fifos=copied`: a fifo edge between an island on a CPU and one on a GPU of one host is a
  /// counted token copied each iteration, not a ring in mapped memory (sema/islands.hpp).
  bool copied_fifos = false;
};

/// Returns the program when there is no error; every problem found is reported to `diags`
/// (several per run where they are independent).
std::optional<ir::Program> analyze(const Spec& spec, const SemaOptions& options,
                                   const SourceManager& sources, DiagnosticEngine& diags);

}  // namespace dfgc
