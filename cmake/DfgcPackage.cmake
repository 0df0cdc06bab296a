# `cpack -G DEB` in a build tree: a Debian package of what `cmake --install` installs, under /usr.
# dfgc links Clang's and LLVM's shared libraries and fmt; it reads actor headers with Clang's
# builtin headers (the resource directory, in libclang-common-<N>-dev); the programs it writes
# are built with CMake and a C++20 compiler.
string(REGEX MATCH "^[0-9]+" DFGC_FMT_MAJOR "${fmt_VERSION}")
set(DFGC_PACKAGE_MAINTAINER "dfgc maintainers <dfgc@invalid>" CACHE STRING
    "Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME dfgc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "source-to-source compiler for streaming data-flow applications on GPU clusters")
set(CPACK_PACKAGE_CONTACT "${DFGC_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-cpp${LLVM_VERSION_MAJOR}, libllvm${LLVM_VERSION_MAJOR}, libclang-common-${LLVM_VERSION_MAJOR}-dev, libfmt${DFGC_FMT_MAJOR}, libstdc++6, libgcc-s1, libc6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.25), g++ (>= 4:12) | clang")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "mpich | libopenmpi-dev, nvidia-cuda-toolkit")
include(CPack)
