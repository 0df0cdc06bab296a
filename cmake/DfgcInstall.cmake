# What `cmake --install` puts under the prefix:
#   bin/dfgc                              the compiler (templates and runtime sources embedded)
#   include/dfg/...                       the header-only runtime: dfgc reads actor headers against
#                                         it, user code may include <dfg/context.hpp>
#   <libdir>/cmake/dfgc/                  the CMake package: targets dfgc::dfgc (the executable)
#                                         and dfgc::runtime, and dfgc_add_application()
include(CMakePackageConfigHelpers)

set(DFGC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dfgc)

install(TARGETS dfgc EXPORT dfgcTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS dfg_runtime EXPORT dfgcTargets)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/dfg
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT dfgcTargets NAMESPACE dfgc:: DESTINATION ${DFGC_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dfgcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/dfgcConfig.cmake INSTALL_DESTINATION ${DFGC_INSTALL_CMAKEDIR})
# dfgc is 0.x: a minor version may change the spec language.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/dfgcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/dfgcConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/dfgcConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/DfgcAddApplication.cmake
        DESTINATION ${DFGC_INSTALL_CMAKEDIR})
