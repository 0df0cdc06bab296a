#!/bin/bash
# Direct small tokens: before (b6b6e4b's runtime) and after, the same generated sources,
# interleaved repeats, one call. CSV rows: section,program,ranks,version,strategy,param,run,period_us
# Versions: before; after (the CPU worker posts its windowed transfers and barriers itself);
# after_handoff (DFG_MPI_DIRECT=0: every call on the comm thread, MPI_THREAD_MULTIPLE asked);
# after_ser (DFG_MPI_LANES=1: MPI_THREAD_SERIALIZED, so handed over too).
cd "$(dirname "$0")/w"
LIMIT=${LIMIT:-240}
NP_MAX=${NP_MAX:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_btl_vader_single_copy_mechanism
OUT=${OUT:-/tmp/md_out}; mkdir -p "$OUT"
t0=$(date +%s)
left() { [ $(( $(date +%s) - t0 )) -lt $LIMIT ]; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no GPU"; nproc; mpirun --version | head -1; } > "$OUT/machine.txt" 2>&1
J=$(( $(nproc) > 8 ? 2 : 1 ))
for p in gen/*; do
  (cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ >/dev/null 2>&1 &&
   cmake --build $p/build -j $J >/dev/null 2>&1 || echo "BUILD FAILED $p") &
done
mpicxx -std=c++20 -O2 -I runtime_include mpi_progress.cpp -o mpi_progress -pthread || echo "BUILD FAILED mpi_progress"
wait
echo "built in $(( $(date +%s) - t0 )) s" | tee "$OUT/build.txt"
MR=${MR:-"mpirun --allow-run-as-root --bind-to none"}
CSV="$OUT/runs.csv"
echo "section,program,ranks,version,strategy,param,run,period_us" > "$CSV"
strat_flags() { case $1 in overlap) ;; overlap_barrier) echo --sync=barrier;; no_overlap) echo --no-overlap;;
  no_overlap_barrier) echo --no-overlap --sync=barrier;; esac; }
# one(section program np version strategy param run envs... -- args...)
one() {
  local sec=$1 prog=$2 np=$3 v=$4 s=$5 param=$6 r=$7; shift 7
  local envs=(X_=1) dir=gen/$prog
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  case $v in before) dir=gen/$prog.before;; after_handoff) envs+=(DFG_MPI_DIRECT=0);; after_ser) envs+=(DFG_MPI_LANES=1);;
    after_w0) envs+=(DFG_MPI_WINDOW=0);; esac
  local txt p
  txt=$(env "${envs[@]}" timeout 30 $MR -np $np $dir/build/app "$@" $(strat_flags $s) --stats=period 2>&1)
  p=$(echo "$txt" | awk '/^throughput/{print 1e6/$2}' | sort -g | tail -1)
  if [ -z "$p" ]; then echo "FAILED $sec $prog $v $s $param: $(echo "$txt" | tail -3)"; p=nan; fi
  echo "$sec,$prog,$np,$v,$s,$param,$r,$p" >> "$CSV"
}
name_of() { case $1 in 2) echo spin_two;; 3) echo spin_three;; 4) echo spin_four;; esac; }
echo "## floor"; for r in 1 2 3; do $MR -np 2 ./mpi_progress inline 1 0 50000 2>&1 | grep -o 'period_us=[0-9.]*'; done | tee "$OUT/floor.txt"
# A. cost per cycle: empty firings, 1-byte tokens
for r in 1 2 3; do
  left || break
  for np in $(seq 2 $NP_MAX); do
    for v in before after after_handoff after_ser; do
      for s in overlap overlap_barrier no_overlap no_overlap_barrier; do
        [ $v = after_ser ] && [ ${s#no_} != $s ] && continue
        one cost $(name_of $np) $np $v $s 1 $r -- --iterations 30000 --set S=1
      done
    done
  done
done
echo "cost done at $(( $(date +%s) - t0 )) s"
# B. the window's size limit: S-byte tokens, empty firings, overlap; window up to 1 MiB or none
for r in 1 2 3; do
  left || break
  for np in 3 2; do
    [ $np -gt $NP_MAX ] && continue
    [ $np = 2 ] && [ $r = 3 ] && continue
    for S in 1024 4096 8192 16384 32768 65536 131072; do
      for v in after after_w0; do
        one size $(name_of $np) $np $v overlap $S $r DFG_MPI_WINDOW_BYTES=1048576 -- --iterations 10000 --set S=$S
      done
    done
  done
done
echo "size done at $(( $(date +%s) - t0 )) s"
# C. CPU-only samples of a few-us period on two hosts
for r in 1 2; do
  left || break
  for prog in iir_two_hosts_cpu multirate_two_hosts_cpu packets_two_hosts_cpu; do
    for v in before after; do for s in overlap overlap_barrier no_overlap; do
      one sample $prog 2 $v $s - $r -- --iterations 20000; done; done
  done
done
echo "samples done at $(( $(date +%s) - t0 )) s"
# D. 4 MiB tokens (not windowed), empty firings, 3 ranks
for r in 1 2; do
  left || break
  [ 3 -gt $NP_MAX ] && break
  for v in before after; do for s in overlap overlap_barrier no_overlap; do
    one large spin_three 3 $v $s 0 $r -- --iterations 200; done; done
done
echo "all done at $(( $(date +%s) - t0 )) s"
grep -c nan "$CSV"
