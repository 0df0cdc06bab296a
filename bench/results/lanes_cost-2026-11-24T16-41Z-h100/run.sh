#!/bin/bash
# lanes_cost: before (aa39c8b runtime) and after, one call.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/machine.txt" 2>&1
nproc >> "$OUT/machine.txt"
python3 w/lanes_cost.py run w --out "$OUT/res" 2>&1 | tail -80
