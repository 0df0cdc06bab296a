#!/usr/bin/env bash
# compute-sanitizer memcheck, racecheck and synccheck on the saliency one-GPU program at 128x96,
# memcheck at 720x576: sanitize.sh beside one_gpu/, the project `dfgc compile samples/saliency/one_gpu.dfg` writes.
set -uo pipefail
cd "$(dirname "$0")"
cmake -S one_gpu -B one_gpu/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null 2>&1
cmake --build one_gpu/build -j 16 >/dev/null 2>&1 || { echo build failed; exit 1; }
app=one_gpu/build/app
for tool in memcheck racecheck synccheck; do
  echo "== $tool 128x96"
  compute-sanitizer --tool $tool --error-exitcode 9 $app --iterations 4 --set W=128 --set H=96 --set CHECK=1 2>&1 | tail -4
  echo "exit ${PIPESTATUS[0]}"
done
echo "== memcheck 720x576"
compute-sanitizer --tool memcheck --error-exitcode 9 $app --iterations 3 --set CHECK=1 2>&1 | tail -4
echo "exit ${PIPESTATUS[0]}"
