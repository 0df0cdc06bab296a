/// \file
/// The files of templates/, compiled into dfgc (see embed_templates.cmake).
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "codegen/printer.hpp"

namespace dfgc {

/// The text of templates/<name>; an unknown name is dfgc's bug.
std::string_view template_text(std::string_view name);

/// templates/parts/<name> rendered with `vars` (render_template's rules): a piece of a generated
/// file (a line, a block, a list item) that a printer repeats or chooses.
std::string render_part(std::string_view name, const Printer::Vars& vars = {});

/// `#include` lines of `headers` (spelled with their quotes or angle brackets), in set order.
std::string include_lines(const std::set<std::string>& headers);

}  // namespace dfgc
