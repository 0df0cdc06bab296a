#!/bin/bash
# A stream its source ends, with a GPU on the way, on the lent machine (CI has no GPU):
#
#     bench/stream_end/gpu_run.sh PROJECT OUT
#
# PROJECT: test/generated/stream_end_gpu.dfg compiled here (`dfgc compile ... -o PROJECT`): the
# reader on a CPU core ends the stream; the adder and the scaler run on the GPU, whose cycles are
# CUDA graphs; the sink on the CPU checks every block and says in finish() how many it checked.
# Builds it (warnings as errors), then runs test/stream_end_runs.sh (ends at iterations 0, 1, 7
# and 250, after and before the iteration) with graphs, --sync=barrier, --no-overlap and
# --no-graphs, then compute-sanitizer memcheck and racecheck on a run that ends at iteration 37.
# Results under OUT: log.txt.
set -u
# shellcheck source=bench/gpu_project.sh
. "$(dirname "$0")/../gpu_project.sh"
project=${1:-} out=${2:-}
start_results "$project" "$out" "stream_end/gpu_run.sh PROJECT OUT"
app=$(build_gpu_project "$project") || exit 1
fails=0
bash "$(dirname "$0")/../../test/stream_end_runs.sh" "$app" "$out" "" "--sync=barrier" \
  "--no-overlap" "--no-graphs" || fails=1
echo "== memcheck, racecheck (the stream ended at iteration 37 of 1000)"
for tool in memcheck racecheck; do
  DFG_END_AT=37 timeout 120 compute-sanitizer --tool $tool "$app" --iterations 1000 >"$out/$tool.txt" 2>&1 ||
    fails=1
  grep -x "check: 38 iterations, all equal" "$out/$tool.txt" || fails=1
  tail -1 "$out/$tool.txt"
done
echo "fails=$fails"
