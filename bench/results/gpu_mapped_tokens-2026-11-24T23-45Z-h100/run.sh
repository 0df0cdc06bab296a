#!/bin/bash
# One call on the GPU machine (repository root): token checks of mapped tokens, the GPU samples,
# the cycle cost before/after with the size sweep, and the 16 MiB overlap benchmark.
set -u
D=.dev/zc_tokens
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; nvcc --version | tail -1; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
stamp() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/status.txt; }
for p in $D/s/*/; do
  ( cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
    cmake --build $p/build -j 3 >/dev/null 2>$OUT/build_$(basename $p).err || echo "BUILD FAIL $p" >> $OUT/status.txt ) &
done
( cd $D/w && timeout 200 python3 -c "
import sys; from pathlib import Path; sys.path.insert(0, '.')
import gpu_cycle; gpu_cycle.build(Path('.').resolve())" > $OUT/cost_build.log 2>&1 || echo "BUILD FAIL cost" >> $OUT/status.txt ) &
timeout 150 python3 bench/harness.py run $D/gc --results $OUT/gpu_check --timeout 60 > $OUT/gpu_check.log 2>&1
stamp "gpu_check rc=$?"
wait
stamp "builds done"
timeout 60 bash $D/samples.sh > $OUT/samples.log 2>&1
stamp "samples rc=$?"
timeout 120 python3 $D/w/gpu_cycle.py run $D/w --out $OUT/cost > $OUT/cost.log 2>&1
stamp "cost rc=$?"
timeout 90 python3 bench/harness.py run $D/ov --results $OUT/overlap --timeout 60 > $OUT/overlap.log 2>&1
stamp "overlap rc=$?"
