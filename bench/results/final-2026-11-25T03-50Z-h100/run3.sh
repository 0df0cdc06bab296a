#!/usr/bin/env bash
# Final main (call 3): overlap against no overlap on every CPU-only mapping (3 runs each).
set -u
F=.dev/final2
R=/tmp/r3; mkdir -p $R
export PYTHONUNBUFFERED=1
{ date -u; nproc; mpirun --version | head -1; } > $R/machine.txt 2>&1
timeout 540 python3 $F/ovs/overlap_vs_serial.py run $F/ovs --out $R/ovs --repeats 3 --seconds 0.2 --budget 270 > $R/ovs.log 2>&1
echo "overlap_vs_serial rc=$?" | tee $R/status.txt
cp $R/ovs.log $OUT/; cp $R/ovs/summary.txt $OUT/summary_ovs.txt 2>/dev/null
tar czf $OUT/results.tgz -C /tmp r3
