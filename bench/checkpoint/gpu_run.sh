#!/bin/bash
# Checkpoints and restarts of a GPU program on the lent machine (CI has no GPU):
#
#     bench/checkpoint/gpu_run.sh PROJECT OUT
#
# PROJECT: test/generated/checkpoint_gpu.dfg compiled here (`dfgc compile ... -o PROJECT`): its
# running sum keeps its state in device memory (save/restore through the host), its loop's
# delayed tokens live in device memory. Builds it, writes the uninterrupted run's output (and
# times it, with CUDA graphs and without), then runs killed (SIGKILL) at random times and
# restarted from their checkpoints until one ends, in both strategies: each output must equal the
# uninterrupted run's. Ends with compute-sanitizer memcheck on a checkpointed run and a restart.
# Results under OUT: log.txt, the per-round lines "round FLAGS: K kills, output equal|DIFFERS".
set -u
# shellcheck source=bench/gpu_project.sh
. "$(dirname "$0")/../gpu_project.sh"
project=${1:-} out=${2:-}
start_results "$project" "$out" "gpu_run.sh PROJECT OUT"
app=$(build_gpu_project "$project") || exit 1
ck=$out/ck ref=$out/ref.txt
export DFG_CHECKPOINT_OUT=$ref
"$app" --iterations 20000 --stats=period | grep -E "period|throughput"
echo "== the same without CUDA graphs"
"$app" --iterations 20000 --stats=period --no-graphs | grep -E "period|throughput"
echo "== with --checkpoint every 1000"
DFG_CHECKPOINT_OUT=$out/timed.txt "$app" --iterations 20000 --stats=period --checkpoint "$out/timed.ck" |
  grep -E "period|throughput"
export DFG_CHECKPOINT_OUT=$out/out.txt
RANDOM=11
fails=0
for flags in "" "--no-overlap" "--sync=barrier" ""; do
  rm -f "$ck" "$out/out.txt"
  kills=0 restart=()
  while :; do
    delay=$(printf '0.%03d' $((RANDOM % 700 + 200)))
    # shellcheck disable=SC2086
    DFG_PACE_US=100 timeout -s KILL "$delay" "$app" --iterations 8000 $flags "${restart[@]}" \
      --checkpoint "$ck" --checkpoint-every 100 >/dev/null 2>"$out/err.txt" && break
    status=$?
    [ "$status" = 137 ] || { echo "round '$flags': exit $status: $(cat "$out/err.txt")"; fails=1; break; }
    kills=$((kills + 1))
    if [ -e "$ck" ]; then restart=(--restart "$ck"); else restart=(); fi
    if [ $kills -ge 4 ]; then
      # shellcheck disable=SC2086
      "$app" --iterations 8000 $flags "${restart[@]}" >/dev/null 2>"$out/err.txt" || { echo "round '$flags': $(cat "$out/err.txt")"; fails=1; }
      break
    fi
  done
  DFG_CHECKPOINT_OUT=$ref "$app" --iterations 8000 $flags >/dev/null
  if cmp -s "$out/out.txt" "$ref"; then echo "round '$flags': $kills kills, output equal"
  else echo "round '$flags': $kills kills, output DIFFERS"; fails=1; fi
done
echo "== memcheck: a checkpointed run, then its restart"
rm -f "$ck"
timeout 90 compute-sanitizer --tool memcheck "$app" --iterations 300 --checkpoint "$ck" --checkpoint-every 50 2>&1 | tail -3
timeout 90 compute-sanitizer --tool memcheck "$app" --iterations 400 --restart "$ck" 2>&1 | tail -3
echo "fails=$fails"
