/// \file
/// Reads the user's actor headers with Clang LibTooling and checks them against the spec: the
/// class exists, `fire` exists with one pointer parameter per port matched by name (const T* for
/// inputs, T* for outputs, T the token's element type), an optional trailing dfg::Context&, an
/// optional `init(dfg::Context&)`. In GPU actors it also lints `fire` for what breaks overlap:
/// synchronous CUDA calls and kernel launches that do not use ctx.stream().
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/actor_signature.hpp"
#include "ir/ir.hpp"
#include "support/diagnostics.hpp"

namespace dfgc {

/// The files Clang read to check the actors, except the system headers, dfgc's runtime and CUDA's
/// headers: every actor header and every header of the user's they include, directly or not,
/// with the text Clang read. Code generation copies them into the project.
struct ActorFiles {
  /// Absolute, lexically normal path ('.' and '..' removed) -> text.
  std::map<std::string, std::string> text;
  /// Each implementation's ir::Impl::header_path -> its path in `text`.
  std::map<std::string, std::string> headers;
  /// The files of dfgc's runtime that the headers read (<dfg/context.hpp>): not copied (the
  /// project has its own copy of the runtime), but inputs of the project (a depfile lists them).
  std::set<std::string> runtime;
  /// The files reached through an #include of an absolute path ("/opt/lib/x.hpp"), and those
  /// they include: the copies include them where they are, like system headers, so they are
  /// inputs of the project but not copied into it (nor laid out from '/').
  std::set<std::string> external;
};

/// What check_actors found.
struct ActorCheck {
  ActorSignatures signatures;  ///< of the implementations that passed
  ActorFiles files;            ///< complete when no error was reported
};

struct ActorFrontendOptions {
  std::string cuda_include_dir;         ///< empty: the one dfgc was configured with
  std::string clang_resource_dir;       ///< empty: the one dfgc was built against
  std::vector<std::string> extra_args;  ///< passed to Clang after dfgc's own
};

/// Checks every implementation of every actor of `program`. Diagnostics point into the header
/// (loading it into `sources` so that the line can be quoted) with a note at the spec line.
/// Returns the signatures of the implementations that passed and the files Clang read.
///
/// All CPU headers are parsed as one C++ translation unit and all GPU headers as one CUDA (host
/// side) translation unit, the two in parallel. Clang's own errors in a header are reported as
/// they are; its warnings are not. A header with a Clang error, and those its translation unit
/// includes after it, are not checked further.
ActorCheck check_actors(const ir::Program& program, const ActorFrontendOptions& options,
                        SourceManager& sources, DiagnosticEngine& diags);

/// `path` made absolute (from the working directory) and lexically normal, as ActorFiles keys are.
std::string normal_absolute_path(const std::string& path);

}  // namespace dfgc
