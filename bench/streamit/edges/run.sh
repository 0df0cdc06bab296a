#!/bin/bash
# What an edge between two cores of one host costs, measured on FMRadio's mappings that differ in
# which edges cross cores (mappings.py), against what `dfgc map --evaluate` predicts for each:
#
#     bench/streamit/edges/run.sh generate DIR [NAME=CHOSEN.txt ...]  # here: every mapping at -D BATCH=64 and
#                                                                     # 256, and one_core.dfg for the profiles
#     bench/streamit/edges/run.sh run DIR OUT                         # on the lent machine (16 cores or more)
#     bench/streamit/edges/fit.py DIR OUT [DFGC]                      # here: predicted against measured
#
# NAME=CHOSEN.txt adds the mapping a `dfgc map` report chose (its placement lines) as app NAME.
# DFGC (the environment) is the dfgc that generate runs (build/release/bin/dfgc by default).
#
# run builds every project (warnings as errors), profiles one_core at each batch (--profile
# OUT/profile_BATCH.json, 16384 iterations), then times each mapping REPEATS times (5),
# interleaved, with --set PRINT=0 and --iterations ITERATIONS (262144). Results under OUT:
# log.txt, periods.csv (batch,mapping,repeat,iterations_per_s,checksum), profile_*.json.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
batches=(64 256)
case ${1:-} in
  generate)
    dir=${2:?usage: run.sh generate DIR [NAME=CHOSEN.txt ...]}
    shift 2
    dfgc=${DFGC:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    mappings=$(python3 "$here/mappings.py" "$dir/mappings.dfg" "$@") || exit 1
    echo "$mappings" >"$dir/mappings.txt"
    for b in "${batches[@]}"; do
      "$dfgc" compile "$root/samples/streamit/fmradio/one_core.dfg" -D BATCH="$b" -o "$dir/one_core_$b" || exit 1
      for m in $mappings; do
        "$dfgc" compile "$dir/mappings.dfg" --app="$m" -D BATCH="$b" -o "$dir/${m}_$b" || exit 1
      done
    done
    exit 0
    ;;
  run) ;;
  *)
    echo "usage: run.sh generate DIR [NAME=CHOSEN.txt ...] | run.sh run DIR OUT" >&2
    exit 2
    ;;
esac
dir=${2:?usage: run.sh run DIR OUT} out=${3:?usage: run.sh run DIR OUT}
repeats=${REPEATS:-5}
iterations=${ITERATIONS:-262144}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"
fails=0
build() {
  cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror >/dev/null &&
    cmake --build "$1/build" -j 1 2>&1 | grep -iE "warning|error"
  [ -x "$1/build/app" ] || echo "FAIL: build $1"
}
export -f build
printf '%s\0' "$dir"/*_*/ | xargs -0 -P "$(nproc)" -I{} bash -c 'build {}' | tee "$out/build.txt"
grep -q FAIL "$out/build.txt" && fails=1
mappings=$(cat "$dir/mappings.txt")
for b in "${batches[@]}"; do
  "$dir/one_core_$b/build/app" --iterations 16384 --set PRINT=0 --profile "$out/profile_$b.json" \
    >"$out/run.txt" 2>&1 || { echo "FAIL: profile batch $b: $(tail -3 "$out/run.txt")"; fails=1; }
done
echo "batch,mapping,repeat,iterations_per_s,checksum" >"$out/periods.csv"
for b in "${batches[@]}"; do
  for ((r = 0; r < repeats; ++r)); do
    for m in one_core $mappings; do
      "$dir/${m}_$b/build/app" --iterations "$iterations" --set PRINT=0 --stats=period \
        >"$out/run.txt" 2>&1 || { echo "FAIL: $m batch $b: $(tail -3 "$out/run.txt")"; fails=1; }
      throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
      checksum=$(sed -n "s/^fmradio: [0-9]* samples, checksum //p" "$out/run.txt")
      echo "$b,$m,$r,$throughput,$checksum" >>"$out/periods.csv"
    done
  done
done
python3 - "$out/periods.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = len({r["checksum"] for r in rows}) != 1 or any(not r["iterations_per_s"] for r in rows)
for b in sorted({int(r["batch"]) for r in rows}):
    for m in dict.fromkeys(r["mapping"] for r in rows):
        us = [1e6 / float(r["iterations_per_s"]) for r in rows
              if int(r["batch"]) == b and r["mapping"] == m and r["iterations_per_s"]]
        if us:
            print(f"batch {b:>4} {m:>10}: {statistics.median(us):.4f} us an iteration (median of {len(us)})")
print("checksums:", "DIFFER" if bad else "equal")
sys.exit(1 if bad else 0)
PYEOF
echo "fails=$fails"
