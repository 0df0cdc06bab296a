# dfgc_add_application(NAME <target> SPEC <app.dfg>
#                      [APP <name>] [DEFINES <PARAM=VALUE>...] [COSTS <costs.json>...]
#                      [DFGC_ARGS <arg>...] [CMAKE_ARGS <arg>...])
#
# Compiles SPEC with dfgc at build time into <binary dir>/<target>/project and builds that
# project's program in <binary dir>/<target>/build. <target> builds it (<target>_dfgc runs only
# dfgc); its DFGC_EXECUTABLE property (also the variable <target>_EXECUTABLE) is the program's
# path, for add_test() or install(PROGRAMS). APP and DEFINES are dfgc's --app and -D. With COSTS,
# `dfgc map` chooses the free nodes' PEs and the tunable params from those costs files (in
# order, as its --costs) and writes the chosen mapping's project (--emit=code), so a spec with
# `@ any` builds; without, `dfgc compile` writes the spec's own mapping. DFGC_ARGS go to that
# dfgc command after the others (e.g. --mapped-tokens=0, --copied-fifos, or map's --objective
# latency). CMAKE_ARGS go to the configure of the generated project, after the compilers and
# build type of this tree.
#
# Rebuilds: dfgc writes a depfile of every file it read (the spec, its imports, the costs files,
# the actor headers and the non-system headers they include, dfgc's runtime), so editing any of
# them reruns dfgc;
# a new dfgc reruns it too. dfgc rewrites only the files whose text changed, and the program's
# build recompiles what those files and the actor headers they include touch.
#
# Why a nested build and not sources added to a target of this tree (as protobuf_generate
# does): protobuf knows its outputs from the .proto file names at configure time, but the files
# dfgc writes depend on the spec's contents (one source per host and per GPU, CUDA only when a
# GPU is mapped, MPI only with several hosts), and so do the languages, packages and flags of
# the generated CMakeLists.txt. Adding them here would need the spec at configure time and a
# reconfigure of this whole tree whenever the architecture or mapping changes. The generated
# project is a standalone CMake project: building it as it is (ExternalProject, always run, so
# its own build decides what is out of date and reconfigures itself when dfgc rewrote its
# CMakeLists.txt) gives the same program as `cmake -S project -B build` and correct rebuilds
# whatever the spec says. The cost: the program is not a target of this tree to link into (it
# is an executable), and only single-configuration generators are tested.
include_guard(GLOBAL)
include(ExternalProject)

function(dfgc_add_application)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;SPEC;APP" "DEFINES;COSTS;DFGC_ARGS;CMAKE_ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dfgc_add_application: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_NAME OR NOT ARG_SPEC)
    message(FATAL_ERROR "dfgc_add_application: NAME <target> and SPEC <file.dfg> are required")
  endif()
  if(NOT TARGET dfgc::dfgc)
    message(FATAL_ERROR "dfgc_add_application: no dfgc::dfgc target: call find_package(dfgc) first")
  endif()
  get_filename_component(spec "${ARG_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${spec}")
    message(FATAL_ERROR "dfgc_add_application(${ARG_NAME}): spec '${spec}' does not exist")
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}")
  set(project_dir "${dir}/project")
  set(build_dir "${dir}/build")
  # The depfile's target: dfgc lists the manifest of the project it wrote. The manifest is
  # touched after each run, as dfgc leaves unchanged files (the manifest too) untouched.
  set(manifest "${project_dir}/dfgc-manifest.txt")
  set(depfile "${dir}/dfgc.d")

  set(costs "")
  foreach(file IN LISTS ARG_COSTS)
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "dfgc_add_application(${ARG_NAME}): costs file '${file}' does not exist")
    endif()
    list(APPEND costs "${file}")
  endforeach()
  if(costs)
    set(dfgc_args map "${spec}" --emit=code -o "${project_dir}" --depfile "${depfile}")
    foreach(file IN LISTS costs)
      list(APPEND dfgc_args --costs "${file}")
    endforeach()
  else()
    set(dfgc_args compile "${spec}" -o "${project_dir}" --depfile "${depfile}")
  endif()
  if(ARG_APP)
    list(APPEND dfgc_args --app "${ARG_APP}")
  endif()
  foreach(define IN LISTS ARG_DEFINES)
    if(NOT define MATCHES "^[A-Za-z_][A-Za-z0-9_]*=")
      message(FATAL_ERROR "dfgc_add_application(${ARG_NAME}): DEFINES takes NAME=VALUE, not '${define}'")
    endif()
    list(APPEND dfgc_args -D "${define}")
  endforeach()
  list(APPEND dfgc_args ${ARG_DFGC_ARGS})

  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${manifest}"
    COMMAND dfgc::dfgc ${dfgc_args}
    COMMAND ${CMAKE_COMMAND} -E touch "${manifest}"
    DEPENDS "${spec}" ${costs} "$<TARGET_FILE:dfgc::dfgc>"
    DEPFILE "${depfile}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    COMMENT "dfgc: compiling ${ARG_SPEC} for ${ARG_NAME}"
    VERBATIM)
  add_custom_target(${ARG_NAME}_dfgc DEPENDS "${manifest}")

  # The compilers and build type of this tree, as cache entries (a list such as
  # CMAKE_CUDA_ARCHITECTURES=80;90 survives CMAKE_CACHE_ARGS, not CMAKE_ARGS).
  set(cache_args "-DCMAKE_CXX_COMPILER:FILEPATH=${CMAKE_CXX_COMPILER}")
  foreach(var CMAKE_BUILD_TYPE CMAKE_CXX_COMPILER_LAUNCHER CMAKE_CUDA_COMPILER
              CMAKE_CUDA_ARCHITECTURES CMAKE_CUDA_COMPILER_LAUNCHER)
    if(DEFINED ${var} AND NOT "${${var}}" STREQUAL "")
      list(APPEND cache_args "-D${var}:STRING=${${var}}")
    endif()
  endforeach()

  ExternalProject_Add(${ARG_NAME}
    PREFIX "${dir}"
    SOURCE_DIR "${project_dir}"
    BINARY_DIR "${build_dir}"
    DOWNLOAD_COMMAND ""   # the sources are dfgc's: ${ARG_NAME}_dfgc writes them
    UPDATE_COMMAND ""
    INSTALL_COMMAND ""
    CMAKE_CACHE_ARGS ${cache_args}
    CMAKE_ARGS ${ARG_CMAKE_ARGS}
    BUILD_ALWAYS ON
    DEPENDS ${ARG_NAME}_dfgc)

  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(executable "${build_dir}/$<CONFIG>/app")
  else()
    set(executable "${build_dir}/app")
  endif()
  set_target_properties(${ARG_NAME} PROPERTIES DFGC_EXECUTABLE "${executable}")
  set(${ARG_NAME}_EXECUTABLE "${executable}" PARENT_SCOPE)
endfunction()
