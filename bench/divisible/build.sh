#!/usr/bin/env bash
# Builds divisible_bench (divisible_bench.cu beside this file) with nvcc:  build.sh [BUILD_DIR]
# The architecture: $CUDA_ARCHITECTURES (e.g. 90), else the first GPU's compute capability, else 90.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/build}
mkdir -p "$build"
arch=${CUDA_ARCHITECTURES:-}
if [[ -z $arch ]]; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.' || true)
fi
arch=${arch:-90}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -O3 -std=c++17 -arch=sm_$arch -Xcompiler -Wall,-Wextra -o "$build/divisible_bench" \
  "$here/divisible_bench.cu"
echo "$build/divisible_bench"
