#!/bin/bash
# --sync=barrier's cost per cycle: before (1be3211's runtime: MPI_Ibarrier polled by the CPU
# worker) and after (the node's shared-memory barrier, dfg/mpi/barrier.hpp), the same generated
# sources (bench/hosts/spin_{two,three,four}.dfg: empty firings, 1-byte tokens, one CPU PE per
# rank), interleaved repeats, one call; the floor (bench/hosts/mpi_barrier.cpp) first and last.
# Versions: before; after; after_ibarrier (DFG_MPI_BARRIER=ibarrier: the after runtime meeting by
# MPI_Ibarrier as before). CSV rows: program,ranks,version,strategy,run,period_us
cd "$(dirname "$0")/w"
LIMIT=${LIMIT:-230}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=${OUT:-/tmp/bc_out}; mkdir -p "$OUT"
t0=$(date +%s)
left() { [ $(( $(date +%s) - t0 )) -lt $LIMIT ]; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no GPU"; nproc; mpirun --version | head -1; } > "$OUT/machine.txt" 2>&1
for p in gen/*; do
  (cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null 2>&1 &&
   cmake --build $p/build -j 2 >/dev/null 2>&1 || echo "BUILD FAILED $p") &
done
mpicxx -std=c++20 -O2 mpi_barrier.cpp -o mpi_barrier || echo "BUILD FAILED mpi_barrier"
wait
echo "built in $(( $(date +%s) - t0 )) s" | tee "$OUT/build.txt"
MR="mpirun --allow-run-as-root --oversubscribe --bind-to none"
floor() { for np in 2 3 4; do timeout 60 $MR -np $np ./mpi_barrier 100000 3 2>&1; done; }
echo "## floor, first" > "$OUT/floor.txt"; floor >> "$OUT/floor.txt"
CSV="$OUT/runs.csv"
echo "program,ranks,version,strategy,run,period_us" > "$CSV"
strat_flags() { case $1 in overlap) ;; overlap_barrier) echo --sync=barrier;; esac; }
name_of() { case $1 in 2) echo spin_two;; 3) echo spin_three;; 4) echo spin_four;; esac; }
one() {  # one NP VERSION STRATEGY RUN
  local np=$1 v=$2 s=$3 r=$4 prog dir envs=(X_=1) txt p
  prog=$(name_of $np); dir=gen/$prog
  case $v in before) dir=gen/$prog.before;; after_ibarrier) envs+=(DFG_MPI_BARRIER=ibarrier);; esac
  txt=$(env "${envs[@]}" timeout 30 $MR -np $np $dir/build/app --iterations 30000 --set S=1 $(strat_flags $s) --stats=period 2>&1)
  p=$(echo "$txt" | awk '/^throughput/{print 1e6/$2}' | sort -g | tail -1)
  if [ -z "$p" ]; then echo "FAILED $prog $v $s: $(echo "$txt" | tail -3)"; p=nan; fi
  echo "$prog,$np,$v,$s,$r,$p" >> "$CSV"
}
for r in 1 2 3 4 5 6 7; do
  left || break
  for np in 2 3 4; do for v in before after after_ibarrier; do for s in overlap overlap_barrier; do
    one $np $v $s $r
  done; done; done
done
echo "cost done at $(( $(date +%s) - t0 )) s"
# --stats and --trace with the shared-memory barrier: both ranks write their tables and files.
$MR -np 3 gen/spin_three/build/app --iterations 1000 --set S=1 --sync=barrier --stats --trace "$OUT/t.json" > "$OUT/stats_trace.txt" 2>&1
echo "stats/trace exit $?, trace files: $(ls "$OUT" | grep -c '^t\..*json$')" | tee -a "$OUT/stats_trace.txt"
rm -f "$OUT"/t.*.json
echo "## floor, last" >> "$OUT/floor.txt"; floor >> "$OUT/floor.txt"
echo "all done at $(( $(date +%s) - t0 )) s"
grep -c nan "$CSV"
