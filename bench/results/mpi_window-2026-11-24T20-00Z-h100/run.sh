#!/bin/bash
# The window of small tokens: before (714b31d's runtime) and after, the same generated sources,
# interleaved repeats, one call. CSV rows: section,program,ranks,version,strategy,param,run,period_us
cd "$(dirname "$0")/w"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_btl_vader_single_copy_mechanism
t0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; mpirun --version | head -1; } > "$OUT/machine.txt" 2>&1
for p in gen/*; do
  (cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null 2>&1 &&
   cmake --build $p/build -j 2 >/dev/null 2>&1 || echo "BUILD FAILED $p") &
done
mpicxx -std=c++20 -O2 -I runtime_include mpi_progress.cpp -o mpi_progress -pthread || echo "BUILD FAILED mpi_progress"
wait
echo "built in $(( $(date +%s) - t0 )) s"
MR="mpirun --allow-run-as-root --bind-to none"
CSV="$OUT/runs.csv"
echo "section,program,ranks,version,strategy,param,run,period_us" > "$CSV"
strat_flags() { case $1 in overlap) ;; overlap_barrier) echo --sync=barrier;; no_overlap) echo --no-overlap;;
  no_overlap_barrier) echo --no-overlap --sync=barrier;; esac; }
# one(section program np version strategy param run envs... -- args...)
one() {
  local sec=$1 prog=$2 np=$3 v=$4 s=$5 param=$6 r=$7; shift 7
  local envs=() dir=gen/$prog
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  case $v in before) dir=gen/$prog.before;; after_w0) envs+=(DFG_MPI_WINDOW=0);; after_ser) envs+=(DFG_MPI_LANES=1);; esac
  local txt
  txt=$(env "${envs[@]}" timeout 30 $MR -np $np $dir/build/app "$@" $(strat_flags $s) --stats=period 2>&1)
  local p
  p=$(echo "$txt" | awk '/^throughput/{print 1e6/$2}' | sort -g | tail -1)
  if [ -z "$p" ]; then echo "FAILED $sec $prog $v $s $param: $(echo "$txt" | tail -3)"; p=nan; fi
  echo "$sec,$prog,$np,$v,$s,$param,$r,$p" >> "$CSV"
}
echo "## floor"; for r in 1 2 3; do $MR -np 2 ./mpi_progress inline 1 0 50000 2>&1 | grep -o 'period_us=[0-9.]*'; done | tee "$OUT/floor.txt"
# A. cost per cycle: empty firings, 1-byte tokens
for r in 1 2 3 4; do
  for np in 2 3 4; do
    name=spin_$( [ $np = 2 ] && echo two || ([ $np = 3 ] && echo three || echo four))
    for v in before after after_w0 after_ser; do
      for s in overlap overlap_barrier; do one cost $name $np $v $s 1 $r -- --iterations 30000 --set S=1; done
    done
    if [ $r -le 3 ]; then for v in before after; do for s in no_overlap no_overlap_barrier; do
      one cost $name $np $v $s 1 $r -- --iterations 30000 --set S=1; done; done; fi
  done
done
echo "cost done at $(( $(date +%s) - t0 )) s"
# D. CPU-only samples of a few-us period
for r in 1 2 3; do
  for prog in iir_two_hosts_cpu multirate_two_hosts_cpu packets_two_hosts_cpu overlap_two_hosts_cpu; do
    its=20000; [ $prog = overlap_two_hosts_cpu ] && its=3000
    for v in before after; do for s in overlap overlap_barrier no_overlap; do
      one sample $prog 2 $v $s - $r -- --iterations $its; done; done
  done
done
echo "samples done at $(( $(date +%s) - t0 )) s"
# C. 4 MiB tokens, firings of F us
for r in 1 2 3; do
  for np in 2 3; do
    name=spin_$( [ $np = 2 ] && echo two || echo three)
    for f in 0 251; do for v in before after; do for s in overlap overlap_barrier no_overlap; do
      one sweep $name $np $v $s $f $r DFG_BENCH_FIRE_US=$f -- --iterations 200; done; done; done
  done
done
echo "sweep done at $(( $(date +%s) - t0 )) s"
for s in overlap no_overlap; do
  timeout 30 $MR -np 3 gen/spin_three/build/app --iterations 200 --stats $(strat_flags $s) > "$OUT/three_f0_${s}_stats.txt" 2>&1
done
# B. the window's size limit: spin_three, empty firings, S bytes, window or not
for r in 1 2 3; do for S in 1024 4096 16384; do for v in after after_w0; do
  one size spin_three 3 $v overlap $S $r -- --iterations 20000 --set S=$S; done; done; done
echo "all done at $(( $(date +%s) - t0 )) s"
grep -c nan "$CSV"
