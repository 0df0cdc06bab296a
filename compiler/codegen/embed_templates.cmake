# Writes a C++ source that holds every file of templates/ as a string, so that the dfgc binary
# needs nothing beside it at run time, and fails when a section of templates/parts/ is named by no
# printer of CODEGEN_DIR. Invoked at build time:
#   cmake -DTEMPLATE_DIR=... -DCODEGEN_DIR=... -DOUTPUT=... -P embed_templates.cmake
cmake_policy(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/template_names.cmake")

dfgc_template_names("${TEMPLATE_DIR}" whole sections)
file(GLOB printers "${CODEGEN_DIR}/*.cpp" "${CODEGEN_DIR}/*.hpp")
set(printed "")
foreach(p IN LISTS printers)
  file(READ "${p}" text)
  string(APPEND printed "${text}")
endforeach()
foreach(s IN LISTS sections)
  string(FIND "${printed}" "\"${s}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "templates/parts: no printer of compiler/codegen names section '${s}'")
  endif()
endforeach()

file(GLOB_RECURSE templates RELATIVE "${TEMPLATE_DIR}" "${TEMPLATE_DIR}/*")
list(SORT templates)
set(body "")
foreach(name IN LISTS templates)
  file(READ "${TEMPLATE_DIR}/${name}" text)
  string(APPEND body "      {\"${name}\", R\"dfgc_template(${text})dfgc_template\"},\n")
endforeach()
set(source "// Generated from templates/ at build time. DO NOT EDIT.
#include \"codegen/templates.hpp\"

namespace dfgc {

std::span<const std::pair<std::string_view, std::string_view>> embedded_templates() {
  static constexpr std::pair<std::string_view, std::string_view> kTemplates[] = {
${body}  };
  return kTemplates;
}

}  // namespace dfgc
")
file(WRITE "${OUTPUT}.tmp" "${source}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
