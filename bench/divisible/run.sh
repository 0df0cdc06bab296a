#!/usr/bin/env bash
# One device call: build divisible_bench, run it on every visible GPU, report.
#   run.sh OUT_DIR [divisible_bench args...]
# Writes OUT_DIR/results.jsonl (raw), table.txt, table.md, fig9.png and bench.log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current \
  --format=csv >"$out/bench.log" 2>&1 || true
bin=$("$here/build.sh" /tmp/divisible_build) || exit 1
# The bench prints one line per configuration as it goes: a run cut short still reports.
timeout "${BENCH_TIMEOUT:-230}" "$bin" "$@" >"$out/results.jsonl" 2>>"$out/bench.log"
echo "divisible_bench exit status $?" >>"$out/bench.log"
python3 "$here/report.py" "$out/results.jsonl" --table "$out/table.txt" \
  --markdown "$out/table.md" --png "$out/fig9.png"
