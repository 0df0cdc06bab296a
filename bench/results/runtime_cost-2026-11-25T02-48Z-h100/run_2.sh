#!/bin/bash
# The call before (depth.txt): gpu_check and the GPU samples, then runtime_cost.py run over every
# program in one go. Its projects differed from run.sh's: the runtime of that call held the depth
# of a GPU's run-ahead in a constant, kGpuCyclesAhead (dfg/cuda/gpu_probes.hpp; the ring of end
# events of dfg::GpuCycles and each GPU timer's ring of 2 * kGpuCyclesAhead), set to 8 ("after"),
# and copies of gpu_1, gpuk_1 and gpuk_2 with it set to 4 ("ahead4"); "before" is main's runtime,
# whose ring holds 2 cycles. The depth did not pay and is not kept.
set -u
D=.dev/runtime_cost
export PYTHONUNBUFFERED=1
R=/tmp/r; mkdir -p $R  # everything here, one archive back in $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; nvcc --version | tail -1; mpirun --version | head -1; } > $R/machine.txt 2>&1
t0=$(date +%s)
stamp() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a $R/status.txt; }
for p in $D/s/*/; do
  ( cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
    cmake --build $p/build -j 3 >/dev/null 2>$R/build_$(basename $p).err || echo "BUILD FAIL $p" >> $R/status.txt ) &
done
( cd $D/rc && timeout 240 python3 -c "
import sys; from pathlib import Path; sys.path.insert(0, '.')
import runtime_cost, mpi_bench; runtime_cost.build(Path('.').resolve(), mpi_bench.sh, ('cpu', 'ranks', 'gpu'))" > $R/rc_build.log 2>&1 || echo "BUILD FAIL rc" >> $R/status.txt ) &
timeout 200 python3 bench/harness.py run $D/gc --results $R/gpu_check --timeout 60 > $R/gpu_check.log 2>&1
stamp "gpu_check rc=$?"
wait
stamp "builds done"
timeout 120 bash $D/samples.sh > $R/samples.log 2>&1
stamp "samples rc=$?"
timeout 300 python3 $D/rc/runtime_cost.py run $D/rc --out $R/rc --repeats 3 > $R/rc.log 2>&1
stamp "runtime_cost rc=$?"
tar czf $OUT/results.tgz -C /tmp r
cp $R/status.txt $R/rc/summary.txt $R/samples.log $OUT/ 2>/dev/null
