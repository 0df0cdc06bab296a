# The names of templates/: its whole files ("main.cpp") and the sections of templates/parts/
# ("worker_loop"), for the compile-time check of every name a printer uses (templates.hpp).

# Sets `out` to the section names of the file `path` of templates/parts/, in file order.
function(dfgc_template_sections path out)
  file(STRINGS "${path}" markers REGEX "^@@ ")
  set(names "")
  foreach(line IN LISTS markers)
    if(NOT line MATCHES "^@@ ([a-z0-9_]+)$")
      message(FATAL_ERROR "${path}: a section marker is `@@ name` with a name of [a-z0-9_]: ${line}")
    endif()
    list(APPEND names "${CMAKE_MATCH_1}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# Sets `files` to the whole templates and `parts` to every section name, each sorted; a name that
# two sections share is an error.
function(dfgc_template_names template_dir files parts)
  file(GLOB_RECURSE all RELATIVE "${template_dir}" "${template_dir}/*")
  set(whole "")
  set(sections "")
  foreach(name IN LISTS all)
    if(name MATCHES "^parts/")
      dfgc_template_sections("${template_dir}/${name}" these)
      foreach(s IN LISTS these)
        if(s IN_LIST sections)
          message(FATAL_ERROR "templates/${name}: section '${s}' is defined twice in templates/parts")
        endif()
        list(APPEND sections "${s}")
      endforeach()
    else()
      list(APPEND whole "${name}")
    endif()
  endforeach()
  list(SORT whole)
  list(SORT sections)
  set(${files} "${whole}" PARENT_SCOPE)
  set(${parts} "${sections}" PARENT_SCOPE)
endfunction()

# Writes the header of both lists (when its text changes).
function(dfgc_write_template_names template_dir output)
  dfgc_template_names("${template_dir}" whole sections)
  set(body "")
  foreach(name IN LISTS whole)
    string(APPEND body "    \"${name}\",\n")
  endforeach()
  set(parts_body "")
  foreach(name IN LISTS sections)
    string(APPEND parts_body "    \"${name}\",\n")
  endforeach()
  file(CONFIGURE OUTPUT "${output}" CONTENT "// Generated from templates/ when dfgc is configured. DO NOT EDIT.
#pragma once

#include <string_view>

namespace dfgc::template_names {

/// The whole files of templates/, outside parts/.
inline constexpr std::string_view kFiles[] = {
${body}};

/// The sections of the files of templates/parts/.
inline constexpr std::string_view kParts[] = {
${parts_body}};

}  // namespace dfgc::template_names
" @ONLY)
endfunction()
