#!/usr/bin/env bash
# Configures and builds chain_peers (CMakeLists.txt beside this file) in one command, as the
# harness's Reference `build` takes one:  build.sh SRC BUILD [CMAKE_ARGS...]
set -euo pipefail
src=$1 build=$2
shift 2
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j 2
