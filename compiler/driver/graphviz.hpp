/// \file
/// `--emit=svg`: the implementation graph drawn by Graphviz's `dot`, when it is installed.
#pragma once

#include <optional>
#include <string>

namespace dfgc::driver {

/// Runs `dot -Tsvg` (found on PATH) on `dot_text` and returns the SVG in `svg`; on failure, the
/// reason: dot is not installed (with the package to install), or it failed (its exit status).
std::optional<std::string> render_svg(const std::string& dot_text, std::string& svg);

}  // namespace dfgc::driver
