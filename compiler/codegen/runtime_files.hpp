/// \file
/// The runtime headers (runtime/include/dfg/), compiled into dfgc (see embed_templates.cmake),
/// so that every generated project gets its own copy and builds without dfgc's sources.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace dfgc {

/// (path under dfg/, text) of every runtime header, sorted by path: "abort.hpp",
/// "cuda/buffers.hpp", "detail/wait.hpp" ...
const std::vector<std::pair<std::string_view, std::string_view>>& runtime_files();

}  // namespace dfgc
