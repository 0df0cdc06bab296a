#!/bin/bash
# The GPU samples whose small tokens dfgc maps into host memory (packets: bounded tokens; iir: a
# delay line and initial tokens on the GPU; multirate: rates; migration: a node moving between the
# GPU and a CPU core), each run in both strategies and both sync modes; packets also with --stats
# and --trace, and with a length over the capacity in iteration 5 (the abort path).
R=${R:-/tmp/r}
D=.dev/runtime_cost/s
fails=0
run() {  # name, then the command
  local name=$1; shift
  if "$@" >"$R/samples/$name.txt" 2>&1; then echo "ok   $name"; else echo "FAIL $name: $(tail -3 "$R/samples/$name.txt")"; fails=$((fails + 1)); fi
}
mkdir -p "$R/samples"
for strategy in "" --no-overlap; do
  for sync in neighbours barrier; do
    tag="${strategy:-overlap}-$sync"
    run "packets$tag" bash -c "$D/packets/build/app --iterations 1000 $strategy --sync=$sync | grep -x 'packets checked: 1000, 128308 bytes'"
    run "iir$tag" $D/iir/build/app --iterations 2000 $strategy --sync=$sync
    run "multirate$tag" $D/multirate/build/app --iterations 2000 $strategy --sync=$sync
    for move in "" g:A.c1@700 g:A.c1@0; do
      run "migration$tag${move:+-$move}" $D/migration/build/app --iterations 2000 $strategy --sync=$sync ${move:+--migrate $move} --stats
    done
  done
done
run packets-stats-trace bash -c "$D/packets/build/app --iterations 300 --stats --trace $R/samples/packets.trace.json | grep '^packets checked: 300,'"
if $D/packets_over/build/app --iterations 100 >"$R/samples/over.txt" 2>&1; then
  echo "FAIL packets_over: a length over the capacity passed"; fails=$((fails + 1))
elif grep -q "iteration 5: output 'out': length 257 is over the capacity 256" "$R/samples/over.txt"; then
  echo "ok   packets_over (stopped: $(grep error "$R/samples/over.txt" | head -1))"
else
  echo "FAIL packets_over: $(cat "$R/samples/over.txt")"; fails=$((fails + 1))
fi
echo "samples: $fails failed"
exit $((fails > 0))
