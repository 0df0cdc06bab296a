# Writes a C++ source that holds every header of runtime/include/dfg/ as a string, so that dfgc
# can copy the runtime into each generated project. Invoked at build time:
#   cmake -DRUNTIME_DIR=.../runtime/include/dfg -DOUTPUT=... -P embed_runtime.cmake
file(GLOB_RECURSE headers RELATIVE "${RUNTIME_DIR}" "${RUNTIME_DIR}/*.hpp")
list(SORT headers)
set(body "")
foreach(name IN LISTS headers)
  file(READ "${RUNTIME_DIR}/${name}" text)
  string(APPEND body "      {\"${name}\", R\"dfgc_runtime(${text})dfgc_runtime\"},\n")
endforeach()
set(source "// Generated from runtime/include/dfg/ at build time. DO NOT EDIT.
#include \"codegen/runtime_files.hpp\"

namespace dfgc {

const std::vector<std::pair<std::string_view, std::string_view>>& runtime_files() {
  static const std::vector<std::pair<std::string_view, std::string_view>> kFiles = {
${body}  };
  return kFiles;
}

}  // namespace dfgc
")
file(WRITE "${OUTPUT}.tmp" "${source}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
