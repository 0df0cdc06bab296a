#!/usr/bin/env bash
# Final main (call 2): the 16 MiB overlap benchmark twice more (2000 iterations a run), the
# runtime's own cost on CPU cores and ranks, and overlap against no overlap on every CPU-only
# mapping (3 runs each).
set -u
F=.dev/final2
R=/tmp/r2; mkdir -p $R
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; mpirun --version | head -1; } > $R/machine.txt 2>&1
t0=$(date +%s)
stamp() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a $R/status.txt; cp $R/status.txt $OUT/; }
( cd $F/rc && timeout 200 python3 -c "
import sys; from pathlib import Path; sys.path.insert(0, '.')
import runtime_cost, mpi_bench; runtime_cost.build(Path('.').resolve(), mpi_bench.sh, ('cpu', 'ranks'))" > $R/rc_build.log 2>&1 || echo "BUILD FAIL rc" >> $R/status.txt ) &
timeout 150 python3 bench/harness.py run $F/ov2 --results $R/overlap_a --timeout 60 > $R/overlap_a.log 2>&1
stamp "overlap a rc=$?"
timeout 100 python3 bench/harness.py run $F/ov2 --results $R/overlap_b --timeout 60 > $R/overlap_b.log 2>&1
stamp "overlap b rc=$?"
cp $R/overlap_a.log $R/overlap_b.log $OUT/
wait
stamp "rc build"
timeout 100 python3 $F/rc/runtime_cost.py run $F/rc --out $R/rc_cpu --repeats 3 --only cpu,ranks > $R/rc_cpu.log 2>&1
stamp "runtime_cost cpu,ranks rc=$?"
cp $R/rc_cpu/summary.txt $OUT/summary_cpu.txt 2>/dev/null
timeout 230 python3 $F/ovs/overlap_vs_serial.py run $F/ovs --out $R/ovs --repeats 3 --seconds 0.25 --budget 100 > $R/ovs.log 2>&1
stamp "overlap_vs_serial rc=$?"
cp $R/ovs.log $OUT/; cp $R/ovs/summary.txt $OUT/summary_ovs.txt 2>/dev/null
tar czf $OUT/results.tgz -C /tmp r2
