#!/bin/bash
# quick check of the graph path on the GPU
set -u
D=build/suite_g
nvidia-smi --query-gpu=name --format=csv,noheader
for p in one_gpu-NB=5 iir-rule gpu_mapped_h2 multirate-rule; do
  (cmake -S $D/$p -B $D/$p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native > /dev/null && cmake --build $D/$p/build -j 4 2>&1 | grep -iE "warning|error" ; echo "build $p: $?") &
done
wait
for p in one_gpu-NB=5 iir-rule gpu_mapped_h2 multirate-rule; do
  app=$(find $D/$p/build -name app -type f | head -1)
  for f in "" "--no-graphs"; do
    echo "== $p $f"; timeout 60 $app --iterations 4000 --stats=period $f 2>&1 | tail -4; echo "rc=$?"
  done
done
app=$(find $D/one_gpu-NB=5/build -name app -type f | head -1)
echo "== memcheck one_gpu"; timeout 120 compute-sanitizer --tool memcheck $app --iterations 40 2>&1 | tail -4
app=$(find $D/iir-rule/build -name app -type f | head -1)
echo "== memcheck iir"; timeout 120 compute-sanitizer --tool memcheck $app --iterations 40 2>&1 | tail -4
echo "== racecheck iir"; timeout 120 compute-sanitizer --tool racecheck $app --iterations 40 2>&1 | tail -4
