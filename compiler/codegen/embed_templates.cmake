# Writes a C++ source that holds every file of templates/ as a string, so that the dfgc binary
# needs nothing beside it at run time. Invoked at build time:
#   cmake -DTEMPLATE_DIR=... -DOUTPUT=... -P embed_templates.cmake
file(GLOB_RECURSE templates RELATIVE "${TEMPLATE_DIR}" "${TEMPLATE_DIR}/*")
list(SORT templates)
set(body "")
foreach(name IN LISTS templates)
  file(READ "${TEMPLATE_DIR}/${name}" text)
  string(APPEND body "    {\"${name}\", R\"dfgc_template(${text})dfgc_template\"},\n")
endforeach()
set(source "// Generated from templates/ at build time. DO NOT EDIT.
#include \"codegen/templates.hpp\"

#include <array>
#include <utility>

#include \"support/assert.hpp\"

namespace dfgc {

std::string_view template_text(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kTemplates[] = {
${body}  };
  for (const auto& [n, text] : kTemplates)
    if (n == name) return text;
  DFGC_UNREACHABLE(\"no template named '\", name, \"'\");
}

}  // namespace dfgc
")
file(WRITE "${OUTPUT}.tmp" "${source}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
