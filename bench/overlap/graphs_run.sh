#!/bin/bash
# GPU cycles as CUDA graphs, measured in one device call (bench/overlap/README.md, "CUDA graphs"):
#
#     bench/overlap/graphs_run.sh OUT PART
#
# PART a: the runtime's own cost per cycle of GPU programs with graphs and with --no-graphs
#         (runtime_cost.py, generated beforehand into $RC, default build/rc), every graph-captured
#         run of the suite generated into $SUITE (default build/suite_g) against --no-graphs
#         (graphs_ab.py), then compute-sanitizer memcheck (and racecheck on the small ones) on
#         graph-captured programs of the suite;
# PART b: the suite's GPU runs (bench/harness.py run on $SUITE, --only $ONLY), its ratios.
# Results under OUT, in the layouts of those scripts. REPEATS (default 3): the rounds of each
# comparison; SANITIZE: the suite's projects compute-sanitizer runs.
set -u
OUT=${1:?usage: graphs_run.sh OUT a|b}
PART=${2:?usage: graphs_run.sh OUT a|b}
RC=${RC:-build/rc}
SUITE=${SUITE:-build/suite_g}
REPEATS=${REPEATS:-3}
SANITIZE=${SANITIZE:-one_gpu-NB=5 iir-rule multirate-rule granulometry-rule saliency}
ONLY=${ONLY:-'^(tokens-|granulometry-|jpeg-|libjpeg|nvjpeg|overlap_|loop_multirate_gpu|peers_dfgc_(batched_)?gpu_mapped|peers_gpu|saliency|torch_)'}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/machine.txt"
nproc >> "$OUT/machine.txt"
if [ "$PART" = a ]; then
  python3 bench/overlap/runtime_cost.py run "$RC" --only gpu --repeats "$REPEATS" \
    --version-flags streams=--no-graphs --out "$OUT/runtime_cost"
  python3 bench/overlap/graphs_ab.py "$SUITE" --repeats "$REPEATS" --out "$OUT/graphs_ab.csv"
  for p in $SANITIZE; do
    [ -d "$SUITE/$p/build" ] || { cmake -S "$SUITE/$p" -B "$SUITE/$p/build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=native > /dev/null && cmake --build "$SUITE/$p/build" -j 8 > /dev/null; }
    app=$(find "$SUITE/$p/build" -name app -type f | head -1)
    tools=memcheck
    case $p in one_gpu*|iir*|multirate*) tools="memcheck racecheck" ;; esac
    for tool in $tools; do
      echo "== $tool $p" >> "$OUT/sanitizer.txt"
      timeout 90 compute-sanitizer --tool $tool "$app" --iterations 12 >> "$OUT/sanitizer.txt" 2>&1
      echo "exit $?" >> "$OUT/sanitizer.txt"
    done
  done
  grep -E "^==|SUMMARY|^exit" "$OUT/sanitizer.txt"
else
  python3 bench/harness.py run "$SUITE" --only "$ONLY" --results "$OUT/suite" --timeout 120 > "$OUT/harness.log" 2>&1
  tail -5 "$OUT/harness.log"
fi
