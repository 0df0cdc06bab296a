/// \file
/// Helpers for the actor frontend tests: a program written by hand together with the spec text
/// it stands for (so that notes at spec lines can be checked), and a one-line-per-diagnostic view
/// of what check_actors reported.
#pragma once

#include <string>
#include <vector>

#include "actors/frontend.hpp"

namespace dfgc::test {

class ActorProgram {
 public:
  /// Starts `actor NAME {` in the spec; what follows belongs to it.
  ActorProgram& actor(const std::string& name);
  /// `in float a;` / `out float b;` (each port gets its own token type of that element).
  ActorProgram& in(const std::string& name, ir::ElemType elem = ir::ElemType::f32);
  ActorProgram& out(const std::string& name, ir::ElemType elem = ir::ElemType::f32);
  /// `param int n;`
  ActorProgram& param(const std::string& type, const std::string& name);
  /// `cpu "HEADER" CLASS;` with the header relative to the repository root.
  ActorProgram& cpu(const std::string& header, const std::string& class_name);
  ActorProgram& gpu(const std::string& header, const std::string& class_name);

  /// Runs check_actors once.
  ActorSignatures check(bool werror = false);
  /// The files check() read.
  const ActorFiles& files() const { return files_; }

  /// "file:line:col: severity: message" per diagnostic in render order; notes follow their
  /// diagnostic, indented by two spaces.
  std::vector<std::string> reported() const;
  std::string rendered() const { return diags_.render(); }
  std::size_t error_count() const { return diags_.error_count(); }
  std::size_t warning_count() const { return diags_.warning_count(); }

 private:
  ActorProgram& port(ir::PortDir dir, const std::string& name, ir::ElemType elem);
  ActorProgram& impl(ir::PeKind kind, const std::string& header, const std::string& class_name);
  /// Appends one spec line and returns the location of its first non-blank character. The spec
  /// becomes the first file of the SourceManager when check() runs.
  SourceLoc line(const std::string& text);
  void close_actor();

  ir::Program program_;
  std::string spec_;
  bool open_ = false;
  SourceManager sources_;
  DiagnosticEngine diags_{sources_};
  ActorFiles files_;
};

}  // namespace dfgc::test
