/// \file
/// The whole compilation as one pipeline: parse -> sema -> the passes (run_passes(): schedule ...
/// build_ig, migrations) -> actors -> the plan's stages -> codegen -> write, in the order of the
/// Stage list (stages/stages.hpp), each stage through run_stage() so that --time-passes and
/// --dump-after see every one. Every command runs it, up to the stage its output needs.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/frontend.hpp"
#include "codegen/project.hpp"
#include "sema/sema.hpp"
#include "spec/parser.hpp"
#include "stages/stages.hpp"

namespace dfgc::driver {

/// What the stages read besides the spec's files.
struct PipelineInput {
  SemaOptions sema;  ///< sema.spec_file: the spec
  bool read_actors = true;
  std::filesystem::path out_dir;  ///< codegen and write: where the project goes
  std::string depfile;  ///< write: also a Make-style depfile of files_read() here, when not empty
  ShortPathPolicy short_path = ShortPathPolicy::pad;  ///< migrations: a shorter new path's policy
  PlanOptions plan = {};  ///< plan_entries: the mapped tokens' threshold (--mapped-tokens)
  /// codegen: the largest source clang-format lays out (--clang-format; codegen/format.hpp).
  std::size_t format_limit = codegen::kFormatLimit;
};

/// Each stage's result, set once the stage has run.
struct Compilation {
  std::unique_ptr<Spec> spec;
  std::optional<ir::Program> program;
  ActorSignatures signatures;
  ActorFiles actor_files;  ///< the files Clang read for the actors, copied into the project
  PassResults passes;
  std::optional<codegen::Files> files;
  std::optional<std::string> write_error;  ///< why the project could not be written
  /// Files the caller read besides the pipeline's own (map: the spec and its imports, which it
  /// parsed itself, and the costs files): files_read() lists them too.
  std::vector<std::string> also_read{};
};

/// Runs the stages from parse up to `last` (the actors stage only when `in.read_actors`), with
/// `hooks` around each; stops after a stage that reported an error. False when one did (see
/// `diags`, and `out.write_error` for the write stage).
bool run_pipeline(const PipelineInput& in, Stage last, SourceManager& sources,
                  DiagnosticEngine& diags, PipelineHooks* hooks, Compilation& out);

/// The same stages after sema, from actors up to `last`, on `out.program`: the program sema
/// checked (run_pipeline() goes on with this), or one the caller made (map: the spec with the
/// mapping and the param values it chose). False when a stage reported an error.
bool run_pipeline_after_sema(const PipelineInput& in, Stage last, SourceManager& sources,
                             DiagnosticEngine& diags, PipelineHooks* hooks, Compilation& out);

/// Whether every loop of the program's graph carries enough initial tokens for its latency under
/// both strategies (passes/latency.hpp), as `passes` found: the program's own (its latency pass)
/// and those of each migration alternative (the migrations pass), as far as the passes ran. If
/// not, an error at the loop's first edge (the alternative's PE) with a note per edge. The
/// pipeline runs it on the passes to migrations, before it reads the actors.
bool check_loops(const ir::Program& program, const PassResults& passes, DiagnosticEngine& diags);

/// Whether every migration alternative keeps the tokens in flight on the program's delayed edges
/// (lost_initial_tokens() is empty under both strategies); if not, an error at the alternative's
/// PE with a note per edge whose tokens a move would lose. The pipeline runs it after
/// check_loops().
bool check_migrating_delays(const ir::Program& program, const PassResults& passes,
                            DiagnosticEngine& diags);

/// Every file the compilation read but for system headers and CUDA's: the spec, its imports, the
/// actor headers, the user's headers they include, the files of dfgc's runtime they include and
/// `also_read`;
/// absolute, lexically normal, sorted, each once. What a build system must watch to know when to
/// compile again.
std::vector<std::string> files_read(const Compilation& compilation, const SourceManager& sources);

/// The actors stage's dump: each implementation's fire and init as code generation calls them.
std::string dump(const ActorSignatures& signatures, const ir::Program& program);

}  // namespace dfgc::driver
