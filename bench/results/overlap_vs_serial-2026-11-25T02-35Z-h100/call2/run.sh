#!/bin/bash
# Prepared here with: bench/hosts/overlap_vs_serial.py generate w --dfgc DFGC_OF_1BE3211 --before-dfgc DFGC_OF_1BE3211 --only "^(fir_bank_two_hosts|iir_loop_two_hosts_cpu|iir_two_hosts_cpu|migration_two_hosts_.*|multirate_two_hosts_cpu|overlap_(two|three)_hosts_cpu|packets_two_hosts_cpu|hosts_spin_(two|three|four))$",
# then this branch's runtime/include/dfg/mpi/cycle_transfers.hpp copied into every gen/NAME/runtime/dfg/mpi/ (not the .before ones).
# overlap_vs_serial call 2: every multi-rank CPU-only mapping, before (main 1be3211's runtime) and
# after (CycleTransfers::poll leaves direct transfers to wait), the same generated sources,
# overlap and --no-overlap in both sync modes, 3 interleaved runs.
cd "$(dirname "$0")/w"
OUT=${OUT:-/tmp/ovs_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; mpirun --version | head -1; } > "$OUT/machine.txt" 2>&1
python3 overlap_vs_serial.py run . --out "$OUT" --repeats 3 --seconds 0.08 --min-iterations 40 --budget 125 2>&1 | tee "$OUT/log.txt"
