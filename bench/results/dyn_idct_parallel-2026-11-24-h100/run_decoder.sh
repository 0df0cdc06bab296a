#!/bin/bash
# samples/dyn_idct on one CPU core (dyn_idct.dfg), on the GPU with sequential IDCT steps
# (one_gpu.dfg) and with the IDCT passes as parallel actions (parallel_gpu.dfg), at B = 4 and
# B = 64 blocks an iteration: built, run in both strategies (every pixel checked by the sink),
# timed side by side; results under $OUT.
set -u
D=.dev/par_firing
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
build() {
  { cmake -S $D/$1 -B $D/$1/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$NVCC &&
    cmake --build $D/$1/build -j 3; } > $OUT/build_$1.txt 2>&1 || { echo "build $1 failed"; tail -20 $OUT/build_$1.txt; }
}
start=$(date +%s)
for a in cpu4 seq4 par4 cpu64 seq64 par64; do build $a & done; wait
echo "builds: $(( $(date +%s) - start )) s"
f=$OUT/runs.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $f
for k in 1 2; do
  for b in 4 64; do
    if [ $b = 4 ]; then n=2000; else n=200; fi
    for s in "" --no-overlap; do
      for a in cpu$b seq$b par$b; do
        echo "== $a run $k: --iterations $n ${s:-(overlap)} --stats=period --pin-cpus" >> $f
        timeout 60 $D/$a/build/app --iterations $n $s --stats=period --pin-cpus >> $f 2>&1; echo "exit $?" >> $f
      done
    done
  done
done
echo "runs: $(( $(date +%s) - start )) s"
for a in par4 par64; do
  echo "== memcheck $a --iterations 20" >> $f
  timeout 60 $CS --tool memcheck --leak-check full $D/$a/build/app --iterations 20 2>&1 | tail -3 >> $f
  echo "== racecheck $a --iterations 5" >> $f
  timeout 60 $CS --tool racecheck $D/$a/build/app --iterations 5 2>&1 | tail -3 >> $f
done
echo "all: $(( $(date +%s) - start )) s"
grep -E "^==|period|checked|exit|ERROR SUMMARY|RACECHECK|error" $f | head -150
