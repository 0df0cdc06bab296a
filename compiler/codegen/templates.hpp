/// \file
/// The files of templates/, compiled into dfgc (see embed_templates.cmake).
#pragma once

#include <string_view>

namespace dfgc {

/// The text of templates/<name>; an unknown name is dfgc's bug.
std::string_view template_text(std::string_view name);

}  // namespace dfgc
