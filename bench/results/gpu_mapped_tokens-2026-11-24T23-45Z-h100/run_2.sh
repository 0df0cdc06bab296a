#!/bin/bash
# The 16 MiB overlap benchmark (tokens above the mapped threshold: still copied) with the runtime
# before mapped tokens (ov.before) and after (the first call's ov), one after the other.
set -u
export PYTHONUNBUFFERED=1
t0=$(date +%s)
for v in before after; do
  d=.dev/zc_tokens2/ov.before; [[ $v == after ]] && d=.dev/zc_tokens/ov
  if [[ ! -d $d ]]; then echo "no $d"; continue; fi
  timeout 100 python3 bench/harness.py run $d --results /tmp/ov_$v --timeout 60 > /tmp/ov_$v.log 2>&1
  echo "$v rc=$? at $(( $(date +%s) - t0 )) s"
  mkdir -p $OUT/ov_$v && cp /tmp/ov_$v/summary.txt /tmp/ov_$v/overlap-1gpu.csv $OUT/ov_$v/ 2>/dev/null
done
