#!/bin/bash
# overlap_vs_serial call 1: every CPU-only mapping (main 1be3211's dfgc), overlap and --no-overlap
# in both sync modes; MPI calls counted; multirate/two_hosts_cpu diagnosed (--stats per transfer,
# --trace, the comm thread, no polls between firings). Prepared here with
#   bench/hosts/overlap_vs_serial.py generate w --dfgc DFGC_OF_1BE3211
# plus three variants added to w/gen and w/mappings.json by hand:
#   multirate_two_hosts_cpu_nopoll: the generated rank_*.cpp without their `net_.poll();` lines;
#   {multirate,iir,packets}_two_hosts_cpu_rt: the generated project with this branch's
#   runtime/include/dfg/mpi/cycle_transfers.hpp (poll() leaves direct transfers to wait()).
cd "$(dirname "$0")/w"
OUT=${OUT:-/tmp/ovs_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; mpirun --version | head -1; } > "$OUT/machine.txt" 2>&1
python3 overlap_vs_serial.py run . --out "$OUT" --repeats 3 --seconds 0.15 --budget 240 --count 2>&1 | tee "$OUT/log.txt"
unset OMPI_MCA_btl_vader_single_copy_mechanism
MR="mpirun --allow-run-as-root --bind-to none -np 2"
{
for v in multirate_two_hosts_cpu multirate_two_hosts_cpu_nopoll multirate_two_hosts_cpu_rt; do
  for s in "" "--no-overlap"; do
    echo "### $v $s --stats, 100000 iterations"
    $MR gen/$v/build/app --iterations 100000 --stats $s 2>&1
    echo "### $v $s DFG_MPI_DIRECT=0"
    DFG_MPI_DIRECT=0 $MR -x DFG_MPI_DIRECT gen/$v/build/app --iterations 100000 --stats=period $s 2>&1 | grep throughput
  done
done
mkdir -p tr
for s in overlap no_overlap; do
  f=""; [ $s = no_overlap ] && f=--no-overlap
  $MR gen/multirate_two_hosts_cpu/build/app --iterations 3000 --trace tr/$s.json $f 2>&1 | tail -2
done
tar czf "$OUT/traces.tar.gz" tr
} > "$OUT/diag.txt" 2>&1
echo done
