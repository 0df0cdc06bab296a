#!/usr/bin/env bash
# Here (where dfgc runs): the projects run.sh builds on the GPU machine. BEFORE: main's dfgc
# (1be3211), AFTER: this branch's; SRC: this branch's checkout.
set -euo pipefail
D=$(cd "$(dirname "$0")" && pwd)
BEFORE=${BEFORE:?main\'s dfgc} AFTER=${AFTER:?this branch\'s dfgc} SRC=${SRC:?checkout}
rm -rf "$D/gen" "$D/specs" && mkdir -p "$D/gen" "$D/specs"
"$BEFORE" compile "$SRC/bench/overlap/gpu_alone.dfg" -D N=1 -o "$D/gen/alone1.before"
"$BEFORE" compile "$SRC/bench/overlap/gpu_alone.dfg" -D N=1024 -o "$D/gen/alone1024.before"
"$AFTER" compile "$SRC/bench/overlap/gpu_alone.dfg" -D N=1 -o "$D/gen/alone1"
"$AFTER" compile "$SRC/bench/overlap/gpu_alone.dfg" -D N=1024 -o "$D/gen/alone1024"
"$AFTER" compile "$SRC/bench/overlap/gpu_alone_check.dfg" -D N=1 -o "$D/gen/check1"
"$AFTER" compile "$SRC/bench/overlap/gpu_alone_check.dfg" -D N=1024 -o "$D/gen/check1024"
"$AFTER" compile "$SRC/samples/iir/one_gpu.dfg" -o "$D/gen/iir_one_gpu"
# The same filter with three initial tokens: read in place from 4 slots of the GPU's buffer.
cp -r "$SRC/samples/iir/actors" "$SRC/samples/iir/iir.dfg" "$D/specs/"
sed -e 's/delay 1;/delay 3;/' -e 's/node k : Check  @ A.cpu;/node k : Check  @ A.cpu { feedback = 3; }/' \
  "$SRC/samples/iir/one_gpu.dfg" >"$D/specs/one_gpu_delay3.dfg"
"$AFTER" compile "$D/specs/one_gpu_delay3.dfg" -o "$D/gen/iir_one_gpu_delay3"
for p in "$D"/gen/*; do echo "$(basename "$p"): $(grep -h '  delay ' "$p/schedule.txt" | sort -u | tr '\n' ';')"; done
