#!/bin/bash
# StreamIt's FilterBank (samples/streamit/filterbank) on eight CPU cores against one, per batch:
#
#     bench/streamit/run.sh generate DIR [DFGC]   # here: one_core and cores, -D BATCH=64, 256, 1024
#     bench/streamit/run.sh run DIR OUT           # on the lent machine (16 cores or more)
#
# run builds every project (warnings as errors) and checks each mapping's first 800 outputs
# against StreamIt's reference.out; then, for each batch, runs one_core and cores interleaved,
# REPEATS times each (5), with --set PRINT=0 (the sink sums the outputs' bits instead of printing
# them) and --iterations ITERATIONS (262144, 2^21 samples): each run's throughput
# (--stats=period) and the sink's checksum, which must be equal everywhere. It prints the median
# microseconds an iteration per batch and mapping and the speed-up one_core / cores (the goal:
# at least 5 on eight cores). Results under OUT: log.txt, periods.csv
# (batch,mapping,repeat,iterations_per_s,checksum).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
batches=(64 256 1024)
mappings=(one_core cores)
case ${1:-} in
  generate)
    dir=${2:?usage: run.sh generate DIR [DFGC]}
    dfgc=${3:-$root/build/release/bin/dfgc}
    rm -rf "$dir" && mkdir -p "$dir"
    for b in "${batches[@]}"; do
      for m in "${mappings[@]}"; do
        "$dfgc" compile "$root/samples/streamit/filterbank/$m.dfg" -D BATCH="$b" -o "$dir/${m}_$b" || exit 1
      done
    done
    cp "$root/samples/streamit/filterbank/reference.out" "$dir/"
    exit 0
    ;;
  run) ;;
  *)
    echo "usage: run.sh generate DIR [DFGC] | run.sh run DIR OUT" >&2
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
for project in "$dir"/*/; do
  cmake -S "$project" -B "$project/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-Werror >/dev/null &&
    cmake --build "$project/build" -j 8 2>&1 | grep -iE "warning|error"
  app=$project/build/app
  [ -x "$app" ] || { echo "FAIL: build $project"; fails=1; continue; }
  "$app" --iterations 1024 >"$out/run.txt" 2>&1 || fails=1
  head -800 "$out/run.txt" | cmp -s - <(head -800 "$dir/reference.out") ||
    { echo "FAIL: $project differs from StreamIt's reference.out"; fails=1; }
done
echo "batch,mapping,repeat,iterations_per_s,checksum" >"$out/periods.csv"
for b in "${batches[@]}"; do
  for ((r = 0; r < repeats; ++r)); do
    for m in "${mappings[@]}"; do
      "$dir/${m}_$b/build/app" --iterations "$iterations" --set PRINT=0 --stats=period \
        >"$out/run.txt" 2>&1 || { echo "FAIL: $m batch $b: $(tail -3 "$out/run.txt")"; fails=1; }
      throughput=$(sed -n 's/^throughput: \([0-9.]*\) iterations\/s.*/\1/p' "$out/run.txt")
      checksum=$(sed -n 's/^filterbank: [0-9]* samples, checksum //p' "$out/run.txt")
      echo "$b,$m,$r,$throughput,$checksum" >>"$out/periods.csv"
    done
  done
done
python3 - "$out/periods.csv" <<'PYEOF' || fails=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = len({r["checksum"] for r in rows}) != 1 or any(not r["iterations_per_s"] for r in rows)
print(f"{'batch':>6} {'one_core us':>12} {'cores us':>10} {'speed-up':>9}   (us an iteration, median)")
for b in sorted({int(r["batch"]) for r in rows}):
    med = {m: statistics.median(1e6 / float(r["iterations_per_s"]) for r in rows
                                if int(r["batch"]) == b and r["mapping"] == m and r["iterations_per_s"])
           for m in ("one_core", "cores")}
    print(f"{b:>6} {med['one_core']:>12.3f} {med['cores']:>10.3f} {med['one_core'] / med['cores']:>9.2f}")
print("checksums:", "equal" if not bad else "DIFFER " + " ".join(sorted({r['checksum'] for r in rows})))
sys.exit(1 if bad else 0)
PYEOF
echo "fails=$fails"
