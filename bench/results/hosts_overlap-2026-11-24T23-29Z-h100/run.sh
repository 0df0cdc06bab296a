#!/usr/bin/env bash
# The overlap sweep before (gen/*.before: main's dfgc) and after, side by side, in one call.
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT:-out}
mkdir -p "$out"
{ date -u; nproc; mpirun --version | head -1; env | grep -i ompi_mca || true; lscpu | grep -E 'Model name|L3'; } > "$out/machine.txt" 2>&1 || true
python3 overlap_sweep.py run . --out "$out/three" --sections 2 --ranks 3 --repeats 3 --fires 0,0.25,0.5,1,2 \
  --cases overlap,overlap_one_lane,no_overlap
python3 overlap_sweep.py run . --out "$out/two" --no-build --sections 2 --ranks 2 --repeats 2 --fires 0,0.5,1,2 \
  --cases overlap,no_overlap
