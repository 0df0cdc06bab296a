/// \file
/// The files of templates/, compiled into dfgc (see embed_templates.cmake).
///
/// templates/ holds whole files (main.cpp, app.hpp, ...) and, in templates/parts/, one file per
/// printer of the pieces that printer repeats or chooses (a line, a block, a list item), each a
/// named section:
///
///   @@ worker_wait
///   run_.wait($what$);
///
///   @@ worker_dev
///   $d$,
///
/// A line `@@ name` begins a section and ends the one before; the newline before a marker line,
/// or the file's last newline, is not part of the section, so a section that ends with a newline
/// shows an empty line before the next marker. Text before the first marker is a comment.
///
/// Every name a printer uses is checked when dfgc compiles: TemplateFile and TemplatePart are
/// made only from a literal that names one (template_names.hpp, written when dfgc is configured),
/// and the build fails when a section is named by no printer (embed_templates.cmake).
#pragma once

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/printer.hpp"
#include "codegen/template_names.hpp"

namespace dfgc {

/// A name in `kNames`, made only from a literal that is one: a printer that names a template
/// that does not exist does not compile.
template <const auto& kNames>
class TemplateName {
 public:
  consteval TemplateName(const char* name) : name_(name) {  // NOLINT: a literal converts
    if (std::ranges::find(kNames, name_) == std::end(kNames)) throw "no template has this name";
  }
  std::string_view name() const { return name_; }

 private:
  std::string_view name_;
};

/// The name of a whole file of templates/ ("main.cpp").
using TemplateFile = TemplateName<template_names::kFiles>;
/// The name of a section of templates/parts/ ("worker_wait").
using TemplatePart = TemplateName<template_names::kParts>;

/// Every file of templates/ by its path there ("parts/worker.cpp"), sorted: the embedded text.
std::span<const std::pair<std::string_view, std::string_view>> embedded_templates();

/// The sections of `text`, a file of templates/parts/ named `file`, in file order.
std::vector<std::pair<std::string_view, std::string_view>> template_sections(std::string_view file,
                                                                             std::string_view text);

/// The text of templates/<name>.
std::string_view template_text(TemplateFile name);

/// The text of a section of templates/parts/.
std::string_view part_text(TemplatePart name);

/// A section of templates/parts/ rendered with `vars` (render_template's rules).
std::string render_part(TemplatePart name, const Printer::Vars& vars = {});

/// `#include` lines of `headers` (spelled with their quotes or angle brackets), in set order.
std::string include_lines(const std::set<std::string>& headers);

}  // namespace dfgc
