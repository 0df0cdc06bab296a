#!/bin/bash
# Builds the dyn_idct projects (one CPU core; the island on the GPU; a GPU island that stalls),
# runs them and writes the results under $OUT.
set -u
D=.dev/h16gpu
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
build() {
  cmake -S $D/$1 -B $D/$1/build -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$NVCC > $OUT/$1.cmake.txt 2>&1 &&
    cmake --build $D/$1/build -j 6 > $OUT/$1.build.txt 2>&1 || echo "build $1 failed" >> $OUT/errors.txt
}
t0=$(date +%s)
build one_core & build one_gpu & build stall & wait
echo "build seconds: $(( $(date +%s) - t0 ))" >> $OUT/device.txt
N=4000
for k in 1 2 3; do
  echo "== one_core run $k" >> $OUT/one_core.txt
  $D/one_core/build/app --iterations $N --stats=period --pin-cpus >> $OUT/one_core.txt 2>&1; echo "exit $?" >> $OUT/one_core.txt
  echo "== one_gpu run $k" >> $OUT/one_gpu.txt
  $D/one_gpu/build/app --iterations $N --stats=period --pin-cpus >> $OUT/one_gpu.txt 2>&1; echo "exit $?" >> $OUT/one_gpu.txt
done
echo "== one_gpu --no-overlap" >> $OUT/one_gpu.txt
$D/one_gpu/build/app --iterations $N --no-overlap --stats=period >> $OUT/one_gpu.txt 2>&1; echo "exit $?" >> $OUT/one_gpu.txt
$D/one_gpu/build/app --iterations 200 --stats > $OUT/one_gpu_stats.txt 2>&1; echo "exit $?" >> $OUT/one_gpu_stats.txt
timeout 120 $CS --tool memcheck --leak-check full $D/one_gpu/build/app --iterations 40 > $OUT/memcheck.txt 2>&1; echo "exit $?" >> $OUT/memcheck.txt
timeout 60 $D/stall/build/app --iterations 20 > $OUT/stall.txt 2>&1; echo "exit $?" >> $OUT/stall.txt
