#!/usr/bin/env bash
# The runs of a program of test/generated/stream_end.dfg whose reader ends the stream:
#   stream_end_runs.sh APP WORK MODE...
# For each MODE (the program's flags, "" for none): the reader ends the stream at iteration 0,
# 1, 7 and 250 of --iterations 1000, with ctx.end_stream() and with ctx.end_stream_before();
# each run exits 0, its sink checked every block of exactly the iterations before the end
# (finish() says how many) and the program reports the end; an end past --iterations changes
# nothing and is not reported. Used by test/build_generated.sh (CPU cores) and on a GPU
# (bench/stream_end/gpu_run.sh).
set -euo pipefail
app=$1 work=$2
shift 2
fail() { echo "FAIL: $*" >&2; exit 1; }
for mode in "$@"; do
  for end in 0 1 7 250; do
    # shellcheck disable=SC2086
    DFG_END_AT=$end "$app" --iterations 1000 $mode >"$work/out.txt" 2>"$work/err.txt" ||
      fail "end at $end, '$mode': exit $?: $(cat "$work/err.txt")"
    grep -qx "check: $((end + 1)) iterations, all equal" "$work/out.txt" ||
      fail "end at $end, '$mode': $(cat "$work/out.txt" "$work/err.txt")"
    grep -qx "end of stream: node r (Reader) @ A.c0 ended the stream after iteration $end (of --iterations 1000)" \
      "$work/err.txt" || fail "end at $end, '$mode': the report: $(cat "$work/err.txt")"
    # shellcheck disable=SC2086
    DFG_END_BEFORE=1 DFG_END_AT=$end "$app" --iterations 1000 $mode >"$work/out.txt" 2>"$work/err.txt" ||
      fail "end before $end, '$mode': exit $?: $(cat "$work/err.txt")"
    grep -qx "check: $end iterations, all equal" "$work/out.txt" ||
      fail "end before $end, '$mode': $(cat "$work/out.txt" "$work/err.txt")"
  done
  # shellcheck disable=SC2086
  DFG_END_AT=99 "$app" --iterations 60 $mode >"$work/out.txt" 2>"$work/err.txt" ||
    fail "end past the run, '$mode': exit $?: $(cat "$work/err.txt")"
  grep -qx "check: 60 iterations, all equal" "$work/out.txt" || fail "$(cat "$work/out.txt")"
  [[ ! -s $work/err.txt ]] || fail "an end past the run reported: $(cat "$work/err.txt")"
  echo "ok: '$mode'"
done
