#!/bin/bash
# The call that made cost.txt and overlap_*.log (the device's repository root, this folder's
# projects under .dev/h14gpu: w from `bench/overlap/gpu_cycle.py generate w --before
# before/runtime/include`, ov from `bench/harness.py generate overlap ov --set nb="5 20 160 640
# 2560" --set gpus=1` with this checkout's runtime/include, ov.before the same with 714b31d's).
set -u
D=.dev/h14gpu
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; nvcc --version | tail -1; } > $OUT/machine.txt 2>&1
timeout 200 python3 $D/w/gpu_cycle.py run $D/w --out $OUT/cost
timeout 150 python3 bench/harness.py run $D/ov --results $OUT/overlap --timeout 60 > $OUT/overlap.log 2>&1
timeout 120 python3 bench/harness.py run $D/ov.before --results $OUT/overlap_before --timeout 60 > $OUT/overlap_before.log 2>&1
