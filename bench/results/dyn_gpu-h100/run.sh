#!/bin/bash
# The dyn_idct and dyn_fir islands on one CPU core and on the GPU: built, run 3 times each,
# the GPU ones under compute-sanitizer memcheck; results under $OUT (one file per sample).
set -u
D=.dev/h16gpu
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
build() {
  { cmake -S $D/$1 -B $D/$1/build -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$NVCC &&
    cmake --build $D/$1/build -j 4; } > /tmp/$1.build.txt 2>&1 || { echo "build $1 failed"; tail -20 /tmp/$1.build.txt; }
}
build one_core & build one_gpu & build fir_core & build fir_gpu & wait
N=4000
for s in idct fir; do
  f=$OUT/$s.txt
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $f
  if [ $s = idct ]; then cpu=one_core; gpu=one_gpu; else cpu=fir_core; gpu=fir_gpu; fi
  for k in 1 2 3; do
    for app in $cpu $gpu; do
      echo "== $app run $k: --iterations $N --stats=period --pin-cpus" >> $f
      $D/$app/build/app --iterations $N --stats=period --pin-cpus >> $f 2>&1; echo "exit $?" >> $f
    done
  done
  echo "== memcheck $gpu --iterations 40" >> $f
  timeout 100 $CS --tool memcheck --leak-check full $D/$gpu/build/app --iterations 40 2>&1 | tail -4 >> $f
done
