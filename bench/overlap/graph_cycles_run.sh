#!/bin/bash
# Several cycles a CUDA graph on the lent machine (CI has no GPU):
#
#     bench/overlap/graph_cycles_run.sh PROJECT OUT
#
# PROJECT: test/generated/graph_cycles.dfg compiled here (`dfgc compile ... -o PROJECT`): a
# stream on one GPU, source to sink, whose sink checks every element of every block and counts
# its firings in device memory. Builds it (warnings as errors), then runs it with one graph a
# cycle (--graph-cycles 1), 2, 3, 8 (the plan's) and 32 cycles a graph, and call by call
# (--no-graphs), at iteration counts that do and do not fill the last graph: each run must check
# every block with no element wrong. Times each way (--stats=period, 3 runs each, interleaved), then
# compute-sanitizer memcheck and racecheck at the default. Results under OUT: log.txt.
set -u
# shellcheck source=bench/gpu_project.sh
. "$(dirname "$0")/../gpu_project.sh"
project=${1:-} out=${2:-}
start_results "$project" "$out" "graph_cycles_run.sh PROJECT OUT"
app=$(build_gpu_project "$project") || exit 1
fails=0
ways=("--graph-cycles=1" "--graph-cycles=2" "--graph-cycles=3" "" "--graph-cycles=32" "--no-graphs")
for n in 1 7 8 9 1003 20000; do
  for flags in "${ways[@]}"; do
    # shellcheck disable=SC2086
    "$app" --iterations $n $flags >"$out/run.txt" 2>&1
    status=$?
    if [ $status = 0 ] && grep -qx "graph_cycles: $n blocks checked, 0 elements wrong" "$out/run.txt"; then :; else
      echo "FAIL --iterations $n $flags: exit $status: $(tail -3 "$out/run.txt")"; fails=1
    fi
  done
done
echo "checked: iterations 1 7 8 9 1003 20000 x {${ways[*]}}, fails=$fails"
echo "== us per iteration (--stats=period --stats-json, 100000 iterations; 3 rounds)"
for round in 1 2 3; do
  for flags in "${ways[@]}"; do
    # shellcheck disable=SC2086
    "$app" --iterations 100000 --stats=period --stats-json "$out/stats.json" $flags >/dev/null 2>&1 &&
      p=$(python3 -c 'import json, sys; print("%.3f" % (json.load(open(sys.argv[1]))["period_s"] * 1e6))' "$out/stats.json") ||
      p=FAIL
    echo "round $round ${flags:-default(8)}: $p us"
  done
done
echo "== memcheck, racecheck (default graphs, 203 iterations)"
timeout 120 compute-sanitizer --tool memcheck "$app" --iterations 203 2>&1 | tail -2
timeout 120 compute-sanitizer --tool racecheck "$app" --iterations 203 2>&1 | tail -2
echo "fails=$fails"
