#!/bin/bash
# One call on the GPU machine (the main checkout's root): gpu_check (the overlap sample at N = 64:
# tokens copied on three streams) and the GPU samples with this runtime, then runtime_cost.py run
# over the projects generated here into .dev/runtime_cost/rc (before: main's runtime), CPUs and
# ranks (3 rounds), then the GPU programs (4 rounds).
set -u
D=.dev/runtime_cost
export PYTHONUNBUFFERED=1
R=/tmp/r; mkdir -p $R  # everything here, one archive back in $OUT; the summaries as they come
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; nvcc --version | tail -1; mpirun --version | head -1; } > $R/machine.txt 2>&1
t0=$(date +%s)
stamp() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a $R/status.txt; cp $R/status.txt $OUT/; }
for p in $D/s/*/; do
  ( cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
    cmake --build $p/build -j 3 >/dev/null 2>$R/build_$(basename $p).err || echo "BUILD FAIL $p" >> $R/status.txt ) &
done
( cd $D/rc && timeout 240 python3 -c "
import sys; from pathlib import Path; sys.path.insert(0, '.')
import runtime_cost, mpi_bench; runtime_cost.build(Path('.').resolve(), mpi_bench.sh, ('cpu', 'ranks', 'gpu'))" > $R/rc_build.log 2>&1 || echo "BUILD FAIL rc" >> $R/status.txt ) &
timeout 200 python3 bench/harness.py run $D/gc --results $R/gpu_check --timeout 60 > $R/gpu_check.log 2>&1
stamp "gpu_check rc=$?"
cp $R/gpu_check.log $OUT/
wait
stamp "builds done"
timeout 60 bash $D/samples.sh > $R/samples.log 2>&1
stamp "samples rc=$?"
cp $R/samples.log $OUT/
timeout 90 python3 $D/rc/runtime_cost.py run $D/rc --out $R/rc_cpu --repeats 3 --only cpu,ranks > $R/rc_cpu.log 2>&1
stamp "runtime_cost cpu,ranks rc=$?"
cp $R/rc_cpu/summary.txt $OUT/summary_cpu.txt
timeout 200 python3 $D/rc/runtime_cost.py run $D/rc --out $R/rc_gpu --repeats 4 --only gpu > $R/rc_gpu.log 2>&1
stamp "runtime_cost gpu rc=$?"
cp $R/rc_gpu/summary.txt $OUT/summary_gpu.txt
tar czf $OUT/results.tgz -C /tmp r
