#!/usr/bin/env bash
# Final main on one GPU (call 1): gpu_check, every GPU delay and sample program in four modes with
# its output checked, the 16 MiB overlap benchmark (5 points), the runtime's own cost on a GPU
# (runtime_cost.py, before: 1be3211's runtime).
set -u
F=.dev/final2
R=/tmp/r; mkdir -p $R
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; nvcc --version | tail -1; mpirun --version | head -1; } > $R/machine.txt 2>&1
t0=$(date +%s)
stamp() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a $R/status.txt; cp $R/status.txt $OUT/; }
for p in $F/s/*/; do
  ( cmake -S $p -B $p/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
    cmake --build $p/build -j 2 >/dev/null 2>$R/build_$(basename $p).err || echo "BUILD FAIL $p" >> $R/status.txt ) &
done
( cd $F/rc && timeout 240 python3 -c "
import sys; from pathlib import Path; sys.path.insert(0, '.')
import runtime_cost, mpi_bench; runtime_cost.build(Path('.').resolve(), mpi_bench.sh, ('gpu',))" > $R/rc_build.log 2>&1 || echo "BUILD FAIL rc" >> $R/status.txt ) &
timeout 200 python3 bench/harness.py run $F/gc --results $R/gpu_check --timeout 60 > $R/gpu_check.log 2>&1
stamp "gpu_check rc=$?"
cp $R/gpu_check.log $OUT/
wait
stamp "builds done"
S=$F/s; fails=0; mkdir -p $R/samples
run() { local name=$1; shift
  if "$@" >"$R/samples/$name.txt" 2>&1; then echo "ok   $name $(grep -o 'throughput: [0-9.]* iterations/s' $R/samples/$name.txt | head -1)"; else echo "FAIL $name: $(tail -3 $R/samples/$name.txt)"; fails=$((fails+1)); fi; }
{
for strategy in "" --no-overlap; do for sync in neighbours barrier; do
  tag="${strategy:-overlap}-$sync"; a="$strategy --sync=$sync --stats=period"
  run "packets-$tag" bash -c "$S/packets/build/app --iterations 1000 $strategy --sync=$sync | grep -x 'packets checked: 1000, 128308 bytes'"
  run "iir-$tag" $S/iir/build/app --iterations 2000 $a
  run "multirate-$tag" $S/multirate/build/app --iterations 2000 $a
  for move in "" g:A.c1@700 g:A.c1@0; do run "migration-$tag${move:+-$move}" $S/migration/build/app --iterations 2000 $a ${move:+--migrate $move}; done
  run "alone_n1-$tag" $S/alone_n1/build/app --iterations 10000 $a
  run "check_n1-$tag" $S/check_n1/build/app --iterations 5000 $a
  run "check_n1024-$tag" $S/check_n1024/build/app --iterations 500 $a
  run "probe_n1-$tag" $S/probe_n1/build/app --iterations 5000 $a
  run "probe_n64-$tag" $S/probe_n64/build/app --iterations 2000 $a
done; done
run packets-stats-trace bash -c "$S/packets/build/app --iterations 300 --stats --trace $R/samples/packets.trace.json | grep '^packets checked: 300,'"
if $S/packets_over/build/app --iterations 100 >$R/samples/over.txt 2>&1; then echo "FAIL packets_over passed"; fails=$((fails+1));
elif grep -q "iteration 5: output 'out': length 257 is over the capacity 256" $R/samples/over.txt; then echo "ok   packets_over (stopped as it must)"; else echo "FAIL packets_over: $(cat $R/samples/over.txt)"; fails=$((fails+1)); fi
echo "samples: $fails failed"
} > $R/samples.txt 2>&1
stamp "samples"
cp $R/samples.txt $OUT/
timeout 200 python3 bench/harness.py run $F/ov --results $R/overlap --timeout 60 > $R/overlap.log 2>&1
stamp "overlap rc=$?"
cp $R/overlap.log $OUT/
timeout 170 python3 $F/rc/runtime_cost.py run $F/rc --out $R/rc_gpu --repeats 3 --only gpu > $R/rc_gpu.log 2>&1
stamp "runtime_cost gpu rc=$?"
cp $R/rc_gpu/summary.txt $OUT/summary_gpu.txt 2>/dev/null
tar czf $OUT/results.tgz -C /tmp r
