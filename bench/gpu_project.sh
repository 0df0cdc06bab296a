# shellcheck shell=bash
# Sourced by the device scripts that build one generated GPU project and run it (bench/checkpoint/
# gpu_run.sh, bench/overlap/graph_cycles_run.sh):
#
#     . "$(dirname "$0")/../gpu_project.sh"
#     start_results PROJECT OUT USAGE   # OUT/log.txt gets everything from here; names the GPU
#     app=$(build_gpu_project PROJECT)  # nvcc and g++ warnings as errors; fails without app
start_results() {
  if [ -z "${1:-}" ] || [ -z "${2:-}" ]; then
    echo "usage: $3" >&2
    exit 2
  fi
  mkdir -p "$2"
  exec > >(tee "$2/log.txt") 2>&1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
}
build_gpu_project() {
  cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_CUDA_FLAGS="-Xcompiler=-Werror -Werror all-warnings" >/dev/null &&
    cmake --build "$1/build" -j 8 2>&1 | grep -iE "warning|error" >&2
  [ -x "$1/build/app" ] || { echo "no executable" >&2; return 1; }
  echo "$1/build/app"
}
